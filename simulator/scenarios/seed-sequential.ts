/**
 * The seed's sequential tool-chain scenarios: one model step per tool, so
 * the guard runs (and may compact) between the steps of one turn.
 */
import { chain, K } from '../scenario-builders.js';
import type { ScenarioSpec } from '../scenario-types.js';

export const SEED_SEQUENTIAL: readonly ScenarioSpec[] = [
  {
    name: '8k_SequentialToolChain',
    group: 'sequential',
    claim: 'Five chained tools per turn (2k, 1.5k, 2.5k, 1k, 1.5k): the guard compacts mid-chain, no orphan.',
    window: 8 * K,
    turns: 8,
    ratio: 2.0,
    usage: 'always',
    turnPattern: { tools: [chain([2 * K, 1_500, 2_500, 1 * K, 1_500], 'logs')] },
    expect: { compactedMidChain: true, rawOverWindow: { min: 1 } },
  },
  {
    name: '200k_SequentialToolChain_LargeResponses',
    group: 'sequential',
    claim:
      'Five chained large results per turn (40k, 20k, 30k, 15k, 5k): mid-chain compaction, no overflow (masking for cost off: with it, the chain never reaches the threshold).',
    window: 200 * K,
    turns: 5,
    ratio: 2.0,
    usage: 'always',
    guard: { maskStaleOutputTokens: 0 },
    turnPattern: { tools: [chain([40 * K, 20 * K, 30 * K, 15 * K, 5 * K], 'json')] },
    expect: { compactedMidChain: true, rawOverWindow: { min: 1 } },
  },
  {
    name: '8k_SequentialChain_NoUsageMetadata',
    group: 'sequential',
    claim: 'Three chained tools per turn with no usage metadata: mid-chain compaction on heuristics alone.',
    window: 8 * K,
    turns: 10,
    ratio: 2.0,
    usage: 'never',
    turnPattern: { tools: [chain([1 * K, 800, 1_200], 'json')] },
    expect: { compactedMidChain: true },
  },
];
