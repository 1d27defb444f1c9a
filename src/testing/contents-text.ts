/**
 * What a scripted model "reads" in a request's contents: every text, and every function
 * response as its JSON, one per line. A script that answers from this answers only from what
 * it was sent, which is how a test shows that a fact survived a compaction or was lost.
 */
import type { Content } from '@google/genai';

export function contentsText(contents: readonly Content[]): string {
  return contents
    .flatMap((content) => content.parts ?? [])
    .map((part) => part.text ?? JSON.stringify(part.functionResponse?.response ?? ''))
    .join('\n');
}
