/**
 * The turn in flight (issue 14, point 2): a user message with three
 * screenshots and a long task statement, then one turn of many tool steps
 * under a tail budget smaller than the message itself. Mid-turn compactions
 * must summarize the older steps, never the message the model is answering.
 */
import { chain, K, png } from '../scenario-builders.js';
import type { ScenarioSpec } from '../scenario-types.js';

export const SEAMS_TURN: readonly ScenarioSpec[] = [
  {
    name: '12k_Turn_ImagesAndLongTask_ManySteps',
    group: 'extra',
    claim:
      'A 10.9k-character task with three screenshots, then 30 chained 1.5k results in the same turn on 12k: compactions mid-turn, the message intact in every request.',
    window: 12_288,
    turns: 2,
    ratio: 2.0,
    usage: 'always',
    turnPattern: {
      tools: [
        chain(
          Array.from({ length: 30 }, () => 1_500),
          'logs',
        ),
      ],
      messageChars: [10_902],
      attachments: [[png(1_920, 1_080, 60 * K), png(1_280, 720, 30 * K), png(1_024, 768, 20 * K)]],
    },
    expect: { compactedMidChain: true, currentRequestIntact: true, rawOverWindow: { min: 1 } },
  },
];
