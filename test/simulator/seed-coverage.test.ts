/**
 * The scenario list is the seed's: all 47 names, each once, with the seed's
 * window, turns and usage reporting; the extra scenarios cover the gaps the
 * issue names.
 */
import { describe, expect, it } from 'vitest';
import { ALL_SCENARIOS, SEED_SCENARIOS } from '../../simulator/scenarios/index.js';

const SEED_TABLE: ReadonlyArray<
  readonly [name: string, window: number, turns: number, usage: 'always' | 'never' | 'late']
> = [
  ['200k_NormalConversation', 200_000, 30, 'always'],
  ['200k_ToolHeavy', 200_000, 20, 'always'],
  ['200k_SingleGiantToolResponse', 200_000, 3, 'always'],
  ['200k_ToolBurst_10Parallel', 200_000, 3, 'always'],
  ['200k_NoUsageMetadata', 200_000, 25, 'never'],
  ['200k_LongRunning_50Turns', 200_000, 50, 'always'],
  ['200k_HighTokenRatio', 200_000, 15, 'always'],
  ['200k_VeryHighTokenRatio_4x', 200_000, 10, 'always'],
  ['200k_LargeSystemPrompt', 200_000, 20, 'always'],
  ['200k_MassiveToolBurst', 200_000, 2, 'always'],
  ['200k_RepeatedCompactions', 200_000, 60, 'always'],
  ['200k_LateUsageMetadata', 200_000, 25, 'late'],
  ['200k_100Turns_MixedWorkload', 200_000, 100, 'always'],
  ['8k_NormalConversation', 8_000, 20, 'always'],
  ['8k_SmallToolCalls', 8_000, 15, 'always'],
  ['8k_LargeToolResponse', 8_000, 3, 'always'],
  ['8k_NoUsageMetadata', 8_000, 25, 'never'],
  ['8k_LongRunning_40Turns', 8_000, 40, 'always'],
  ['8k_ToolBurst', 8_000, 3, 'always'],
  ['8k_HighTokenRatio', 8_000, 20, 'always'],
  ['8k_LargeSystemPrompt', 8_000, 15, 'always'],
  ['8k_OnlyToolResponses', 8_000, 10, 'always'],
  ['8k_RapidFireShortMessages', 8_000, 80, 'always'],
  ['8k_RepeatedCompactions', 8_000, 40, 'always'],
  ['8k_AlternatingToolAndText', 8_000, 30, 'always'],
  ['CompactionNoInfiniteLoop', 8_000, 5, 'always'],
  ['8k_ToolResponseBiggerThanWindow', 8_000, 3, 'always'],
  ['8k_EveryTurnExceedsWindow', 8_000, 15, 'always'],
  ['8k_NoUsageMetadata_HighRatio', 8_000, 20, 'never'],
  ['8k_NoUsageMetadata_BeyondDefault', 8_000, 15, 'never'],
  ['8k_150Turns', 8_000, 150, 'always'],
  ['8k_SystemPromptLargerThanWindow', 8_000, 10, 'always'],
  ['8k_ToolChain_MultipleRoundtrips', 8_000, 10, 'always'],
  ['8k_AlternatingHugeAndTiny', 8_000, 30, 'always'],
  ['8k_CompactionEveryStep', 8_000, 30, 'always'],
  ['8k_CorrectionFactorDrift', 8_000, 20, 'always'],
  ['8k_EmptyToolResponses', 8_000, 25, 'always'],
  ['8k_VeryLargeModelResponses', 8_000, 20, 'always'],
  ['8k_JSON_Heavy_ToolResponses', 8_000, 15, 'always'],
  ['200k_ConsecutiveMassiveBursts', 200_000, 10, 'always'],
  ['200k_NoUsageMetadata_LongSession', 200_000, 80, 'never'],
  ['200k_TokenRatio_5x', 200_000, 10, 'always'],
  ['200k_SingleTurnFillsWindow', 200_000, 2, 'always'],
  ['200k_200Turns', 200_000, 200, 'always'],
  ['8k_SequentialToolChain', 8_000, 8, 'always'],
  ['200k_SequentialToolChain_LargeResponses', 200_000, 5, 'always'],
  ['8k_SequentialChain_NoUsageMetadata', 8_000, 10, 'never'],
];

describe('scenario list', () => {
  it('should hold the seed 47 scenarios with their window, turns and usage reporting', () => {
    expect(SEED_TABLE).toHaveLength(47);
    expect(SEED_SCENARIOS.map((spec) => spec.name).sort()).toEqual(SEED_TABLE.map(([name]) => name).sort());
    for (const [name, window, turns, usage] of SEED_TABLE) {
      const spec = SEED_SCENARIOS.find((candidate) => candidate.name === name);
      expect({ name, window: spec?.window, turns: spec?.turns }).toEqual({ name, window, turns });
      const reported = spec?.usage === 'always' ? 'always' : spec?.usage === 'never' ? 'never' : 'late';
      expect({ name, usage: reported }).toEqual({ name, usage });
    }
  });

  it('should give every scenario a unique name and a claim', () => {
    const names = ALL_SCENARIOS.map((spec) => spec.name);
    expect(new Set(names).size).toBe(names.length);
    for (const spec of ALL_SCENARIOS) expect(spec.claim.length).toBeGreaterThan(20);
  });

  it('should cover the gaps: 4k, 32k, 128k and 1M windows, media, many tools, drift, several agents, failing summarizers', () => {
    const windows = new Set(ALL_SCENARIOS.map((spec) => spec.window));
    for (const window of [4_000, 32_000, 128_000, 1_000_000]) expect(windows).toContain(window);
    expect(ALL_SCENARIOS.some((spec) => spec.turnPattern.attachments?.some((list) => list.length > 0))).toBe(true);
    expect(ALL_SCENARIOS.some((spec) => (spec.extraToolDeclarations ?? 0) >= 50)).toBe(true);
    expect(ALL_SCENARIOS.some((spec) => typeof spec.ratio === 'object')).toBe(true);
    expect(new Set(ALL_SCENARIOS.map((spec) => spec.agents ?? 'single'))).toEqual(
      new Set(['single', 'transfer', 'pipeline', 'agent-tool']),
    );
    const behaviors = new Set(ALL_SCENARIOS.flatMap((spec) => [spec.summarizer?.behavior ?? 'ok'].flat()));
    for (const behavior of ['fail', 'timeout', 'empty', 'overlong']) expect(behaviors).toContain(behavior);
  });
});
