import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { HEAVY_PROPERTY_RUNS, measuredConversation } from '../../test/support/arbitraries.js';
import {
  functionCall,
  functionResponse,
  modelText,
  summaryRecord,
  testPolicy,
  usageRecord,
  userText,
} from '../../test/support/builders.js';
import { CALIBRATED_USAGE, guardInput as measuredInput } from '../../test/support/guard-input.js';
import { characterTokenizer } from '../../test/support/tokenizers.js';
import { hasFunctionCall, hasFunctionResponse } from '../content/content-shape.js';
import { MID_TURN_NOTE, SUMMARY_MARKER } from '../summary/inject-summary.js';
import type { SummarizeRequest, SummaryOutcome } from '../summary/summarizer.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import { fingerprint } from '../estimate/fingerprint.js';
import { EMPTY_USAGE, type UsageRecord } from '../usage/stored-usage.js';
import { locateWatermark } from '../state/watermark.js';
import { guardRequest, type GuardRequestInput } from './guard-request.js';

// Sizes below are exact with one token per character: a text content costs 4 + 3 + its length, and a
// tool call or result of `name` padded with k characters costs 4 + 3 + name + '{"pad":"…"}' (10 + k).

function userOf(tokens: number, label: string): Content {
  return userText(label.padEnd(tokens - 7, 'x'));
}

function modelOf(tokens: number, label: string): Content {
  return modelText(label.padEnd(tokens - 7, 'x'));
}

function callOf(name: string, tokens: number): Content {
  return functionCall(name, { pad: 'x'.repeat(tokens - 17 - name.length) });
}

function resultOf(name: string, tokens: number): Content {
  return functionResponse(name, { pad: 'x'.repeat(tokens - 17 - name.length) });
}

/** One summarizer outcome for every call, and a record of what was asked. */
function fakeSummarize(outcome: SummaryOutcome | Error): {
  summarize: NonNullable<GuardRequestInput['summarize']>;
  calls: Array<{ request: Omit<SummarizeRequest, 'signal'>; maxChars: number }>;
} {
  const calls: Array<{ request: Omit<SummarizeRequest, 'signal'>; maxChars: number }> = [];
  return {
    calls,
    summarize: (request, maxChars) => {
      calls.push({ request, maxChars });
      return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
    },
  };
}

const SUMMARY_TEXT = 'The user asked about the first topic; it is settled.';
const SUMMARY_OK: SummaryOutcome = { ok: true, text: SUMMARY_TEXT, truncated: false };

/** The calibrated usage of guard-input.ts (factor 1.5, threshold 8,000, hard limit 9,500), seven calls in. */
const CALIBRATED: UsageRecord = { ...CALIBRATED_USAGE, modelCalls: 7 };

function guardInput(fields: Partial<GuardRequestInput> & Pick<GuardRequestInput, 'contents'>): GuardRequestInput {
  return measuredInput({ usage: CALIBRATED, ...fields });
}

/**
 *  index  content                         tokens
 *  0      user: first question             2,500
 *  1      model: first answer              2,500
 *  2      user: current request              100
 *  3      model: call fetch_logs             100
 *  4      user: fetch_logs result            100
 * With 500 fixed tokens: estimate 5,800, calibrated max(5,800 × 1.5, 6,000 + 1,800 × 1.5) = 8,700 >= 8,000.
 */
const OVER: Content[] = [
  userOf(2_500, 'first question about the topic'),
  modelOf(2_500, 'first answer about the topic'),
  userOf(100, 'current request: fetch the logs'),
  callOf('fetch_logs', 100),
  resultOf('fetch_logs', 100),
];

describe('guardRequest', () => {
  describe('fixtures', () => {
    it('should build contents of the sizes the scenarios assume', () => {
      expect(OVER.map((content) => estimateContentTokens(content, characterTokenizer))).toEqual([
        2_500, 2_500, 100, 100, 100,
      ]);
    });
  });

  describe('requests that cannot be brought under the limit', () => {
    it('should send anyway, with overLimit set and counted, when the fixed tokens alone exceed the window', async () => {
      // Large enough that a summary with the user's first line as a durable fact is smaller than what it covers.
      const contents = [userOf(300, 'hello there'), modelOf(300, 'hi'), userOf(100, 'current request')];
      const result = await guardRequest(
        guardInput({ contents, fixedTokens: 20_000, summarize: fakeSummarize(SUMMARY_OK).summarize }),
      );
      expect(result.overLimit).toMatch(/over the hard limit of 9500 \(window 10000\)/);
      expect(result.state.usage.overLimitCalls).toBe(1);
      // Everything before the current request was summarized anyway: nothing more could be removed.
      expect(result.compaction).toMatchObject({ coveredContents: { from: 0, to: 2 } });
      expect(result.calibrated).toBeGreaterThan(result.budget.hardLimit);
    });

    it('should shrink a single oversized message when there is nothing to summarize', async () => {
      // One content of 9,000: estimate 9,500, calibrated 14,250. No split exists, so no compaction;
      // the text is shrunk to the room left under the threshold: floor(8,000 / 1.5) - 500 = 4,833.
      const contents = [userOf(9_000, 'one giant request')];
      const result = await guardRequest(guardInput({ contents }));
      expect(result.compaction).toBeUndefined();
      expect(result.shrunk).toBe(true);
      expect(result.estimate).toBeLessThanOrEqual(500 + 4_833);
      expect(result.calibrated).toBeLessThanOrEqual(8_000);
      expect(result.overLimit).toBeUndefined();
      expect(contents[0]?.parts?.[0]?.text).toHaveLength(8_993);
    });
  });

  describe('under the threshold', () => {
    it('should leave the request as ADK built it and record its estimate', async () => {
      // estimate 500 + 1,000 + 1,000 = 2,500; calibrated max(2,500 × 1.5 = 3,750, 6,000 + (2,500 - 4,000) × 1) = 4,500
      const contents = [userOf(1_000, 'question'), modelOf(1_000, 'answer')];
      const result = await guardRequest(guardInput({ contents, invocationId: 'turn-1', windowOrigin: 'option' }));
      expect(result.contents).toBeUndefined();
      expect(result.compaction).toBeUndefined();
      expect(result.budget).toEqual({ window: 10_000, buffer: 2_000, threshold: 8_000, hardLimit: 9_500 });
      expect([result.estimate, result.calibrated]).toEqual([2_500, 4_500]);
      expect(result.state.usage).toEqual({
        ...CALIBRATED,
        modelCalls: 8,
        sentEstimate: 2_500,
        // The estimator's framing of what was sent: 2 contents x 4 + 2 parts x 3.
        sentFraming: 14,
        lastCalibrated: 4_500,
        forceCompaction: false,
        // The first call of a turn: counted, and its size is where the turn started.
        invocations: CALIBRATED.invocations + 1,
        lastInvocationId: 'turn-1',
        turnStartCalibrated: 4_500,
        turnPeakCalibrated: 4_500,
        turnCalls: 1,
        // The budget the call was measured against, and where its window came from.
        window: 10_000,
        threshold: 8_000,
        hardLimit: 9_500,
        windowSource: 'option',
      });
    });

    it('should inject the stored summary and strip the contents it covers', async () => {
      const contents = [...OVER, modelOf(100, 'the logs look fine')];
      const summary = summaryRecord({
        covered: 2,
        anchor: `${fingerprint(OVER[0])}|${fingerprint(OVER[1])}`,
        text: 'SUMMARY OF THE FIRST TOPIC',
      });
      const result = await guardRequest(
        guardInput({ contents, summary, usage: usageRecord({ learnedCorrection: 1.5, sentEstimate: 900 }) }),
      );
      expect(result.contents).toHaveLength(5);
      const summaryText = result.contents?.[0]?.parts?.[0]?.text ?? '';
      expect(summaryText.startsWith(SUMMARY_MARKER)).toBe(true);
      expect(summaryText).toContain('SUMMARY OF THE FIRST TOPIC');
      result.contents?.slice(1).forEach((content, i) => expect(content).toBe(contents[2 + i]));
      // The estimate is of what is sent: fixed 500 + the summary content + 4 contents of 100.
      expect(result.estimate).toBe(500 + estimateContentTokens(result.contents?.[0] ?? {}, characterTokenizer) + 400);
      expect(result.newSummary).toBeUndefined();
    });

    it('should find the watermark in a deep copy of the history, as ADK rebuilds it every step', async () => {
      const summary = summaryRecord({ covered: 2, anchor: `${fingerprint(OVER[0])}|${fingerprint(OVER[1])}` });
      const result = await guardRequest(
        guardInput({ contents: structuredClone(OVER), summary, usage: usageRecord({ learnedCorrection: 1.5 }) }),
      );
      expect(result.contents).toHaveLength(4);
      expect(result.summaryDiscarded).toBeUndefined();
    });

    it('should discard a summary whose watermark no longer matches and send the full history', async () => {
      const summary = summaryRecord({ covered: 2, anchor: 'gone|gone' });
      const contents = [userOf(1_000, 'question'), modelOf(1_000, 'answer')];
      const result = await guardRequest(guardInput({ contents, summary }));
      expect(result.summaryDiscarded).toMatch(/watermark at 2 of 2 contents/);
      expect(result.contents).toBeUndefined();
    });

    it('should use the uncalibrated threshold, half the window, before any real count', async () => {
      // estimate 500 + 2,000 = 2,500; calibrated 2,500 × 1.5 = 3,750 < min(8,000, 5,000)
      const result = await guardRequest(
        guardInput({ contents: [userOf(1_000, 'question'), modelOf(1_000, 'answer')], usage: EMPTY_USAGE }),
      );
      expect(result.budget.threshold).toBe(5_000);
      expect(result.compaction).toBeUndefined();
      expect(result.calibrated).toBe(3_750);
    });
  });

  describe('over the threshold', () => {
    it('should summarize the older turns, keep the in-flight turn verbatim and persist a new watermark', async () => {
      const { summarize, calls } = fakeSummarize(SUMMARY_OK);
      // A summarizer whose window takes both covered contents in one call (summarize-covered.test.ts: in several).
      const result = await guardRequest(guardInput({ contents: OVER, summarize, summarizerWindow: 100_000 }));
      expect(result.compaction).toMatchObject({
        reason: 'threshold',
        coveredContents: { from: 0, to: 2 },
        tokensBefore: 8_700,
        fallback: false,
      });
      expect(result.newSummary).toMatchObject({
        text: SUMMARY_TEXT,
        covered: 2,
        compactions: 1,
        fallback: false,
        currentRequest: OVER[2]?.parts?.[0]?.text,
      });
      // The anchor is the fingerprints of the two contents before the watermark.
      expect(result.newSummary?.anchor).toBe(`${fingerprint(OVER[0])}|${fingerprint(OVER[1])}`);
      expect(result.contents).toHaveLength(4);
      result.contents?.slice(1).forEach((content, i) => expect(content).toBe(OVER[2 + i]));
      expect(calls).toHaveLength(1);
    });

    it('should ask for a summary of what is new only, capped at a quarter of the room the current request leaves', async () => {
      const { summarize, calls } = fakeSummarize(SUMMARY_OK);
      // A large summarizer window, so that its input is not cut (that is summary-prompt's business).
      await guardRequest(guardInput({ contents: OVER, summarize, summarizerWindow: 100_000 }));
      // room = floor(8,000 / 1.5) - 500 = 4,833; the request (100) stays: cap = min(4,096, floor(4,733 × 0.25)) = 1,183
      expect(calls[0]?.request.maxOutputTokens).toBe(1_183);
      expect(calls[0]?.request.prompt).toContain('first question about the topic');
      expect(calls[0]?.request.prompt).toContain('<current_request>\ncurrent request: fetch the logs');
      expect(calls[0]?.request.prompt).not.toContain('[model] called tool `fetch_logs`');
    });

    it('should clear the calibration pair but keep what it taught', async () => {
      const result = await guardRequest(guardInput({ contents: OVER, summarize: fakeSummarize(SUMMARY_OK).summarize }));
      expect(result.state.usage.realPromptTokens).toBeUndefined();
      expect(result.state.usage.lastEstimate).toBeUndefined();
      expect(result.state.usage).toMatchObject({
        learnedCorrection: 1.5,
        compactions: 1,
        modelCalls: 8,
        forceCompaction: false,
      });
      // What is stored is the estimate of the request actually sent, and its calibrated size.
      expect(result.state.usage.sentEstimate).toBe(result.estimate);
      expect(result.calibrated).toBe(Math.ceil(result.estimate * 1.5));
      expect(result.compaction?.tokensAfter).toBe(result.calibrated);
      expect(result.calibrated).toBeLessThan(8_000);
    });

    it('should keep the request verbatim and shrink the tool result when the in-flight turn itself is too large to keep', async () => {
      // The current request is followed by a 4,000-token result: from index 2 the tail is 4,200, over the tail
      // budget; from 3 it would be the same contents with the request kept, and 4 is a result. The request stays.
      const contents = [
        userOf(1_000, 'first question'),
        modelOf(1_000, 'first answer'),
        userOf(100, 'current request: fetch'),
        callOf('fetch_logs', 100),
        resultOf('fetch_logs', 4_000),
      ];
      const result = await guardRequest(guardInput({ contents, summarize: fakeSummarize(SUMMARY_OK).summarize }));
      expect(result.compaction).toMatchObject({ coveredContents: { to: 2 } });
      expect(result.compaction?.keptAt).toBeUndefined();
      expect(result.contents?.[1]).toBe(contents[2]);
      expect(result.contents?.[0]?.parts?.[0]?.text).not.toContain("The user's current request is");
    });

    it('should compact before half the window while uncalibrated', async () => {
      // estimate 500 + 1,500 + 1,500 + 100 = 3,600; calibrated 5,400 >= min(8,000, 5,000)
      const contents = [userOf(1_500, 'question'), modelOf(1_500, 'answer'), userOf(100, 'current request')];
      const result = await guardRequest(
        guardInput({ contents, usage: EMPTY_USAGE, summarize: fakeSummarize(SUMMARY_OK).summarize }),
      );
      expect(result.compaction?.coveredContents.to).toBe(2);
      // Nothing was learned, so there is nothing to keep.
      expect(result.state.usage.learnedCorrection).toBeUndefined();
    });

    it('should compact when forced by a rejected request, even under the threshold', async () => {
      const contents = [userOf(1_000, 'question'), modelOf(1_000, 'answer'), userOf(100, 'current request')];
      const result = await guardRequest(
        guardInput({
          contents,
          usage: { ...CALIBRATED, forceCompaction: true },
          summarize: fakeSummarize(SUMMARY_OK).summarize,
        }),
      );
      expect(result.compaction).toMatchObject({ reason: 'forced', coveredContents: { to: 2 } });
      expect(result.state.usage.forceCompaction).toBe(false);
    });

    it('should carry the previous summary into the next one and move the watermark forward', async () => {
      const first = await guardRequest(guardInput({ contents: OVER, summarize: fakeSummarize(SUMMARY_OK).summarize }));
      // After the first compaction the view is 500 + the summary + 100 × 3 + 5,000 + 100 + 100, over 8,000 / 1.5;
      // the latest request is at index 6, so contents 2 to 5 are summarized.
      const grown = [...OVER, modelOf(5_000, 'long analysis'), userOf(100, 'second request'), modelOf(100, 'ok')];
      const { summarize, calls } = fakeSummarize({ ok: true, text: 'SECOND SUMMARY', truncated: false });
      const second = await guardRequest(
        guardInput({ contents: grown, summary: first.newSummary, usage: first.state.usage, summarize }),
      );
      expect(second.compaction).toMatchObject({ coveredContents: { from: 2, to: 6 } });
      expect(second.newSummary).toMatchObject({ text: 'SECOND SUMMARY', covered: 6, compactions: 2 });
      expect(calls[0]?.request.prompt).toContain(`<previous_summary>\n${SUMMARY_TEXT}`);
    });
  });

  describe('a compaction in the middle of a turn', () => {
    // About the summary's mechanics: masking (which alone would make room here) is off.
    const summaryMechanics = (fields: Parameters<typeof guardInput>[0]): GuardRequestInput =>
      guardInput({ policy: testPolicy({ maskKeepRecent: 0 }), ...fields });
    /**
     *  index  content                          tokens
     *  0      user: first question                100
     *  1      model: first answer                 100
     *  2      user: current request (a task)    1,500
     *  3-4    call, result                   100, 2,500
     *  5-6    call, result                   100, 1,000
     *  7-8    call, result                     100, 100
     * Estimate 6,100, calibrated 9,150 >= 8,000. The tail budget (508) holds not even the request, so the
     * smallest tail is kept: the last step, with the request kept before it although the split is past it.
     */
    const TURN: Content[] = [
      userOf(100, 'first question'),
      modelOf(100, 'first answer'),
      userOf(1_500, 'current request: the task statement'),
      callOf('fetch_logs', 100),
      resultOf('fetch_logs', 2_500),
      callOf('fetch_logs', 100),
      resultOf('fetch_logs', 1_000),
      callOf('fetch_logs', 100),
      resultOf('fetch_logs', 100),
    ];

    it('should summarize the older steps and keep the request verbatim before the latest ones', async () => {
      const fake = fakeSummarize(SUMMARY_OK);
      const result = await guardRequest(
        summaryMechanics({ contents: TURN, summarize: fake.summarize, summarizerWindow: 100_000 }),
      );
      expect(result.compaction).toMatchObject({ coveredContents: { from: 0, to: 7 }, keptAt: 2 });
      expect(result.newSummary).toMatchObject({ covered: 7, kept: { at: 2, fingerprint: fingerprint(TURN[2]!) } });
      // The kept request leads, so the prefix a provider cached (system, tools, the request) survives the compaction.
      expect(result.contents?.[0]).toBe(TURN[2]);
      expect(result.contents?.slice(2)).toEqual([TURN[7], TURN[8]]);
      expect(result.contents?.[1]?.parts?.[0]?.text).toContain(MID_TURN_NOTE);
      // The summary's share comes from what the 1,500-token request leaves: floor((4,833 - 1,500) × 0.25) = 833.
      expect(fake.calls[0]?.request.maxOutputTokens).toBe(833);
      // The request is not part of what was summarized; the steps around it are.
      const conversation = fake.calls[0]?.request.prompt.split('<conversation>')[1] ?? '';
      expect(conversation).toContain('first answer');
      expect(conversation).not.toContain('current request: the task statement');
    });

    it('should strip the covered steps but not the kept request on the next call', async () => {
      const first = await guardRequest(
        summaryMechanics({ contents: TURN, summarize: fakeSummarize(SUMMARY_OK).summarize }),
      );
      const next = [...TURN, callOf('fetch_logs', 100), resultOf('fetch_logs', 100)];
      const second = await guardRequest(
        summaryMechanics({ contents: next, summary: first.newSummary, usage: first.state.usage }),
      );
      expect(second.compaction).toBeUndefined();
      expect(second.contents?.[0]).toEqual(next[2]);
      expect(second.contents?.[1]?.parts?.[0]?.text?.startsWith(SUMMARY_MARKER)).toBe(true);
      expect(second.contents?.slice(2)).toEqual(next.slice(7));
    });

    it('should keep the same request through a second compaction of the turn, and cover only new steps', async () => {
      const first = await guardRequest(
        summaryMechanics({ contents: TURN, summarize: fakeSummarize(SUMMARY_OK).summarize }),
      );
      const grown = [...TURN, callOf('fetch_logs', 100), resultOf('fetch_logs', 3_000)];
      const fake = fakeSummarize({ ok: true, text: 'Second summary.', truncated: false });
      const second = await guardRequest(
        summaryMechanics({
          contents: grown,
          summary: first.newSummary,
          usage: first.state.usage,
          summarize: fake.summarize,
        }),
      );
      expect(second.compaction).toMatchObject({ coveredContents: { from: 7, to: 9 }, keptAt: 2 });
      expect(second.newSummary).toMatchObject({ covered: 9, kept: { at: 2 } });
      // The request and the latest call go verbatim; the latest result may be cut to fit.
      expect(second.contents).toHaveLength(4);
      expect(second.contents?.[0]).toBe(grown[2]);
      expect(second.contents?.[1]?.parts?.[0]?.text).toContain('Second summary.');
      expect(second.contents?.[2]).toBe(grown[9]);
      expect(hasFunctionResponse(second.contents?.[3])).toBe(true);
      expect(fake.calls[0]?.request.prompt).toContain(SUMMARY_TEXT);
    });

    it('should summarize the kept request once a later request is in flight', async () => {
      const first = await guardRequest(
        summaryMechanics({ contents: TURN, summarize: fakeSummarize(SUMMARY_OK).summarize }),
      );
      const later = [...TURN, modelOf(3_000, 'final answer'), userOf(100, 'next request')];
      const fake = fakeSummarize({ ok: true, text: 'Third summary.', truncated: false });
      const second = await guardRequest(
        summaryMechanics({
          contents: later,
          summary: first.newSummary,
          usage: first.state.usage,
          summarize: fake.summarize,
          summarizerWindow: 100_000,
        }),
      );
      expect(second.compaction).toMatchObject({ coveredContents: { from: 7, to: 10 } });
      expect(second.newSummary?.kept).toBeUndefined();
      expect(second.contents?.slice(1)).toEqual([later[10]]);
      // The old request is in the summarizer's conversation now, before the steps that followed the watermark.
      const conversation = fake.calls[0]?.request.prompt.split('<conversation>')[1] ?? '';
      expect(conversation).toContain('current request: the task statement');
      expect(conversation.indexOf('current request: the task statement')).toBeLessThan(
        conversation.indexOf('final answer'),
      );
    });

    it('should not apply a summary whose kept request is no longer where it was', async () => {
      const first = await guardRequest(
        summaryMechanics({ contents: TURN, summarize: fakeSummarize(SUMMARY_OK).summarize }),
      );
      const edited = TURN.map((content, index) => (index === 2 ? userOf(1_500, 'a different request') : content));
      const second = await guardRequest(
        summaryMechanics({ contents: edited, summary: first.newSummary, usage: first.state.usage, window: 10_000_000 }),
      );
      expect(second.summaryDiscarded).toMatch(/kept at 2/);
      expect(second.contents).toBeUndefined();
    });
  });

  describe('summarizer failures', () => {
    it('should use the mechanical summary when the summarizer reports a failure', async () => {
      const result = await guardRequest(
        guardInput({
          contents: OVER,
          summarize: fakeSummarize({ ok: false, kind: 'timeout', reason: 'timed out after 60000 ms' }).summarize,
        }),
      );
      expect(result.compaction).toMatchObject({
        fallback: true,
        fallbackReason: 'timeout',
        fallbackDetail: 'timed out after 60000 ms',
        coveredContents: { to: 2 },
      });
      expect(result.newSummary?.fallback).toBe(true);
      expect(result.newSummary?.text).toMatch(/^\(Mechanical summary/);
      expect(result.newSummary?.text).toContain('first question about the topic');
    });

    it('should use the mechanical summary when there is no summarizer', async () => {
      const result = await guardRequest(guardInput({ contents: OVER }));
      expect(result.compaction).toMatchObject({
        fallback: true,
        fallbackReason: 'unavailable',
        fallbackDetail: 'no summarizer available',
      });
    });

    it('should use the mechanical summary when summarize rejects, instead of throwing', async () => {
      // A rejection from the injected summarize must not escape: "never throw" holds for any caller.
      const result = await guardRequest(
        guardInput({ contents: OVER, summarize: fakeSummarize(new Error('summarizer 503')).summarize }),
      );
      expect(result.compaction).toMatchObject({ fallback: true });
    });
  });

  describe('laws', () => {
    interface GuardScenario {
      readonly contents: Content[];
      readonly tokens: number[];
      readonly fixedTokens: number;
      readonly window: number;
      readonly usage: UsageRecord;
      readonly outcome: SummaryOutcome;
    }

    const guardScenario: fc.Arbitrary<GuardScenario> = measuredConversation.chain(({ contents, tokens }) =>
      fc.record({
        contents: fc.constant(contents),
        tokens: fc.constant(tokens),
        fixedTokens: fc.nat(3_000),
        window: fc.integer({ min: 2_000, max: 30_000 }),
        usage: fc.constantFrom<UsageRecord>(EMPTY_USAGE, CALIBRATED, usageRecord({ learnedCorrection: 2.5 }), {
          ...CALIBRATED,
          forceCompaction: true,
        }),
        outcome: fc.constantFrom<SummaryOutcome>(SUMMARY_OK, { ok: false, kind: 'failed', reason: 'failed: 503' }),
      }),
    );

    async function run(
      { contents, tokens, fixedTokens, window, usage, outcome }: GuardScenario,
      firstMessageOnEstimate = false,
    ) {
      return guardRequest(
        guardInput({
          contents,
          tokens,
          fixedTokens,
          window,
          usage,
          summarizerWindow: window,
          summarize: fakeSummarize(outcome).summarize,
          firstMessageOnEstimate,
        }),
      );
    }

    it('should never send a function response that does not follow its call', async () => {
      await fc.assert(
        fc.asyncProperty(guardScenario, async (scenario) => {
          const sent = (await run(scenario)).contents ?? scenario.contents;
          sent.forEach((content, i) => {
            if (hasFunctionResponse(content)) expect(hasFunctionCall(sent[i - 1])).toBe(true);
          });
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should stay under the hard limit or say that it did not (or that a first message went whole on the estimate)', async () => {
      await fc.assert(
        fc.asyncProperty(guardScenario, fc.boolean(), async (scenario, onEstimate) => {
          const result = await run(scenario, onEstimate);
          if (result.sentWhole !== undefined) {
            // Only where the shell allows it, before any real count, on the agent's first call, and under the hard
            // limit by the estimate itself.
            expect(onEstimate).toBe(true);
            expect(result.overLimit).toBeUndefined();
            expect(scenario.usage.modelCalls).toBe(0);
            expect(scenario.usage.realPromptTokens).toBeUndefined();
            expect(result.estimate).toBeLessThanOrEqual(result.budget.hardLimit);
          } else if (result.overLimit === undefined)
            expect(result.calibrated).toBeLessThanOrEqual(result.budget.hardLimit);
          else expect(result.state.usage.overLimitCalls).toBe(scenario.usage.overLimitCalls + 1);
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should summarize something new at every compaction and anchor the watermark where it is', async () => {
      await fc.assert(
        fc.asyncProperty(guardScenario, async (scenario) => {
          const result = await run(scenario);
          if (!result.compaction || !result.newSummary) return;
          expect(result.compaction.coveredContents.to).toBeGreaterThan(result.compaction.coveredContents.from);
          const fingerprintAt = (index: number): string | undefined =>
            scenario.contents[index] ? fingerprint(scenario.contents[index]) : undefined;
          expect(
            locateWatermark(
              fingerprintAt,
              scenario.contents.length,
              result.newSummary.covered,
              result.newSummary.anchor,
            ),
          ).toEqual({
            kind: 'exact',
            covered: result.newSummary.covered,
          });
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should send the stored summary and exactly the uncovered contents on the next call', async () => {
      await fc.assert(
        fc.asyncProperty(guardScenario, async (scenario) => {
          const first = await run(scenario);
          fc.pre(first.newSummary !== undefined);
          const summary = first.newSummary;
          const copy = structuredClone(scenario.contents);
          // A generous window: the second call applies the summary without compacting again.
          const second = await guardRequest(
            guardInput({
              contents: copy,
              tokens: scenario.tokens,
              summary,
              usage: first.state.usage,
              window: 10_000_000,
              summarizerWindow: 10_000_000,
            }),
          );
          expect(second.compaction).toBeUndefined();
          // A summary that keeps the user's message goes after it; any other goes first.
          const kept = summary.kept ? [copy[summary.kept.at]] : [];
          const at = kept.length;
          expect(second.contents?.[at]?.parts?.[0]?.text?.startsWith(SUMMARY_MARKER)).toBe(true);
          expect(second.contents?.slice(0, at)).toEqual(kept);
          expect(second.contents?.slice(at + 1)).toEqual(copy.slice(summary.covered));
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });

    it('should count every call and never throw', async () => {
      await fc.assert(
        fc.asyncProperty(guardScenario, async (scenario) => {
          const result = await run(scenario);
          expect(result.state.usage.modelCalls).toBe(scenario.usage.modelCalls + 1);
          expect(result.state.usage.forceCompaction).toBe(false);
        }),
        HEAVY_PROPERTY_RUNS,
      );
    });
  });
});
