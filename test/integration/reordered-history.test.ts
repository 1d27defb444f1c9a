/**
 * A summary survives a history the database reloads in another order. A `SequentialAgent`
 * [ParallelAgent[a, b], c] on ADK's `DatabaseSessionService` (SQLite in a file): ADK stamps a model
 * response when its step starts, and the database returns events sorted by that stamp, so when
 * branch a starts first and finishes last, the turn's events come back on the next turn as
 * [a, b] although they were appended (and seen by c, which the guard compacts) as [b, a].
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BasePlugin, DatabaseSessionService, LlmAgent, ParallelAgent, Runner, SequentialAgent } from '@google/adk';
import type { Context, LlmRequest, LlmResponse } from '@google/adk';
import type { Content } from '@google/genai';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard, type CompactionRecord } from '../../src/index.js';
import { decodeSummaryRecord, stateKeysFor } from '../../src/internal.js';
import { historyMayBeEdited } from '../../src/adk/hooks/history-editors.js';
import {
  CapturingLogger,
  ScriptedLlm,
  ScriptedSummarizer,
  logText,
  ratioTokenCounter,
  type ModelScript,
} from '../../src/testing/index.js';
import { APP_NAME, USER_ID, fetchLogsTool, runTurn } from '../support/agent-harness.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { SlowScriptedLlm, turnOf } from '../support/slow-scripted-llm.js';
import { summaryText } from '../support/request-invariants.js';

const folder = mkdtempSync(join(tmpdir(), 'context-guard-reorder-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A branch's answer: a marker naming the branch and turn, and a report long enough to fill c's window. */
function branchScript(name: string): ModelScript {
  return ({ request }) => ({
    content: {
      role: 'model',
      parts: [{ text: `${name.toUpperCase()}-${turnOf(request)} ${logText(1_200, turnOf(request))}` }],
    },
  });
}

function textOf(contents: readonly Content[]): string {
  return contents.map((content) => (content.parts ?? []).map((part) => part.text ?? '').join('')).join('\n');
}

/** Markers of the branches' and c's answers in `text`, in order. */
function markers(text: string): string[] {
  return [...text.matchAll(/\b([ABC]-\d+) /g)].map((match) => match[1] ?? '');
}

/** What c's requests held before the guard saw them (a plugin registered ahead of it). */
class RawRequests extends BasePlugin {
  readonly contents: Content[][] = [];

  constructor() {
    super('raw_requests');
  }

  override async beforeModelCallback({
    callbackContext,
    llmRequest,
  }: {
    callbackContext: Context;
    llmRequest: LlmRequest;
  }): Promise<LlmResponse | undefined> {
    if (callbackContext.agentName === 'c') this.contents.push(structuredClone(llmRequest.contents));
    return Promise.resolve(undefined);
  }
}

/**
 * The guard with c's requests kept as they reach it: no plugin before it, so it takes the history as ADK's
 * own (adk/hooks/history-editors.ts), and `trusted` says it did on every call of c.
 */
class CapturingGuard extends ContextGuard {
  readonly contents: Content[][] = [];
  trusted = true;

  override async beforeModelCallback(args: {
    callbackContext: Context;
    llmRequest: LlmRequest;
  }): Promise<LlmResponse | undefined> {
    if (args.callbackContext.agentName === 'c') {
      this.contents.push(structuredClone(args.llmRequest.contents));
      this.trusted &&= !historyMayBeEdited(args.callbackContext.invocationContext, this);
    }
    return super.beforeModelCallback(args);
  }
}

interface Run {
  readonly sent: readonly Content[][];
  readonly raw: readonly Content[][];
  /** Each compaction, with the index of the request it was made on. */
  readonly compactions: readonly { readonly record: CompactionRecord; readonly request: number }[];
  readonly warnings: readonly string[];
  readonly summaryCompactions: number | undefined;
  readonly rejected: number;
  /** The guard took every request of c as ADK built it (no plugin before it). */
  readonly trusted: boolean;
}

/**
 * Turns 1..`turns` of [ParallelAgent[a, b], c] on a SQLite file, c guarded on a small window; with
 * `cFetches`, c fetches logs once a turn before it answers (its compactions then cut after the run).
 * `trusted`: no plugin before the guard (c's requests are kept by the guard itself), so it takes the
 * history as ADK built it; otherwise a plugin before it keeps them and the guard compares every content.
 */
async function runPipeline(turns: number, cFetches: boolean, trusted = false): Promise<Run> {
  const file = `sessions-${String(cFetches)}-${String(trusted)}.sqlite`;
  const store = new DatabaseSessionService(`sqlite://${join(folder, file)}`);
  await store.init();
  // a starts its step first and answers 120 ms later; b starts 20 ms after a and answers at once.
  const aModel = new SlowScriptedLlm(120, branchScript('a'));
  const bModel = new SlowScriptedLlm(0, branchScript('b'));
  const cModel = new ScriptedLlm({
    window: 6_000,
    countTokens: ratioTokenCounter(1.2),
    script: callThenAnswer({
      call: ({ request }) =>
        cFetches ? { name: 'fetch_logs', args: { size: 2_000, seed: turnOf(request) } } : undefined,
      answer: ({ request }) => `C-${turnOf(request)} noted.`,
    }),
  });
  const a = new LlmAgent({ name: 'a', model: aModel, instruction: 'Branch a.', includeContents: 'none' });
  const b = new LlmAgent({
    name: 'b',
    model: bModel,
    instruction: 'Branch b.',
    includeContents: 'none',
    beforeAgentCallback: async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return undefined;
    },
  });
  const c = new LlmAgent({
    name: 'c',
    model: cModel,
    instruction: 'You combine the branches.',
    tools: [fetchLogsTool()],
  });
  const branches = new ParallelAgent({ name: 'branches', subAgents: [a, b] });
  const root = new SequentialAgent({ name: 'pipeline', subAgents: [branches, c] });
  const logger = new CapturingLogger();
  const raw = new RawRequests();
  const compactions: { record: CompactionRecord; request: number }[] = [];
  const guard = new CapturingGuard({
    agents: { a: { enabled: false }, b: { enabled: false }, c: { contextWindow: 6_000 } },
    summarizer: new ScriptedSummarizer(),
    // One call a summary: its window takes all a summary covers (else several, summary/summarize-covered.ts).
    summarizerContextWindow: 1_000_000,
    maskKeepRecent: 0,
    prepareTurnsAhead: 0,
    logger,
    onCompaction: (record) => {
      compactions.push({ record, request: guard.contents.length - 1 });
    },
  });
  const plugins = trusted ? [guard] : [raw, guard];
  const runner = new Runner({ appName: APP_NAME, agent: root, sessionService: store, plugins });
  const session = await store.createSession({ appName: APP_NAME, userId: USER_ID });
  for (let turn = 1; turn <= turns; turn++) await runTurn(runner, session.id, `Turn ${turn}: compare the branches.`);
  const stored = await store.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: session.id });
  return {
    sent: cModel.requests.map((request) => request.contents),
    raw: guard.contents,
    compactions,
    warnings: logger.lines.filter((line) => line.level !== 'debug').map((line) => line.message),
    summaryCompactions: decodeSummaryRecord(stored?.state[stateKeysFor('c').summary])?.compactions,
    rejected: cModel.rejectedRequests.length,
    trusted: guard.trusted,
  };
}

describe('a summary over a history the database reorders', () => {
  // Trusted: the reorder keeps the first and last contents in place, so the measure cache sees it by the order of
  // the session's events (reorder-differential.test.ts); the watermarks are checked content by content anyway
  // (estimate/live-fingerprints.ts).
  // c answering at once was handed both branch answers: its compaction keeps them whole (they fit its room), so the
  // reorder falls in the kept tail; before, the cut fell between them, and unit tests hold the watermark's side
  // (src/state/watermark.test.ts).
  it.each([
    ['in the kept tail (c answers at once: its compaction keeps both branch answers it was just handed)', false, false],
    ['inside the covered range (c fetches first: its compaction cuts after the run)', true, false],
    ['in the kept tail, with no plugin before the guard (a trusted history)', false, true],
    ['inside the covered range, with no plugin before the guard (a trusted history)', true, true],
  ])(
    'should keep applying the summary, and strip nothing it does not cover, when the run is reordered %s',
    async (_, cFetches, trusted) => {
      const run = await runPipeline(12, cFetches, trusted);
      expect(run.trusted).toBe(trusted);
      expect(run.rejected).toBe(0);
      expect(run.compactions.length).toBeGreaterThan(0);
      // The reorder happened: the compaction's turn was seen as [b, a] and comes back as [a, b] on the next turn.
      const first = run.compactions[0]!;
      const turn = turnOf({ contents: run.raw[first.request]! });
      const seen = markers(textOf(run.raw[first.request]!)).filter((marker) => marker.endsWith(`-${turn}`));
      const nextTurn = run.raw.find((contents) => turnOf({ contents }) > turn)!;
      const reloaded = markers(textOf(nextTurn)).filter((marker) => marker.endsWith(`-${turn}`));
      expect(seen.filter((marker) => !marker.startsWith('C'))).toEqual([`B-${turn}`, `A-${turn}`]);
      expect(reloaded.filter((marker) => !marker.startsWith('C'))).toEqual([`A-${turn}`, `B-${turn}`]);

      // The watermark falls where the case says: before the turn's two branch answers, or after both.
      const cuts = run.compactions.map(({ record, request }) => {
        const at = turnOf({ contents: run.raw[request]! });
        const before = markers(textOf(run.raw[request]!.slice(0, record.coveredContents.to)));
        return [`A-${at}`, `B-${at}`].filter((marker) => before.includes(marker)).length;
      });
      expect(cuts).toContain(cFetches ? 2 : 0);
      expect(cuts).not.toContain(1);

      expect(run.warnings.filter((line) => line.includes('not applied'))).toEqual([]);
      // One summary chain: no compaction started afresh from the first content after a summary existed.
      expect(run.summaryCompactions).toBe(run.compactions.length);
      expect(run.compactions.slice(1).every(({ record }) => record.coveredContents.from > 0)).toBe(true);
      // Every request after the first compaction carries the summary (first, or after the message it keeps).
      for (const contents of run.sent.slice(first.request)) expect(summaryText(contents)).toBeDefined();
      // Nothing stripped that no summary covers: each branch and c answer of the history is sent, or was covered.
      const covered = new Set(
        run.compactions.flatMap(({ record, request }) =>
          markers(textOf(run.raw[request]!.slice(record.coveredContents.from, record.coveredContents.to))),
        ),
      );
      run.raw.forEach((history, index) => {
        const sent = new Set(markers(textOf(run.sent[index]!)));
        expect(markers(textOf(history)).filter((marker) => !sent.has(marker) && !covered.has(marker))).toEqual([]);
      });
    },
  );
});
