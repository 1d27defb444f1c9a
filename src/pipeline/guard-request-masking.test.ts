import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import {
  functionCall,
  functionResponse,
  modelText,
  testPolicy,
  usageRecord,
  userText,
} from '../../test/support/builders.js';
import { CALIBRATED_USAGE, guardInput } from '../../test/support/guard-input.js';
import type { SummarizeRequest, SummaryOutcome } from '../summary/summarizer.js';
import { EMPTY_USAGE } from '../usage/stored-usage.js';
import { guardRequest, type GuardRequestInput } from '../pipeline/guard-request.js';

// One token per character. Calibrated at 1.5 on a 10,000 window: threshold 8,000, room
// 8,000 / 1.5 - 500 fixed = 4,833 heuristic tokens; the summary's target is half of it (2,416),
// the masking's is the room itself.
const pad = (label: string, tokens: number): string => label.padEnd(tokens, 'x');

/** A completed turn with a 3,000-token result, then the in-flight turn with its own small result. */
const CONTENTS: Content[] = [
  userText(pad('fetch the logs', 100)),
  functionCall('fetch_logs', { q: 'all' }),
  functionResponse('fetch_logs', { logs: pad('line', 3_000) }),
  modelText(pad('the logs show a disk failure on node 7', 1_500)),
  userText(pad('now check node 7 in detail', 1_000)),
  functionCall('inspect', { node: 7 }),
  functionResponse('inspect', { status: pad('degraded', 100) }),
];

function input(maskKeepRecent: number): { input: GuardRequestInput; calls: SummarizeRequest[] } {
  const calls: SummarizeRequest[] = [];
  const summarize = (request: Omit<SummarizeRequest, 'signal'>): Promise<SummaryOutcome> => {
    calls.push({ ...request, signal: new AbortController().signal });
    return Promise.resolve({ ok: true, text: 'summary', truncated: false });
  };
  return {
    calls,
    input: guardInput({ contents: CONTENTS, policy: { ...testPolicy(), maskKeepRecent }, summarize }),
  };
}

describe('guardRequest: masking before a summary', () => {
  it('should make no summarizer call when masking brings the request under the threshold', async () => {
    const { input: guarded, calls } = input(1);
    const result = await guardRequest(guarded);
    expect(result.masking?.cause).toBe('room');
    expect(result.compaction).toBeUndefined();
    expect(calls).toHaveLength(0);
    // Under the threshold, though above the summary's lower target.
    expect(result.calibrated).toBeLessThan(result.budget.threshold);
    expect(result.estimate - 500).toBeGreaterThan(2_416);
  });

  it('should summarize the same history when masking is off', async () => {
    const { input: guarded, calls } = input(0);
    const result = await guardRequest(guarded);
    expect(result.compaction).toBeDefined();
    // Several calls: the covered contents (4,600 heuristic tokens) do not fit the summarizer's prompt (10,000 x 0.8 /
    // 1.5 less the summary's cap) at once; the oldest are summarized first (summary/summarize-covered.ts).
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.length).toBeLessThanOrEqual(4);
    expect(calls[0]?.prompt).toContain('fetch the logs');
    expect(calls.some((call) => call.prompt.includes('the logs show a disk failure on node 7'))).toBe(true);
  });
});

describe('guardRequest: a summary that continues the cached request costs less', () => {
  // The masking alone is enough (above), and a summary now lands lower. Priced with the summary's
  // output at the input price and a turn adding 500 tokens over two calls, the two cost about
  // the same per call when the summarizer's prompt is billed whole (both rewrite the whole request:
  // the head before the first placeholder is under the cacheable minimum); the agent's own model,
  // continuing the request it cached (a window with room for it), reads that prompt at the cached price.
  // (At 1.2x the output price the two were within the tokens of the instruction's "data, never instructions"
  // clause, which tipped it: review 29.)
  const priced = (summarizerReadsRequest: boolean) => {
    const { input: base, calls } = input(1);
    const usage = { ...base.usage, averageTurnTokens: 500, modelCalls: 4, invocations: 2 };
    const guarded = { ...base, usage, summarizerReadsRequest, summarizerWindow: 20_000, outputPriceRatio: 1.0 };
    return { guarded, calls };
  };

  it('should keep to the masking when the summarizer reads a prompt of its own', async () => {
    const { guarded, calls } = priced(false);
    const result = await guardRequest(guarded);
    expect(result.masking?.cause).toBe('room');
    expect(result.compaction).toBeUndefined();
    expect(calls).toHaveLength(0);
  });

  it("should summarize now when the summary continues the agent's cached request", async () => {
    const { guarded, calls } = priced(true);
    const result = await guardRequest(guarded);
    expect(result.compaction).toBeDefined();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.leadingContents?.length).toBeGreaterThan(0);
  });
});

describe('guardRequest: a summary continuing a request the provider counts below its estimate', () => {
  // Code and JSON: the provider counted the last request at 0.76 of the estimate. The leading part a
  // summary covers (~9,600 heuristic tokens) does not fit a 10,000-token window with the instruction and
  // the summary at 1 token per heuristic token, but does at the rate the provider counts the request.
  const heavy: Content[] = [
    userText(pad('fetch the logs', 100)),
    functionCall('fetch_logs', { q: 'all' }),
    functionResponse('fetch_logs', { logs: pad('line', 6_000) }),
    modelText(pad('the logs show a disk failure on node 7', 3_000)),
    userText(pad('now check node 7 in detail', 1_000)),
    functionCall('inspect', { node: 7 }),
    functionResponse('inspect', { status: pad('degraded', 100) }),
  ];

  it("should continue the agent's request, measured as the provider counts it", async () => {
    const calls: SummarizeRequest[] = [];
    const summarize = (request: Omit<SummarizeRequest, 'signal'>): Promise<SummaryOutcome> => {
      calls.push({ ...request, signal: new AbortController().signal });
      return Promise.resolve({ ok: true, text: 'summary', truncated: false });
    };
    const probe = guardInput({ contents: heavy });
    const estimate = probe.tokens.reduce((sum, tokens) => sum + tokens, probe.fixedTokens);
    const usage = usageRecord({
      realPromptTokens: Math.round(estimate * 0.76),
      lastEstimate: estimate,
      learnedCorrection: 1,
    });
    const result = await guardRequest(
      guardInput({
        contents: heavy,
        usage,
        policy: { ...testPolicy(), maskKeepRecent: 0 },
        summarize,
        summarizerReadsRequest: true,
      }),
    );
    expect(result.compaction).toBeDefined();
    expect(calls).toHaveLength(1);
    // The heuristic leading part alone would not leave room for the summary in the window.
    const leadingHeuristic = estimate - probe.tokens.slice(4).reduce((sum, tokens) => sum + tokens, 0);
    expect(leadingHeuristic + (calls[0]?.maxOutputTokens ?? 0)).toBeGreaterThan(10_000);
    expect(calls[0]?.leadingContents?.length).toBeGreaterThan(0);
  });
});

describe('guardRequest: masking for cost, with nothing due', () => {
  // Two completed turns of 1,500-token results, then the first call of a third turn: ~3,900
  // heuristic tokens with the fixed part, calibrated ~5,800, under the threshold of 8,000.
  const turns: Content[] = [
    ...[1, 2].flatMap((n) => [
      userText(`turn ${n}`),
      functionCall('fetch_logs', { n }),
      functionResponse('fetch_logs', { logs: pad(`line ${n}`, 1_500) }),
      modelText(`done ${n}`),
    ]),
    userText('turn 3'),
  ];
  const futile = { window: 10_000, fixedTokens: 500, correction: 1.5, contentTokens: 5_000 };
  const costInput = (maskStaleOutputTokens: number): GuardRequestInput =>
    guardInput({
      contents: turns,
      policy: { ...testPolicy(), maskStaleOutputTokens },
      usage: { ...guardInput({ contents: turns }).usage, futileCompaction: futile },
      // No cache discount: the saving alone decides (the trade is mask-stale-output.test.ts's).
      cachedPriceRatio: 1,
      // The guard declares the recall tool wherever masking for cost is on.
      recallToolName: 'recall_history',
    });

  it('should mask for cost, say so, make no compaction, and keep a futile attempt remembered', async () => {
    const result = await guardRequest(costInput(1_000));
    expect(result.calibrated).toBeLessThan(result.budget.threshold);
    expect(result.masking).toMatchObject({ upTo: 8, cause: 'cost' });
    expect(result.compaction).toBeUndefined();
    expect(result.state.usage.maskings).toBe(1);
    expect(result.state.usage.futileCompaction).toEqual(futile);
  });

  it("should weigh the provider's cache: at the default discount, a masking that leaves too short a request to cache waits", async () => {
    const result = await guardRequest({ ...costInput(1_000), cachedPriceRatio: undefined });
    expect(result.masking).toBeUndefined();
    expect(result.contents).toBeUndefined();
  });

  it('should send the request as it is while the stale output would save less than the option', async () => {
    const result = await guardRequest(costInput(16_384));
    expect(result.masking).toBeUndefined();
    expect(result.contents).toBeUndefined();
    expect(result.state.usage.futileCompaction).toEqual(futile);
  });
});

describe('guardRequest: the first masking of a cycle keeps the cached head', () => {
  // The oldest result starts about 930 calibrated tokens in, under the cacheable minimum: masking
  // from it rewrites the whole request. A long answer follows it, and the second result starts
  // about 6,400 tokens in: masking it alone meets the masking's target (the room) and rewrites the
  // few hundred tokens after the head, paid over the five calls before the threshold again.
  const contents: Content[] = [
    userText(pad('check the cluster', 100)),
    functionCall('fetch_logs', { q: 'all' }),
    functionResponse('fetch_logs', { logs: pad('line', 1_500) }),
    modelText(pad('the logs show a disk failure on node 7', 2_000)),
    userText(pad('now check node 7 in detail', 100)),
    functionCall('inspect', { node: 7 }),
    functionResponse('inspect', { status: pad('degraded', 1_500) }),
    modelText(pad('node 7 is degraded', 100)),
    userText(pad('and what next?', 100)),
  ];
  const usage = { ...guardInput({ contents }).usage, averageTurnTokens: 500, modelCalls: 4, invocations: 2 };

  it('should mask only the recent result, sending every content before it byte-identical', async () => {
    const result = await guardRequest(guardInput({ contents, usage, policy: { ...testPolicy(), maskKeepRecent: 1 } }));
    expect(result.masking?.cause).toBe('room');
    expect(result.compaction).toBeUndefined();
    expect(result.calibrated).toBeLessThan(result.budget.threshold);
    const sent = result.contents ?? [];
    expect(JSON.stringify(sent.slice(0, 6))).toBe(JSON.stringify(contents.slice(0, 6)));
    expect(JSON.stringify(sent[6])).not.toBe(JSON.stringify(contents[6]));
    expect(result.state.mask).toMatchObject({ start: 6, upTo: 8 });
  });
});

describe('guardRequest: a masking measured as the request before it', () => {
  it('should not report a masking larger than the request it masked when the provider counts below the estimate', async () => {
    // The provider counted the last request at 0.9 of its estimate: the correction is 1 and the
    // request is calibrated from that count (7,200 + what was appended since), under estimate x 1.
    const usage = usageRecord({ realPromptTokens: 7_200, lastEstimate: 8_000, sentEstimate: 8_000 });
    const contents: Content[] = [
      userText(pad('fetch the logs', 100)),
      functionCall('fetch_logs', { q: 'all' }),
      functionResponse('fetch_logs', { logs: pad('line', 1_000) }),
      modelText(pad('the logs show a disk failure on node 7', 5_000)),
      userText(pad('now check node 7 in detail', 2_000)),
      functionCall('inspect', { node: 7 }),
      functionResponse('inspect', { status: pad('degraded', 100) }),
    ];
    const result = await guardRequest(guardInput({ contents, usage, policy: { ...testPolicy(), maskKeepRecent: 1 } }));
    const masking = result.masking;
    expect(masking?.cause).toBe('room');
    // Charged at the full correction, the masked request read ~8,108 against the ~8,028 it masked.
    expect(masking?.tokensAfter).toBeLessThan(masking?.tokensBefore ?? 0);
  });
});

describe('guardRequest: a masking for room waits for the call that needs it', () => {
  // Just over the 8,000 threshold (a 3,700-token result of a completed turn), well under the 9,500 hard limit.
  const near: Content[] = [
    userText(pad('fetch the logs', 100)),
    functionCall('fetch_logs', { q: 'all' }),
    functionResponse('fetch_logs', { logs: pad('line', 3_700) }),
    modelText(pad('the logs show a disk failure on node 7', 700)),
    userText(pad('now check node 7 in detail', 300)),
    functionCall('inspect', { node: 7 }),
    functionResponse('inspect', { status: pad('degraded', 100) }),
  ];
  const paced = (averageTurnTokens: number | undefined, fields: Partial<GuardRequestInput> = {}) =>
    guardInput({
      contents: near,
      policy: { ...testPolicy(), maskKeepRecent: 1 },
      // The provider counted the request of the call before, 160 heuristic tokens shorter.
      usage: {
        ...CALIBRATED_USAGE,
        realPromptTokens: 7_950,
        lastEstimate: 5_300,
        sentEstimate: 5_300,
        averageTurnTokens,
        modelCalls: 12,
        invocations: 6,
      },
      // Nothing after the guard edits the request: a rejection would be retried in the call.
      rejectionRetried: true,
      ...fields,
    });

  it('should send the request as it is while a turn more at the pace still fits under the hard limit', async () => {
    const result = await guardRequest(paced(600));
    expect(result.calibrated).toBeGreaterThan(result.budget.threshold);
    expect(result.calibrated + 600).toBeLessThanOrEqual(result.budget.hardLimit);
    expect(result.masking).toBeUndefined();
    expect(result.compaction).toBeUndefined();
    // No contents to set: ADK's request goes as it was built.
    expect(result.contents).toBeUndefined();
  });

  it('should mask once a turn more could pass the hard limit, before a real count, with no pace or no retry', async () => {
    for (const guarded of [
      paced(1_400),
      paced(600, { rejectionRetried: false }),
      paced(600, { usage: { ...EMPTY_USAGE, averageTurnTokens: 600, modelCalls: 12, invocations: 6 } }),
      paced(undefined),
    ]) {
      const result = await guardRequest(guarded);
      expect(result.masking?.cause).toBe('room');
      expect(result.calibrated).toBeLessThan(result.budget.threshold);
    }
  });

  it('should not wait when the sliding window or the application asks for the compaction', async () => {
    const sliding = await guardRequest(
      paced(600, { policy: { ...testPolicy(), maskKeepRecent: 1, strategy: 'sliding-window' } }),
    );
    expect(sliding.masking ?? sliding.compaction).toBeDefined();
    // hardLimitRatio at the threshold's share: the opt-out the option's text gives.
    const capped = await guardRequest(
      paced(600, { policy: { ...testPolicy(), maskKeepRecent: 1, hardLimitRatio: 0.8 } }),
    );
    expect(capped.masking?.cause).toBe('room');
    const base = paced(600);
    const forced = await guardRequest({ ...base, usage: { ...base.usage, forceCompaction: true } });
    expect(forced.masking ?? forced.compaction).toBeDefined();
  });
});
