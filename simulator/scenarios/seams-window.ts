/**
 * Scenarios for the seams around the window (issue 14, points 1 and 3): a
 * model name no registry knows, with no `contextWindow`, whose real window is
 * small; and a system prompt that takes most of the window, so that no
 * compaction can make a request fit and summarizer calls are counted.
 */
import { K, NO_TOOLS, single } from '../scenario-builders.js';
import type { ScenarioSpec } from '../scenario-types.js';

export const SEAMS_WINDOW: readonly ScenarioSpec[] = [
  {
    name: '8k_UnknownModel_NoContextWindow',
    group: 'extra',
    claim:
      'A model name no registry knows and no contextWindow (the guard assumes 128k) on a real 8k window: one rejection teaches the window and is retried inside its call (no failed turn), none after.',
    window: 8 * K,
    turns: 30,
    ratio: 2.0,
    usage: 'always',
    windowUnknown: true,
    turnPattern: { tools: [single(1_500, 'logs')] },
    expect: { maxRejected: 1, compactions: { min: 2 } },
  },
  {
    name: '8k_IrreducibleSystemPrompt_30Turns',
    group: 'extra',
    claim:
      'A 13k-character system prompt (83% of 8k at ratio 2.0, over the threshold) for 30 chat turns: no overflow, and no summarizer call on every model call.',
    window: 8 * K,
    turns: 30,
    ratio: 2.0,
    usage: 'always',
    systemPromptChars: 13_200,
    turnPattern: { tools: [NO_TOOLS], responseChars: [300] },
    expect: { summarizerCalls: { max: 15 } },
  },
];
