/**
 * Warm caches send what cold ones send, after the database reloads a history in another order.
 *
 * The guard keeps per-session caches across calls (the measure cache's counts and fingerprints, the
 * masked view's placeholders); on a history it trusts (no plugin before it) the measure cache takes the
 * contents it knows as they were while the first and last are in place. A `SequentialAgent`
 * [ParallelAgent[a, b], c] on ADK's `DatabaseSessionService` (SQLite in a file) reorders the middle of
 * c's history between turns: a starts first and finishes last, so its answer is appended after b's but
 * stamped before it, and the next turn reads the two back swapped (reordered-history.test.ts).
 *
 * Before every turn the session's database file is copied, and the turn is served twice from the same
 * stored history: on the copy by a guard made for that turn (cold caches), and on the original by the
 * guard that served every turn before it (warm caches). Each request c's model gets, and what the guard
 * decided for it (its estimate, the mask and summary it stored), must be the same.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSessionService, LlmAgent, ParallelAgent, Runner, SequentialAgent } from '@google/adk';
import type { Context, LlmRequest, LlmResponse } from '@google/adk';
import type { Content, Part } from '@google/genai';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { decodeSummaryRecord, decodeUsageRecord, stateKeysFor } from '../../src/internal.js';
import { historyMayBeEdited } from '../../src/adk/hooks/history-editors.js';
import { MASKED_RESULT_KEY } from '../../src/masking/placeholder-text.js';
import { decodeMaskRecord } from '../../src/masking/mask-record.js';
import {
  ScriptedLlm,
  ScriptedSummarizer,
  logText,
  ratioTokenCounter,
  type ModelScript,
} from '../../src/testing/index.js';
import { APP_NAME, USER_ID, fetchLogsTool, runTurn } from '../support/agent-harness.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { SlowScriptedLlm, turnOf } from '../support/slow-scripted-llm.js';
import { SUMMARY_MARKER } from '../../src/internal.js';

const folder = mkdtempSync(join(tmpdir(), 'context-guard-reorder-diff-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A branch's answer: a marker, and a report of `chars` (a's and b's differ, so their counts do). */
function branchScript(name: string, chars: number): ModelScript {
  return ({ request }) => ({
    content: {
      role: 'model',
      parts: [{ text: `${name.toUpperCase()}-${turnOf(request)} ${logText(chars, turnOf(request))}` }],
    },
  });
}

/** What the guard decided for one call of c, read from the state it wrote. */
interface Decision {
  /** The estimate of the request as sent, before calibration (the calibrated one follows from it). */
  readonly estimate: number | undefined;
  readonly mask: { readonly upTo: number; readonly start: number | undefined; readonly anchor: string } | undefined;
  readonly maskContents: unknown;
  readonly summary: { readonly covered: number; readonly anchor: string; readonly contents: unknown } | undefined;
}

/** The guard, keeping what c's requests held as they reached it and what it decided for each. */
class RecordingGuard extends ContextGuard {
  readonly raw: Content[][] = [];
  readonly decisions: Decision[] = [];
  trusted = true;

  override async beforeModelCallback(args: {
    callbackContext: Context;
    llmRequest: LlmRequest;
  }): Promise<LlmResponse | undefined> {
    const { callbackContext } = args;
    if (callbackContext.agentName !== 'c') return super.beforeModelCallback(args);
    this.raw.push(structuredClone(args.llmRequest.contents));
    this.trusted &&= !historyMayBeEdited(callbackContext.invocationContext, this);
    const result = await super.beforeModelCallback(args);
    const keys = stateKeysFor('c');
    const usage = decodeUsageRecord(callbackContext.state.get<unknown>(keys.usage));
    const mask = decodeMaskRecord(callbackContext.state.get<unknown>(keys.mask));
    const summary = decodeSummaryRecord(callbackContext.state.get<unknown>(keys.summary));
    this.decisions.push({
      estimate: usage.sentEstimate,
      mask: mask && { upTo: mask.upTo, start: mask.start, anchor: mask.anchor },
      maskContents: mask?.contents,
      summary: summary && {
        covered: summary.covered,
        anchor: summary.anchor,
        contents: summary.contents,
      },
    });
    return result;
  }
}

interface Pipeline {
  readonly runner: Runner;
  readonly guard: RecordingGuard;
  readonly cModel: ScriptedLlm;
}

/** [ParallelAgent[a, b], c] on `store`, c guarded on a small window, masking its old log reads for cost. */
function pipeline(store: DatabaseSessionService): Pipeline {
  // a starts its step first and answers 120 ms later; b starts 20 ms after a and answers at once.
  const a = new LlmAgent({
    name: 'a',
    model: new SlowScriptedLlm(120, branchScript('a', 1_800)),
    instruction: 'Branch a.',
    includeContents: 'none',
  });
  const b = new LlmAgent({
    name: 'b',
    model: new SlowScriptedLlm(0, branchScript('b', 300)),
    instruction: 'Branch b.',
    includeContents: 'none',
    beforeAgentCallback: async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return undefined;
    },
  });
  const cModel = new ScriptedLlm({
    window: 8_000,
    countTokens: ratioTokenCounter(1.2),
    script: callThenAnswer({
      call: ({ request }) => ({ name: 'fetch_logs', args: { size: 2_400, seed: turnOf(request) } }),
      answer: ({ request }) => `C-${turnOf(request)} noted.`,
    }),
  });
  const c = new LlmAgent({
    name: 'c',
    model: cModel,
    instruction: 'You combine the branches.',
    tools: [fetchLogsTool()],
  });
  const root = new SequentialAgent({
    name: 'pipeline',
    subAgents: [new ParallelAgent({ name: 'branches', subAgents: [a, b] }), c],
  });
  const guard = new RecordingGuard({
    agents: { a: { enabled: false }, b: { enabled: false }, c: { contextWindow: 8_000 } },
    summarizer: new ScriptedSummarizer(),
    maskKeepRecent: 1,
    maskStaleOutputTokens: 300,
    prepareTurnsAhead: 0,
  });
  // No plugin before the guard: it takes the history as ADK built it (the cache's trusted path).
  return {
    runner: new Runner({ appName: APP_NAME, agent: root, sessionService: store, plugins: [guard] }),
    guard,
    cModel,
  };
}

async function openStore(file: string): Promise<DatabaseSessionService> {
  const store = new DatabaseSessionService(`sqlite://${file}`);
  await store.init();
  return store;
}

/** Copies the SQLite database `from` (with its journal files, if any) to `to`. */
function copyDatabase(from: string, to: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal'])
    if (existsSync(from + suffix)) copyFileSync(from + suffix, to + suffix);
}

/** What one call of c looked like: the contents the guard got, those the model got, and the guard's decision. */
interface Call {
  readonly raw: readonly Content[];
  readonly sent: readonly Content[];
  readonly decision: Decision;
}

function callsSince(run: Pipeline, from: number): Call[] {
  return run.cModel.requests.slice(from).map((request, k) => ({
    raw: run.guard.raw[from + k]!,
    sent: request.contents,
    decision: run.guard.decisions[from + k]!,
  }));
}

function isSummary(content: Content): boolean {
  return (content.parts ?? []).some((part) => part.text?.includes(SUMMARY_MARKER) === true);
}

function responseOf(content: Content | undefined): Part['functionResponse'] {
  return content?.parts?.find((part) => part.functionResponse)?.functionResponse;
}

/**
 * Where the request sent differs from the history the guard got, other than by a summary in front (the
 * contents after it are the history's last ones) or a placeholder for the tool result at the same place.
 */
function misplaced(raw: readonly Content[], sent: readonly Content[]): string[] {
  const problems: string[] = [];
  let start = 0;
  sent.forEach((content, index) => {
    if (isSummary(content)) start = index + 1;
  });
  for (let j = 1; j <= sent.length - start; j++) {
    const out = sent[sent.length - j]!;
    const original = raw[raw.length - j];
    if (JSON.stringify(out) === JSON.stringify(original)) continue;
    const masked = responseOf(out);
    const expected = responseOf(original);
    const isPlaceholder = masked?.response?.[MASKED_RESULT_KEY] !== undefined;
    if (isPlaceholder && expected && masked?.name === expected.name && masked.id === expected.id) continue;
    problems.push(`content ${raw.length - j} of ${raw.length} is sent as something else`);
  }
  return problems;
}

describe('a trusted history the database reloads in another order', () => {
  it('should send, with caches warm from earlier turns, exactly what a guard with cold caches sends', async () => {
    const turns = 12;
    const file = join(folder, 'warm.sqlite');
    const store = await openStore(file);
    const warm = pipeline(store);
    const session = await store.createSession({ appName: APP_NAME, userId: USER_ID });
    let reordered = 0;
    for (let turn = 1; turn <= turns; turn++) {
      const text = `Turn ${turn}: compare the branches.`;
      const fork = join(folder, `turn-${turn}.sqlite`);
      copyDatabase(file, fork);
      const cold = pipeline(await openStore(fork));
      await runTurn(cold.runner, session.id, text);
      const from = warm.cModel.requests.length;
      await runTurn(warm.runner, session.id, text);
      const warmCalls = callsSince(warm, from);
      const coldCalls = callsSince(cold, 0);
      // The same stored history reached both guards.
      expect(warmCalls.map((call) => call.raw)).toEqual(coldCalls.map((call) => call.raw));
      warmCalls.forEach((call, k) => {
        const other = coldCalls[k]!;
        expect({ turn, call: k, sent: call.sent }).toEqual({ turn, call: k, sent: other.sent });
        expect({ turn, call: k, ...call.decision, estimate: 0 }).toEqual({
          turn,
          call: k,
          ...other.decision,
          estimate: 0,
        });
        expect(call.decision.estimate).toBe(other.decision.estimate);
        expect(misplaced(call.raw, call.sent)).toEqual([]);
      });
      if (turn > 1 && markersIn(warmCalls[0]!.raw, turn - 1).join() === `A-${turn - 1},B-${turn - 1}`) reordered++;
    }
    expect(warm.guard.trusted).toBe(true);
    expect(warm.cModel.rejectedRequests).toEqual([]);
    // The reorder happened, and masking and a summary both acted on c.
    expect(reordered).toBeGreaterThan(turns / 2);
    const last = warm.guard.decisions.at(-1)!;
    expect(last.summary).toBeDefined();
    expect(last.mask).toBeDefined();
  });
});

function markersIn(contents: readonly Content[], turn: number): string[] {
  const text = JSON.stringify(contents);
  return [...text.matchAll(new RegExp(`\\b([AB]-${turn}) `, 'g'))].map((match) => match[1] ?? '');
}
