import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Content } from '@google/genai';
import { functionCall, functionResponse, userText } from '../../test/support/builders.js';
import { viewSource } from '../../test/support/guard-input.js';
import { characterTokenizer, recordingTokenizer } from '../../test/support/tokenizers.js';
import { MASKED_RESULT_KEY } from './placeholder-text.js';
import { MIN_CACHED_PREFIX_TOKENS } from '../cost/cache-terms.js';
import { estimateContentTokens } from '../estimate/estimate-content.js';
import { maskStaleOutput, type StaleOutputInput } from './mask-stale-output.js';
import { viewEstimate } from '../split/coverage.js';

// Two completed turns with a large tool result each, then the first call of the in-flight turn.
const CONTENTS: Content[] = [
  ...[1, 2].flatMap((n) => [
    userText(`turn ${n}`),
    functionCall(`fetch_${n}`),
    functionResponse(`fetch_${n}`, { logs: `line ${n}\n`.repeat(300) }),
    { role: 'model', parts: [{ text: `done ${n}` }] },
  ]),
  userText('turn 3'),
];
// The same turn one call later: its own tool result.
const MID_TURN: Content[] = [
  ...CONTENTS,
  functionCall('fetch_3'),
  functionResponse('fetch_3', { logs: 'x\n'.repeat(300) }),
];
// Another agent's context after the user's message (ADK's 'For context:' contents): still the agent's first call.
const AFTER_OTHER_AGENT: Content[] = [
  ...CONTENTS,
  { role: 'user', parts: [{ text: 'For context:' }, { text: '[desk] said: on it.' }] },
];

/** The agent's requests carry the recall tool (the guard declares it wherever masking for cost is on). */
const recallableSource = (...args: Parameters<typeof viewSource>) => ({
  ...viewSource(...args),
  hint: { recallToolName: 'recall_history' },
});

const TOKENS = CONTENTS.map((content) => estimateContentTokens(content, characterTokenizer));
const ESTIMATE = viewEstimate(100, 0, TOKENS, { covered: 0 });

// A model with no cache discount: breaking the cache costs nothing, so any saving pays (the cases
// about the cache trade set their own).
const NO_DISCOUNT: StaleOutputInput['cache'] = {
  usage: { modelCalls: 2, invocations: 2, averageTurnTokens: undefined },
  threshold: 100_000,
  factor: 1,
  cachedPriceRatio: 1,
};

function input(maskStaleOutputTokens: number, overrides: Partial<StaleOutputInput> = {}): StaleOutputInput {
  return {
    policy: { maskKeepRecent: 1, maskStaleOutputTokens },
    estimate: ESTIMATE,
    cache: NO_DISCOUNT,
    source: recallableSource(CONTENTS, TOKENS),
    coverage: { covered: 0 },
    maskedUpTo: 0,
    fixedTokens: 100,
    summaryTokens: 0,
    fingerprints: CONTENTS.map((_, index) => `f${index}`),
    previous: undefined,
    now: 7,
    ...overrides,
  };
}

const masked = (content: Content | undefined): boolean =>
  content?.parts?.some((part) => part.functionResponse?.response?.[MASKED_RESULT_KEY] !== undefined) === true;

describe('maskStaleOutput', () => {
  it('should mask the tool results of completed turns, never the in-flight turn, once they are large enough', () => {
    const step = maskStaleOutput(input(1_000));
    expect(step?.upTo).toBe(8);
    expect(step?.view.map(masked)).toEqual([false, false, true, false, false, false, true, false, false]);
    expect(step?.view[8]).toBe(CONTENTS[8]);
    expect(step?.estimate).toBeLessThan(ESTIMATE - 1_000);
  });

  it('should wait while the stale results would save fewer tokens than the option', () => {
    const saved = ESTIMATE - (maskStaleOutput(input(1))?.estimate ?? ESTIMATE);
    expect(saved).toBeGreaterThan(0);
    expect(maskStaleOutput(input(saved))).toBeDefined();
    expect(maskStaleOutput(input(saved + 1))).toBeUndefined();
  });

  it('should not mask for cost where no recall tool could read a masked result back', () => {
    expect(maskStaleOutput(input(1_000))?.upTo).toBe(8);
    expect(maskStaleOutput(input(1_000, { source: viewSource(CONTENTS, TOKENS) }))).toBeUndefined();
  });

  it('should do nothing when off, when masking is off, in the first turn, or when already masked', () => {
    expect(maskStaleOutput(input(0))).toBeUndefined();
    expect(
      maskStaleOutput(input(1_000, { policy: { maskKeepRecent: 0, maskStaleOutputTokens: 1_000 } })),
    ).toBeUndefined();
    const firstTurn = CONTENTS.slice(0, 3);
    const source = { ...input(1).source, contents: firstTurn, tokens: TOKENS.slice(0, 3) };
    expect(maskStaleOutput(input(1, { source }))).toBeUndefined();
    expect(maskStaleOutput(input(1, { maskedUpTo: 8 }))).toBeUndefined();
  });

  it("should mask at the agent's first call of a turn, which other agents' context may precede", () => {
    expect(maskStaleOutput(input(1_000, { source: recallableSource(AFTER_OTHER_AGENT) }))?.upTo).toBe(8);
  });

  it('should mask, later in a turn, the completed turns and never the latest call or its result', () => {
    const step = maskStaleOutput(input(1_000, { source: recallableSource(MID_TURN) }));
    // Up to the turn's message: a loop of one call keeps its own results (LONG_LOOP_CALLS).
    expect(step?.upTo).toBe(8);
    expect(step?.view.map(masked)).toEqual([false, false, true, false, false, false, true, false, false, false, false]);
  });

  describe('inside a long tool loop (one user message, then the steps of that one turn)', () => {
    const step = (n: number, size: number): Content[] => [
      // The model's reasoning with each call: text sent again when it follows a new placeholder.
      functionCall(`run_${n}`, { plan: `step ${n} `.repeat(20) }),
      functionResponse(`run_${n}`, { output: `${n}: ${'o'.repeat(size)}` }),
    ];
    const loop = (steps: number, size: number): Content[] => [
      userText('fix the failing test'),
      ...Array.from({ length: steps }, (_, n) => step(n, size)).flat(),
    ];
    const loopInput = (
      contents: Content[],
      cache: Partial<StaleOutputInput['cache']> = {},
      policy: StaleOutputInput['policy'] = { maskKeepRecent: 1, maskStaleOutputTokens: 2_048 },
      fixedTokens = 100,
    ): StaleOutputInput => {
      const tokens = contents.map((content) => estimateContentTokens(content, characterTokenizer));
      return input(2_048, {
        policy,
        fixedTokens,
        source: recallableSource(contents, tokens),
        estimate: viewEstimate(fixedTokens, 0, tokens, { covered: 0 }),
        fingerprints: contents.map((_, index) => `f${index}`),
        cache: {
          usage: { modelCalls: (contents.length - 1) / 2, invocations: 1, averageTurnTokens: undefined },
          threshold: 1_000_000,
          factor: 1,
          cachedPriceRatio: 0.1,
          ...cache,
        },
      });
    };

    it("should mask the loop's completed steps, never the user's message nor the latest call and its result", () => {
      const contents = loop(12, 3_000);
      const masking = maskStaleOutput(loopInput(contents));
      expect(masking?.upTo).toBe(23);
      // Every result but the latest is a placeholder; the message and the calls are sent as they are.
      expect(masking?.view.map(masked)).toEqual(contents.map((content, i) => i % 2 === 0 && i > 0 && i < 24));
      expect(masking?.view[0]).toBe(contents[0]);
      expect(masking?.view.slice(23)).toEqual(contents.slice(23));
    });

    it("should keep a short loop's own results whole, which its answer may need, until it has made ten calls", () => {
      expect(maskStaleOutput(loopInput(loop(9, 3_000)))).toBeUndefined();
      expect(maskStaleOutput(loopInput(loop(10, 3_000)))?.upTo).toBe(19);
    });

    it('should count on past a user content a tool added after its result (load_artifacts), not take it for a new turn', () => {
      const artifact = userText('Artifact notes.txt is: pages 1 and 3 should agree.');
      expect(maskStaleOutput(loopInput([...loop(3, 3_000), artifact]))).toBeUndefined();
      expect(maskStaleOutput(loopInput([...loop(10, 3_000), artifact]))?.upTo).toBe(19);
    });

    it("should start a new turn at a user's message after a turn that ended on a tool result and another agent's events", () => {
      const other = { role: 'user', parts: [{ text: 'For context:' }, { text: '[desk] said: done.' }] };
      const next = [...loop(3, 3_000), other, userText('now the other test')];
      // Its first call (no cache discount: any saving pays): the completed turn's results are masked, as at any first call.
      expect(maskStaleOutput(loopInput(next, { cachedPriceRatio: 1 }))?.upTo).toBe(8);
    });

    it('should keep the last maskKeepRecent results whole', () => {
      const contents = loop(12, 3_000);
      const masking = maskStaleOutput(loopInput(contents, {}, { maskKeepRecent: 3, maskStaleOutputTokens: 2_048 }));
      expect(masking?.upTo).toBe(20);
      expect(masking?.view.slice(20)).toEqual(contents.slice(20));
    });

    it('should keep the prefix while the loop is too young to earn back what the masking sends again', () => {
      // The recall declaration, not sent yet, would rewrite the whole request: with results of
      // 1,200 tokens, 3 calls into the loop the saving cannot come back; 24 calls in, it can.
      const declaration = { declaration: 300 };
      expect(maskStaleOutput(loopInput(loop(3, 1_200), declaration))).toBeUndefined();
      expect(maskStaleOutput(loopInput(loop(24, 1_200), declaration))?.upTo).toBe(47);
    });

    it('should not count calls past the threshold, where the masked span is elided anyway', () => {
      const contents = loop(24, 1_200);
      const near = { declaration: 300, threshold: viewEstimate(100, 0, [], { covered: 0 }) + 3_000 };
      expect(maskStaleOutput(loopInput(contents, { declaration: 300 }))).toBeDefined();
      expect(maskStaleOutput(loopInput(contents, near))).toBeUndefined();
    });

    it('should count the head the recall declaration rewrites: system instruction and tools are read anew', () => {
      // 12 calls in, 5 more expected: the contents alone would pay; with a 5,000-token system
      // instruction, also sent again uncached once the tools change, they do not.
      const contents = loop(12, 1_500);
      expect(maskStaleOutput(loopInput(contents, { declaration: 300 }))).toBeDefined();
      const withHead = loopInput(contents, { declaration: 300 }, undefined, 5_000);
      expect(withHead.estimate).toBeLessThan(withHead.cache.threshold);
      expect(maskStaleOutput(withHead)).toBeUndefined();
    });
  });

  it('should build no placeholder while the unmasked results hold fewer tokens than the option', () => {
    const resultTokens = TOKENS.filter((_, i) => CONTENTS[i]?.parts?.some((part) => part.functionResponse)).reduce(
      (sum, tokens) => sum + tokens,
      0,
    );
    const tokenizer = recordingTokenizer();
    const source = { ...recallableSource(CONTENTS, TOKENS), tokenizer };
    expect(maskStaleOutput(input(resultTokens + 1, { source }))).toBeUndefined();
    expect(tokenizer.counted).toEqual([]);
    // At the bound, the placeholders are built and counted.
    maskStaleOutput(input(resultTokens, { source }));
    expect(tokenizer.counted.length).toBeGreaterThan(0);
  });

  describe('against the cache it breaks (a 90% discount on cached tokens)', () => {
    const longText = 'a'.repeat(3_000);
    // Turn 1 says much and calls no tool, turn 2's result is stale: the text before the
    // placeholder stays cached, only what follows it is sent again uncached.
    const textFirst: Content[] = [
      userText(longText),
      { role: 'model', parts: [{ text: 'noted' }] },
      userText('turn 2'),
      functionCall('fetch_2'),
      functionResponse('fetch_2', { logs: 'line 2\n'.repeat(300) }),
      { role: 'model', parts: [{ text: 'done 2' }] },
      userText('turn 3'),
    ];
    // The same words after the result: they would be sent again uncached.
    const textAfter: Content[] = [
      userText('turn 1'),
      { role: 'model', parts: [{ text: 'noted' }] },
      userText('turn 2'),
      functionCall('fetch_2'),
      functionResponse('fetch_2', { logs: 'line 2\n'.repeat(300) }),
      { role: 'model', parts: [{ text: longText }] },
      userText('turn 3'),
    ];
    const discounted = (contents: Content[], cache: Partial<StaleOutputInput['cache']> = {}): StaleOutputInput => {
      const tokens = contents.map((content) => estimateContentTokens(content, characterTokenizer));
      return input(1_000, {
        source: recallableSource(contents, tokens),
        estimate: viewEstimate(100, 0, tokens, { covered: 0 }),
        fingerprints: contents.map((_, index) => `f${index}`),
        cache: {
          usage: { modelCalls: 4, invocations: 2, averageTurnTokens: undefined },
          threshold: 100_000,
          factor: 1,
          cachedPriceRatio: 0.1,
          ...cache,
        },
      });
    };

    it('should mask when the saving over the calls to come beats sending the rest again', () => {
      // Saves about 2,000 tokens on each of 4 expected calls, sends about 100 again.
      expect(maskStaleOutput(discounted(textFirst))?.upTo).toBe(6);
    });

    it('should wait when the contents after the first placeholder cost more to send again', () => {
      // The same saving, but the 3,000 tokens after the placeholder lose the cache.
      expect(maskStaleOutput(discounted(textAfter))).toBeUndefined();
      expect(maskStaleOutput(discounted(textAfter, { cachedPriceRatio: 1 }))?.upTo).toBe(6);
    });

    it('should mask what costs more to send again once the session has run long enough, unless the threshold is near', () => {
      // 4 calls so far: too few to earn back ~3,000 tokens sent again (above); 40 are enough.
      expect(
        maskStaleOutput(
          discounted(textAfter, { usage: { modelCalls: 40, invocations: 20, averageTurnTokens: undefined } }),
        )?.upTo,
      ).toBe(6);
      // Threshold one turn of 5,000 tokens away: the masked span would be elided there anyway.
      expect(
        maskStaleOutput(
          discounted(textAfter, {
            usage: { modelCalls: 40, invocations: 20, averageTurnTokens: 5_000 },
            threshold: 8_000,
          }),
        ),
      ).toBeUndefined();
    });

    it('should not leave a request under the shortest cacheable prefix while the cached one is cheaper to re-read', () => {
      // Without the long text the masked request is a few hundred tokens: not cached at all.
      expect(maskStaleOutput(input(1_000, { cache: { ...NO_DISCOUNT, cachedPriceRatio: 0.1 } }))).toBeUndefined();
      // Four turns so far: two more expected (pays-for-cache.ts, TURNS_AHEAD_SHARE).
      const usage = { modelCalls: 4, invocations: 4, averageTurnTokens: undefined };
      expect(
        maskStaleOutput(input(1_000, { cache: { ...NO_DISCOUNT, usage, cachedPriceRatio: 0.1, factor: 20 } })),
      ).toBeDefined();
    });

    it('should weigh the masked request and the contents sent again in calibrated tokens', () => {
      // textFirst saves ~2,150 and sends ~290 again; at a factor of 0.5 the masked request is
      // ~1,720 real tokens, under the cacheable minimum: re-reading ~2,800 cached ones (280) is
      // cheaper than sending ~1,720 whole.
      expect(maskStaleOutput(discounted(textFirst, { factor: 0.5 }))).toBeUndefined();
      // textAfter at a factor of 3 saves ~650 a call and sends ~9,800 real tokens again (~8,850
      // at the full price over the cached one): 16 calls earn that back, 8 do not (a session of 16 turns of two
      // calls is expected to make 16 more, half as many turns again; one of 8 turns, 8).
      const calls = (modelCalls: number) => ({
        usage: { modelCalls, invocations: modelCalls / 2, averageTurnTokens: undefined },
        factor: 3,
      });
      expect(maskStaleOutput(discounted(textAfter, calls(32)))?.upTo).toBe(6);
      expect(maskStaleOutput(discounted(textAfter, calls(16)))).toBeUndefined();
    });

    it('should count the recall declaration it would add: the whole history sent again, and its tokens on every call', () => {
      // textFirst pays when only what follows the placeholder is sent again (above); a declaration
      // not sent yet goes before every content, so the 3,000 tokens of turn 1 lose the cache too.
      expect(maskStaleOutput(discounted(textFirst))?.upTo).toBe(6);
      expect(maskStaleOutput(discounted(textFirst, { declaration: 200 }))).toBeUndefined();
      // Without a cache discount nothing is lost by sending the history again: it still pays.
      expect(maskStaleOutput(discounted(textFirst, { declaration: 200, cachedPriceRatio: 1 }))?.upTo).toBe(6);
      // Its tokens count against the saving on every call: one as large as the saving never pays.
      expect(maskStaleOutput(discounted(textFirst, { declaration: 2_500, cachedPriceRatio: 1 }))).toBeUndefined();
    });

    it('should count only what follows the first new placeholder as sent again, after an earlier batch', () => {
      // Turn 1's result was masked by an earlier batch; turn 2's long reply follows turn 2's result.
      const twoResults: Content[] = [
        userText('turn 1'),
        functionCall('fetch_1'),
        functionResponse('fetch_1', { logs: 'line 1\n'.repeat(300) }),
        { role: 'model', parts: [{ text: longText }] },
        userText('turn 2'),
        functionCall('fetch_2'),
        functionResponse('fetch_2', { logs: 'line 2\n'.repeat(300) }),
        { role: 'model', parts: [{ text: 'done 2' }] },
        userText('turn 3'),
      ];
      const few = { usage: { modelCalls: 4, invocations: 2, averageTurnTokens: undefined } };
      // With turn 1 masked already, the long reply before the new placeholder stays cached.
      const afterFirstBatch = { ...discounted(twoResults, few), maskedUpTo: 4 };
      expect(maskStaleOutput(afterFirstBatch)?.upTo).toBe(8);
      // Masking both at once would send the long reply again: too dear for 4 calls.
      expect(maskStaleOutput(discounted(twoResults, few))).toBeUndefined();
    });
  });
});

describe('maskStaleOutput inside a tool loop, for any loop', () => {
  const anyLoop = fc.record({
    sizes: fc.array(fc.integer({ min: 50, max: 4_000 }), { minLength: 1, maxLength: 30 }),
    keepRecent: fc.integer({ min: 1, max: 3 }),
    declaration: fc.constantFrom(0, 300),
    cachedPriceRatio: fc.constantFrom(0.1, 0.25, 1),
  });
  type World = typeof anyLoop extends fc.Arbitrary<infer T> ? T : never;
  const build = ({ sizes, keepRecent, declaration, cachedPriceRatio }: World) => {
    const contents: Content[] = [
      userText('the task'),
      ...sizes.flatMap((size, n) => [
        functionCall(`run_${n}`, { plan: `step ${n}` }),
        functionResponse(`run_${n}`, { output: 'o'.repeat(size) }),
      ]),
    ];
    const tokens = contents.map((content) => estimateContentTokens(content, characterTokenizer));
    const built: StaleOutputInput = {
      policy: { maskKeepRecent: keepRecent, maskStaleOutputTokens: 1_024 },
      estimate: viewEstimate(100, 0, tokens, { covered: 0 }),
      cache: {
        usage: { modelCalls: sizes.length, invocations: 1, averageTurnTokens: undefined },
        threshold: 1_000_000,
        factor: 1,
        cachedPriceRatio,
        ...(declaration > 0 ? { declaration } : {}),
      },
      source: recallableSource(contents, tokens),
      coverage: { covered: 0 },
      maskedUpTo: 0,
      fixedTokens: 100,
      summaryTokens: 0,
      fingerprints: contents.map((_, index) => `f${index}`),
      previous: undefined,
      now: 7,
    };
    return { contents, built };
  };

  it("should never mask the user's message, the latest call or the last maskKeepRecent results", () => {
    fc.assert(
      fc.property(anyLoop, (world) => {
        const { contents, built } = build(world);
        const view = maskStaleOutput(built)?.view ?? contents;
        expect(view[0]).toEqual(contents[0]);
        const kept = Math.min(contents.length - 1, 2 * world.keepRecent);
        expect(view.slice(-kept)).toEqual(contents.slice(-kept));
      }),
    );
  });

  it('should send the same bytes for the same input', () => {
    fc.assert(
      fc.property(anyLoop, (world) => {
        const first = maskStaleOutput(build(world).built);
        const second = maskStaleOutput(build(world).built);
        expect(JSON.stringify(second?.view)).toBe(JSON.stringify(first?.view));
      }),
    );
  });

  it('should mask only when its saving over the calls the loop has ahead beats what it sends again uncached', () => {
    fc.assert(
      fc.property(anyLoop, (world) => {
        const { contents, built } = build(world);
        const masking = maskStaleOutput(built);
        // (Under the cacheable minimum nothing is cached to break: another rule, tested above.)
        if (!masking || masking.estimate + world.declaration < MIN_CACHED_PREFIX_TOKENS) return;
        // The bill by the cache's own terms: every call re-reads the request before its latest
        // call (cached at r); masking reads less, but sends once, uncached, the head when a
        // declaration joins it and everything from the first placeholder to the latest call.
        const r = world.cachedPriceRatio;
        const latestCall = contents.length - 2;
        const firstChanged = world.declaration > 0 ? 0 : masking.view.findIndex((c, i) => c !== contents[i]);
        const head = world.declaration > 0 ? 100 + world.declaration : 0;
        const sentAgain = head + masking.viewTokens.slice(firstChanged, latestCall).reduce((a, b) => a + b, 0);
        const calls = 1 + world.sizes.length / 3;
        const saved = r * (built.estimate - masking.estimate - world.declaration) * calls;
        expect(saved).toBeGreaterThanOrEqual((1 - r) * sentAgain - 1e-6);
      }),
    );
  });
});
