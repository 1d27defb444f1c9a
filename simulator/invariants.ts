/**
 * The invariants checked on every model call, as pure functions over what the
 * model received. Each returns the violations it finds, in words a reader of
 * the report understands.
 *
 * - No orphan: every function call is answered, in the very next content, by a
 *   response of the same name (and id when both carry one), and every
 *   response follows its call.
 * - The user's current request is never lost: its text is in a user content
 *   of the request, verbatim (its own message, or restated in the summary
 *   content that starts with SUMMARY_MARKER).
 * - No compaction loop: two consecutive calls of one agent both compacting
 *   although nothing was appended in between, or although the request would
 *   have been under LOOP_WINDOW_FRACTION of the window without the second
 *   compaction (its stored summary plus everything after the watermark: the
 *   seed's loop compacted every turn at a few percent of the window because a
 *   stale correction pinned its estimate high); or any compaction that
 *   covers nothing new (its watermark does not advance).
 * Overflows are counted per run (a scenario may allow a documented number).
 */
import type { Content } from '@google/genai';

/** A second compaction this soon is a loop when the request was this small (fraction of the window). */
export const LOOP_WINDOW_FRACTION = 0.3;

interface NamedPart {
  readonly name: string;
  readonly id: string | undefined;
}

function calls(content: Content | undefined): NamedPart[] {
  return (content?.parts ?? []).flatMap((part) =>
    part.functionCall ? [{ name: part.functionCall.name ?? '', id: part.functionCall.id }] : [],
  );
}

function responses(content: Content | undefined): NamedPart[] {
  return (content?.parts ?? []).flatMap((part) =>
    part.functionResponse ? [{ name: part.functionResponse.name ?? '', id: part.functionResponse.id }] : [],
  );
}

function sameCall(call: NamedPart, response: NamedPart): boolean {
  return call.name === response.name && (call.id === undefined || response.id === undefined || call.id === response.id);
}

/** Function calls without their response and responses without their call. */
export function orphanViolations(contents: readonly Content[]): string[] {
  const violations: string[] = [];
  for (let i = 0; i < contents.length; i++) {
    const made = calls(contents[i]);
    if (made.length > 0) {
      const answered = responses(contents[i + 1]);
      const unmatched = [...answered];
      for (const call of made) {
        const at = unmatched.findIndex((response) => sameCall(call, response));
        if (at < 0)
          violations.push(`orphaned function call '${call.name}' at content ${i} (no response in the next content)`);
        else unmatched.splice(at, 1);
      }
    }
    const answered = responses(contents[i]);
    if (answered.length > 0) {
      const available = [...calls(contents[i - 1])];
      for (const response of answered) {
        const at = available.findIndex((call) => sameCall(call, response));
        if (at < 0)
          violations.push(
            `orphaned function response '${response.name}' at content ${i} (its call is not the previous content)`,
          );
        else available.splice(at, 1);
      }
    }
  }
  return violations;
}

/**
 * True when `message` appears verbatim in a user content of the request: its
 * own message, or the summary content that restates it (both are `user`
 * contents; a model echoing the request does not count).
 */
export function containsRequest(contents: readonly Content[], message: string): boolean {
  for (const content of contents) {
    if (content.role !== 'user') continue;
    for (const part of content.parts ?? []) {
      if (typeof part.text === 'string' && part.text.includes(message)) return true;
    }
  }
  return false;
}

/** Whether a user content of `contents` has exactly the parts of `message`, in order (text and inline data verbatim). */
export function holdsContent(contents: readonly Content[], message: Content): boolean {
  const wanted = JSON.stringify(message.parts ?? []);
  return contents.some((content) => content.role === 'user' && JSON.stringify(content.parts ?? []) === wanted);
}

/** Size the tool was asked for, per function response of the content after a call content. */
function requestedSizes(call: Content | undefined): Map<string, number[]> {
  const sizes = new Map<string, number[]>();
  for (const part of call?.parts ?? []) {
    const size = (part.functionCall?.args as { size?: unknown } | undefined)?.size;
    if (part.functionCall && typeof size === 'number') {
      const name = part.functionCall.name ?? '';
      sizes.set(name, [...(sizes.get(name) ?? []), size]);
    }
  }
  return sizes;
}

/** Function responses that reached the model at under 90% of the size the tool returned. */
export function shrunkToolResults(contents: readonly Content[]): number {
  let shrunk = 0;
  for (let i = 1; i < contents.length; i++) {
    const sizes = requestedSizes(contents[i - 1]);
    for (const part of contents[i]?.parts ?? []) {
      const response = part.functionResponse;
      if (!response) continue;
      const queue = sizes.get(response.name ?? '');
      const requested = queue?.shift();
      if (
        requested !== undefined &&
        requested >= 200 &&
        JSON.stringify(response.response ?? {}).length < requested * 0.9
      )
        shrunk++;
    }
  }
  return shrunk;
}

/** The most function responses carried by one content (parallel calls merged by ADK). */
export function maxParallelResponses(contents: readonly Content[]): number {
  let most = 0;
  for (const content of contents) most = Math.max(most, responses(content).length);
  return most;
}

/** What the loop check needs to know about one call. */
export interface LoopFacts {
  readonly index: number;
  readonly compacted: boolean;
  readonly rejected: boolean;
  readonly promptTokens: number;
  /** Ground-truth tokens appended to the history since the agent's previous call. */
  readonly appendedTokens: number;
  /** Ground-truth tokens of the request had this call not compacted (summary + contents after the watermark). */
  readonly viewTokens: number;
  readonly watermarkBefore: number;
  readonly watermarkAfter: number;
  /** False for strategies without a watermark (ADK's compactor). */
  readonly hasWatermark: boolean;
}

/** The loop violation of `current`, given the same agent's previous call. */
export function loopViolation(current: LoopFacts, previous: LoopFacts | undefined, window: number): string | undefined {
  if (!current.compacted) return undefined;
  if (current.hasWatermark && current.watermarkAfter <= current.watermarkBefore && current.watermarkBefore > 0) {
    return `compaction loop: call ${current.index} compacted but its watermark did not advance (${current.watermarkBefore} → ${current.watermarkAfter})`;
  }
  if (!previous || !previous.compacted || previous.rejected) return undefined;
  if (current.appendedTokens <= 0) {
    return `compaction loop: calls ${previous.index} and ${current.index} both compacted and nothing was appended in between`;
  }
  if (current.viewTokens <= window * LOOP_WINDOW_FRACTION) {
    return (
      `compaction loop: calls ${previous.index} and ${current.index} both compacted although the request would have been ` +
      `${current.viewTokens} tokens (${Math.round((current.viewTokens / window) * 100)}% of the window) without the second one`
    );
  }
  return undefined;
}
