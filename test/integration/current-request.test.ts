/**
 * Issue 14, point 2, through a real Runner: the user's current message (text,
 * screenshots, a long task statement) stays verbatim in every request of its
 * turn while a long single-turn tool loop compacts its own older steps, and the
 * summary that covers those steps (a range with the request kept inside it)
 * still strips correctly on later turns and after a restart on SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSessionService, type Event, type Runner } from '@google/adk';
import type { Content, Part } from '@google/genai';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard, compactionView, tiktokenTokenizer } from '../../src/index.js';
import { SUMMARY_MARKER, decodeSummaryRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import type { ModelScript, RecordedRequest } from '../../src/testing/index.js';
import { USER_ID, createHarness, runTurn, startSession, storedSession } from '../support/agent-harness.js';
import { logText, pngBytes, proseText, toBase64, ScriptedSummarizer } from '../../src/testing/index.js';
import { allText, pairingViolations, startViolations } from '../support/request-invariants.js';

const keys = stateKeysFor('worker');
const folder = mkdtempSync(join(tmpdir(), 'context-guard-turn-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Calls `fetch_logs` `steps` times in the current turn (counted from the model's own calls), then answers. */
function toolLoopScript(steps: number, size: number): ModelScript {
  let calls = 0;
  return () => {
    calls += 1;
    if (calls <= steps)
      return {
        content: { role: 'model', parts: [{ functionCall: { name: 'fetch_logs', args: { size, seed: calls } } }] },
      };
    calls = 0;
    return { content: { role: 'model', parts: [{ text: 'Done with the task.' }] } };
  };
}

async function send(runner: Runner, sessionId: string, message: Content): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: USER_ID, sessionId, newMessage: message })) events.push(event);
  return events;
}

/** Whether `contents` hold a user content whose parts equal the message's parts, in order. */
function holdsVerbatim(contents: readonly Content[], message: Content): boolean {
  const wanted = JSON.stringify(message.parts);
  return contents.some((content) => content.role === 'user' && JSON.stringify(content.parts) === wanted);
}

function summarized(request: RecordedRequest): boolean {
  return request.contents.some((content) => content.parts?.[0]?.text?.startsWith(SUMMARY_MARKER) ?? false);
}

/**
 * A coding-agent task statement: 10,902 characters (prose, then the logs it quotes), with the
 * submission instructions at its very end; about 3,300 tokens, which the first test's premise checks.
 */
function taskStatement(): string {
  const submit =
    '\n\nWhen you are done, submit with the command `submit_patch --issue 4471 --branch fix/parser-timeouts` and nothing else.';
  const chars = 10_902 - 55 - submit.length;
  const quoted = `${proseText(Math.floor(chars / 2), 7)}\n${logText(chars - Math.floor(chars / 2) - 1, 7)}`;
  return `Task: fix the parser timeouts reported in issue 4471.\n\n${quoted}${submit}`;
}

describe('the current request through a long single-turn tool loop', () => {
  it('should keep the message and its three screenshots in every request of the turn, the first one included', async () => {
    // Before any real count the guard sizes this message over half the window (its uncalibrated threshold),
    // yet under the hard limit: it must go whole, not cut nor stripped of its images.
    const window = 12_288;
    const taskTokens = tiktokenTokenizer.count(taskStatement());
    expect(taskTokens).toBeGreaterThan(2_900);
    expect(taskTokens).toBeLessThan(3_700);
    // The message must ride through summaries: masking alone would make room in this turn.
    const guard = new ContextGuard({ contextWindow: window, summarizer: new ScriptedSummarizer(), maskKeepRecent: 0 });
    const harness = createHarness({ window, ratio: 1.8, script: toolLoopScript(12, 3_000), plugins: [guard] });
    const session = await harness.startSession();
    const screenshot = (width: number): Part => ({
      inlineData: { mimeType: 'image/png', data: toBase64(pngBytes(width, 1080)) },
    });
    const message: Content = {
      role: 'user',
      parts: [{ text: taskStatement() }, screenshot(1920), screenshot(1280), screenshot(1024)],
    };
    await send(harness.runner, session.id, message);

    const requests = harness.model.requests;
    expect(requests.length).toBe(13);
    expect(requests.some(summarized)).toBe(true);
    for (const request of requests) {
      expect(holdsVerbatim(request.contents, message), `request ${request.index}`).toBe(true);
      expect(pairingViolations(request.contents)).toEqual([]);
      expect(startViolations(request.contents)).toEqual([]);
    }
    expect(harness.model.rejectedRequests).toEqual([]);
  });

  it('should keep a 10,902-character task whole in every request of a 40-step turn, and strip correctly after a restart', async () => {
    const window = 32_768;
    const file = join(folder, 'task.sqlite');
    const firstStore = new DatabaseSessionService(`sqlite://${file}`);
    await firstStore.init();
    // The summary's strip after a restart is what this test follows: masking off, so the loop's steps are summarized.
    const guard = new ContextGuard({ contextWindow: window, summarizer: new ScriptedSummarizer(), maskKeepRecent: 0 });
    const first = createHarness({
      window,
      ratio: 1.8,
      script: toolLoopScript(40, 4_000),
      plugins: [guard],
      sessionService: firstStore,
    });
    const session = await startSession(firstStore);
    const task = taskStatement();
    expect(task.length).toBe(10_902);
    await runTurn(first.runner, session.id, task);

    expect(first.model.requests.length).toBe(41);
    expect(first.model.requests.some(summarized)).toBe(true);
    for (const request of first.model.requests) {
      expect(allText(request.contents).includes(task), `request ${request.index}`).toBe(true);
      expect(pairingViolations(request.contents)).toEqual([]);
    }
    expect(first.model.rejectedRequests).toEqual([]);
    const stored = await storedSession(firstStore, session.id);
    const summary = decodeSummaryRecord(stored.state[keys.summary]);
    expect(summary?.kept).toBeDefined();
    // The compaction-aware view shows it as sent: the task kept verbatim before the summary, not replaced.
    const view = compactionView(stored, 'worker');
    const taskEvent = stored.events.find((event) => event.author === 'user' && allText([event.content!]) === task)!;
    expect(view.visibleEventIds[0]).toBe(taskEvent.id);
    expect(view.replacedEventIds).not.toContain(taskEvent.id);
    const taskAt = view.modelView.indexOf(task.slice(0, 200));
    expect(taskAt).toBeGreaterThanOrEqual(0);
    expect(taskAt).toBeLessThan(view.modelView.indexOf('[summary'));

    // Restart: new store, new Runner, new guard on the same file. The next turn's first request is the
    // kept task, the stored summary, what the summary does not cover, and the new message: nothing else.
    const secondSummarizer = new ScriptedSummarizer();
    const secondStore = new DatabaseSessionService(`sqlite://${file}`);
    await secondStore.init();
    const second = createHarness({
      window,
      ratio: 1.8,
      script: toolLoopScript(1, 500),
      // Background compaction off: this turn starts within one (40-step) turn of the threshold, so the
      // guard would rightly prepare the next summary; what is checked here is that none is made to apply the stored one.
      plugins: [
        new ContextGuard({
          contextWindow: window,
          summarizer: secondSummarizer,
          maskKeepRecent: 0,
          prepareTurnsAhead: 0,
        }),
      ],
      sessionService: secondStore,
    });
    await runTurn(second.runner, session.id, 'Now check the release notes.');
    const next = second.model.requests[0]!;
    expect(secondSummarizer.calls).toHaveLength(0);
    expect(allText([next.contents[0]!])).toContain(task);
    expect(next.contents[1]?.parts?.[0]?.text).toContain(summary!.text);
    expect(allText(next.contents).split(task).length - 1).toBe(1);
    const stepsShown = next.contents.filter((content) => content.parts?.some((part) => part.functionCall)).length;
    // The summary covered every step before its watermark: only the later ones are sent again.
    const events = stored.events.filter((event) => event.content?.parts?.some((part) => part.functionCall));
    expect(stepsShown).toBe(events.length - (summary!.covered - 1) / 2);
    expect(pairingViolations(next.contents)).toEqual([]);
    expect(second.model.rejectedRequests).toEqual([]);
    expect(
      decodeUsageRecord((await storedSession(secondStore, session.id))?.state[keys.usage]).compactions,
    ).toBeGreaterThan(0);
  });
});
