/**
 * The bench's payload kinds, made by the shared generators of `src/testing` (the simulator's,
 * one seeded random): JSON tool output, server logs, source code, English prose and CJK prose.
 * Same seed, same text, so two strategies see byte-identical histories.
 */
import { cjkText, codeText, logText, proseText, toolResult } from '../../src/testing/index.js';

export type PayloadKind = 'json' | 'logs' | 'code' | 'prose' | 'cjk';
export const PAYLOAD_KINDS: readonly PayloadKind[] = ['json', 'logs', 'code', 'prose', 'cjk'];

const TEXT: Record<Exclude<PayloadKind, 'json'>, (chars: number, seed: number) => string> = {
  logs: logText,
  code: codeText,
  prose: proseText,
  cjk: cjkText,
};

/** A JSON tool result (order records), about `chars` characters once serialised. */
export function jsonRecords(chars: number, seed: number): Record<string, unknown> {
  return toolResult('json', chars, seed);
}

/** The text payload of a kind, about `chars` characters. */
export function textPayload(kind: Exclude<PayloadKind, 'json'>, chars: number, seed: number): string {
  return TEXT[kind](chars, seed);
}

/** Any payload as text (JSON serialised), for tokenizer-level measurements. */
export function payloadText(kind: PayloadKind, chars: number, seed: number): string {
  return kind === 'json' ? JSON.stringify(jsonRecords(chars, seed)) : textPayload(kind, chars, seed);
}
