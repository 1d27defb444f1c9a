/**
 * How the simulator bills a summary its scripted model wrote (the summary requests themselves are recognised and
 * answered by `summaryRequestKind` and `answeringSummaries` of the testing subpath).
 */
import type { Content } from '@google/genai';
import { scriptedOutputTokens } from '../src/testing/index.js';

/** Output tokens of a summary the scripted model wrote, as the simulator bills them (observed-model.ts). */
export function summaryOutputTokens(content: Content): number {
  return scriptedOutputTokens((content.parts ?? []).reduce((chars, part) => chars + (part.text?.length ?? 0), 0));
}
