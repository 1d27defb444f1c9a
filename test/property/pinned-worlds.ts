/**
 * A counterexample the within-envelope property replays with each ground truth: a two-roots world whose first
 * request (a 30-character instruction, "Question: a" and a 1537x3073 image) is uncalibrated, so the image is omitted
 * and the request is ~130 estimated tokens; the provider's count of it calibrates the next call of the same turn,
 * which sends the image. A provider that leaves out the estimator's framing ('proportional') counts that small
 * request 14% below its ratio to the estimate; before calibration learned net of framing, the next call was
 * estimated 14% low and rejected. Now both it and one proportional to the estimator ('estimator') calibrate to the
 * provider's ratio, and the image is omitted again.
 */
import type { WorldConfig } from '../support/guarded-world.js';
import { ReportUsage, UserTurn, type GuardCommand } from './guard-commands.js';

export const smallFirstRequestWorld: Omit<WorldConfig, 'truth'> = {
  topology: 'two-roots',
  windows: [7938, 250144, 22038],
  unconfiguredAgent: 2,
  reportUsage: false,
  summarizerMode: 'max-tokens',
  summarizerWindow: 1000000,
  instructionChars: 30,
  ratio: 2.0764570308782484,
  policy: {
    bufferRatio: 0.3582459608230294,
    compactTargetRatio: 0.46456178030985146,
    hardLimitRatio: 0.9445696596328832,
    uncalibratedThresholdRatio: 0.5458998899642277,
    defaultCorrection: 2.2570185118241857,
    toolOutputTruncation: false,
  },
};

export function smallFirstRequestCommands(): GuardCommand[] {
  return [
    new ReportUsage(true),
    new UserTurn({
      entry: 0,
      text: 'Question: a',
      image: { width: 1537, height: 3073 },
      steps: [{ kind: 'tools', calls: [{ kind: 'log', chars: 1, seed: 0 }] }],
      answerChars: 0,
    }),
    // The next turn: after a rejection it is compacted first and accepted.
    new UserTurn({ entry: 0, text: 'Question: b', steps: [], answerChars: 0 }),
  ];
}
