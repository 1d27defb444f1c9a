/**
 * The ground truth the strict model bills by: chars/4 x ratio exactly (with
 * drift read at call time), a real tokenizer in `tokenizer` mode, and the
 * observer's incremental sizing agreeing with a full count.
 */
import type { LlmRequest } from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { GEMMA_TOKENIZER_PACKAGE, loadGroundTruthTokenizer } from '../../simulator/gemma-tokenizer.js';
import { ratioGroundTruth, tokenizerGroundTruth } from '../../simulator/ground-truth.js';
import { RawHistory } from '../../simulator/raw-history.js';
import { ratioAt } from '../../simulator/ratio-schedule.js';
import { runScenario } from '../../simulator/run-scenario.js';
import { ALL_SCENARIOS } from '../../simulator/scenarios/index.js';
import { STRATEGIES } from '../../simulator/strategies.js';

const request = (contents: Content[], system = ''): LlmRequest => ({
  contents,
  toolsDict: {},
  liveConnectConfig: {},
  config: { systemInstruction: system },
});

describe('ratio ground truth', () => {
  it('should bill characters / 4 x the ratio in force at the time of the call', () => {
    let ratio = 2;
    const truth = ratioGroundTruth(() => ratio);
    const sent = request([{ role: 'user', parts: [{ text: 'x'.repeat(400) }] }], 'y'.repeat(400));
    expect(truth.countRequest(sent)).toBe(400);
    ratio = 3.5;
    expect(truth.countRequest(sent)).toBe(700);
  });

  it('should follow linear and stepped drifts', () => {
    const stepped = {
      steps: [
        [1, 1.5],
        [15, 3.5],
        [30, 2],
      ],
    } satisfies Parameters<typeof ratioAt>[0];
    expect(ratioAt({ from: 1.5, to: 3.5 }, 1, 41)).toBe(1.5);
    expect(ratioAt({ from: 1.5, to: 3.5 }, 21, 41)).toBeCloseTo(2.5);
    expect(ratioAt(stepped, 14, 40)).toBe(1.5);
    expect(ratioAt(stepped, 15, 40)).toBe(3.5);
    expect(ratioAt(stepped, 40, 40)).toBe(2);
  });
});

describe('raw history sizing', () => {
  it('should measure appended contents only, and agree with a full count', () => {
    const truth = ratioGroundTruth(() => 2);
    const history = new RawHistory();
    const first: Content[] = [{ role: 'user', parts: [{ text: 'a'.repeat(100) }] }];
    const second: Content[] = [...first, { role: 'model', parts: [{ text: 'b'.repeat(300) }] }];
    expect(truth.tokensOf(history.measure(first, truth).total)).toBe(50);
    const grown = history.measure(second, truth);
    expect(truth.tokensOf(grown.appended)).toBe(150);
    expect(truth.tokensOf(grown.total)).toBe(truth.countRequest(request(second)));
  });

  it('should count a cut tool result at the size its call asked for', () => {
    const truth = ratioGroundTruth(() => 1);
    const history = new RawHistory();
    const contents: Content[] = [
      { role: 'model', parts: [{ functionCall: { name: 'fetch_data', args: { size: 40_000 } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'fetch_data', response: { logs: 'x'.repeat(1_000) } } }] },
    ];
    const measured = history.measure(contents, truth);
    expect(truth.tokensOf(measured.total)).toBeLessThan(400);
    expect(truth.producedTokensOf(measured.total)).toBeGreaterThan(10_000);
  });

  it('should start over when the start of the history changed (a compactor replaced it)', () => {
    const truth = ratioGroundTruth(() => 1);
    const history = new RawHistory();
    history.measure(
      [
        { role: 'user', parts: [{ text: 'a'.repeat(4_000) }] },
        { role: 'model', parts: [{ text: 'ok' }] },
      ],
      truth,
    );
    const replaced = history.measure(
      [
        { role: 'user', parts: [{ text: 'summary' }] },
        { role: 'model', parts: [{ text: 'ok' }] },
      ],
      truth,
    );
    expect(truth.tokensOf(replaced.total)).toBe(3);
  });
});

describe('tokenizer ground truth', () => {
  it(`should load ${GEMMA_TOKENIZER_PACKAGE} offline, or say why it fell back to tiktoken`, async () => {
    const loaded = await loadGroundTruthTokenizer();
    if (loaded.fallbackReason === undefined) {
      expect(loaded.tokenizer.name).toBe('gemma3');
      // Gemma's SentencePiece vocabulary: six pieces, no special tokens.
      expect(loaded.tokenizer.count('Hello, my dog is cute')).toBe(6);
    } else {
      expect(loaded.fallbackReason).toContain(GEMMA_TOKENIZER_PACKAGE);
      expect(loaded.tokenizer.name).toBe('tiktoken-o200k');
    }
    const truth = tokenizerGroundTruth(loaded.tokenizer);
    const tokens = truth.countRequest(
      request([{ role: 'user', parts: [{ text: 'The quick brown fox jumps over the lazy dog.' }] }]),
    );
    expect(tokens).toBeGreaterThan(5);
    expect(tokens).toBeLessThan(20);
  }, 60_000);

  it("should run a scenario end to end with the tokenizer as the model's ground truth", async () => {
    const { tokenizer } = await loadGroundTruthTokenizer();
    const scenario = ALL_SCENARIOS.find((spec) => spec.name === '8k_SequentialToolChain');
    const strategy = STRATEGIES.find((spec) => spec.name === 'guard-threshold');
    if (!scenario || !strategy) throw new Error('scenario or strategy missing');
    const result = await runScenario(scenario, strategy, { tokenizer });
    expect(result.groundTruth).toBe(`${tokenizer.name} tokenizer`);
    expect(result.violations, result.violations.join('\n')).toEqual([]);
    expect(result.modelCalls).toBeGreaterThan(scenario.turns);
  }, 120_000);
});
