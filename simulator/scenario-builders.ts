/**
 * Small builders that keep the scenario tables readable. They return plain
 * data (see scenario-types.ts), never behaviour.
 */
import type { AttachmentSpec, PayloadShape, StepSpec, ToolCallSpec, TurnTools } from './scenario-types.js';

export const K = 1_000;

export function call(size: number, shape: PayloadShape = 'logs'): ToolCallSpec {
  return { size, shape };
}

/** One step with every call in parallel (one model content, several function calls). */
export function parallel(sizes: readonly number[], shape: PayloadShape = 'logs'): TurnTools {
  return [sizes.map((size) => call(size, shape))];
}

/** One tool call in the turn. */
export function single(size: number, shape: PayloadShape = 'logs'): TurnTools {
  return [[call(size, shape)]];
}

/** A sequential chain: one model step per call. */
export function chain(sizes: readonly number[], shape: PayloadShape = 'logs'): TurnTools {
  return sizes.map((size): StepSpec => [call(size, shape)]);
}

/** Steps given explicitly (mixes of parallel steps and chains). */
export function steps(...list: StepSpec[]): TurnTools {
  return list;
}

/** A turn without tools. */
export const NO_TOOLS: TurnTools = [];

/** `tools` on every `n`th turn (turns n, 2n, ...), nothing on the others. */
export function everyNth(n: number, tools: TurnTools): TurnTools[] {
  return [...Array.from({ length: n - 1 }, () => NO_TOOLS), tools];
}

export function png(width: number, height: number, base64Chars: number): AttachmentSpec {
  return { kind: 'png', width, height, base64Chars };
}

export function pdf(pages: number): AttachmentSpec {
  // About 3,000 bytes (4,000 base64 characters) per page: what Gemini bills as one page.
  return { kind: 'pdf', pages, base64Chars: pages * 4_000 };
}
