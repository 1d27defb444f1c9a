/**
 * The ground-truth size of the contents ADK built for an agent, measured
 * incrementally. ADK rebuilds the whole history on every step, but from an
 * append-only event log, so a request usually starts with the previous one's
 * contents: only the new tail is measured. When the start changed (ADK's own
 * compactor replaced events with a summary) everything is measured again.
 */
import type { Content } from '@google/genai';
import type { ContentMeasure, GroundTruth } from './ground-truth.js';

/** Cheap identity of a content: role, part kinds and text lengths with a short head. */
function signature(content: Content | undefined): string {
  if (!content) return '';
  const parts = (content.parts ?? []).map((part) => {
    if (typeof part.text === 'string') return `t${part.text.length}:${part.text.slice(0, 24)}`;
    if (part.functionCall) return `c:${part.functionCall.name ?? ''}`;
    if (part.functionResponse) return `r:${part.functionResponse.name ?? ''}`;
    if (part.inlineData) return `m${part.inlineData.data?.length ?? 0}`;
    return '?';
  });
  return `${content.role ?? ''}|${parts.join(',')}`;
}

export interface RawMeasure {
  /** Total of every content. */
  readonly total: ContentMeasure;
  /** Total of the contents that were not in the previous request (everything when it was re-measured). */
  readonly appended: ContentMeasure;
}

function add(a: ContentMeasure, b: ContentMeasure): ContentMeasure {
  return {
    chars: a.chars + b.chars,
    mediaTokens: a.mediaTokens + b.mediaTokens,
    tokens: a.tokens + b.tokens,
    cutChars: a.cutChars + b.cutChars,
  };
}

const ZERO: ContentMeasure = { chars: 0, mediaTokens: 0, tokens: 0, cutChars: 0 };

/**
 * Characters the tools produced for the responses in `content` beyond what it
 * carries: the simulator's tools return about `args.size` characters, so a
 * response shorter than its call's size was cut (by a truncation plugin).
 */
function cutChars(call: Content | undefined, content: Content): number {
  const sizes = new Map<string, number[]>();
  for (const part of call?.parts ?? []) {
    const size = (part.functionCall?.args as { size?: unknown } | undefined)?.size;
    if (part.functionCall && typeof size === 'number')
      sizes.set(part.functionCall.name ?? '', [...(sizes.get(part.functionCall.name ?? '') ?? []), size]);
  }
  let cut = 0;
  for (const part of content.parts ?? []) {
    if (!part.functionResponse) continue;
    const produced = sizes.get(part.functionResponse.name ?? '')?.shift();
    if (produced !== undefined)
      cut += Math.max(0, produced - JSON.stringify(part.functionResponse.response ?? {}).length);
  }
  return cut;
}

export class RawHistory {
  private measures: ContentMeasure[] = [];
  private signatures: string[] = [];

  measure(contents: readonly Content[], truth: GroundTruth): RawMeasure {
    let known = this.measures.length;
    const stale =
      known > contents.length ||
      (known > 0 &&
        (signature(contents[0]) !== this.signatures[0] ||
          signature(contents[known - 1]) !== this.signatures[known - 1]));
    if (stale) known = 0;
    this.measures.length = known;
    this.signatures.length = known;
    let appended = ZERO;
    for (let i = known; i < contents.length; i++) {
      const content = contents[i] as Content;
      const measure = { ...truth.measureContent(content), cutChars: cutChars(contents[i - 1], content) };
      this.measures.push(measure);
      this.signatures.push(signature(content));
      appended = add(appended, measure);
    }
    let total = ZERO;
    for (const measure of this.measures) total = add(total, measure);
    return { total, appended };
  }

  /** Total of the contents from `index` on (after `measure`), plus the one at `kept` before it (a summary's kept message). */
  from(index: number, kept?: number): ContentMeasure {
    let total = kept !== undefined && kept >= 0 && kept < index ? (this.measures[kept] ?? ZERO) : ZERO;
    for (let i = Math.max(0, index); i < this.measures.length; i++)
      total = add(total, this.measures[i] as ContentMeasure);
    return total;
  }
}
