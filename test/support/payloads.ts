/**
 * The payload kinds the tests and property runs draw from, each made by the shared generators
 * of `src/testing` (one generator, one seeded random): log lines, prose, CJK, emoji with
 * combining marks, JSON rows, whitespace-free runs and base64. Same (kind, size, seed) → same text.
 */
import { base64Text, cjkText, emojiText, hexText, logText, proseText, toolResult } from '../../src/testing/index.js';

export type PayloadKind =
  'log' | 'prose' | 'cjk' | 'emoji' | 'json-rows' | 'no-space' | 'base64' | 'empty-object' | 'empty-string';

export const TEXT_PAYLOAD_KINDS: readonly PayloadKind[] = ['log', 'prose', 'cjk', 'emoji', 'no-space', 'base64'];
export const PAYLOAD_KINDS: readonly PayloadKind[] = [
  ...TEXT_PAYLOAD_KINDS,
  'json-rows',
  'empty-object',
  'empty-string',
];

const TEXT: Record<PayloadKind, (chars: number, seed: number) => string> = {
  log: logText,
  prose: proseText,
  cjk: cjkText,
  emoji: emojiText,
  'no-space': hexText,
  base64: base64Text,
  'json-rows': logText,
  'empty-object': logText,
  'empty-string': logText,
};

/** Text of `kind` with about `chars` UTF-16 units (never more). */
export function payloadText(kind: PayloadKind, chars: number, seed = 1): string {
  return chars <= 0 ? '' : TEXT[kind](chars, seed);
}

/** A tool result of `kind` whose JSON is about `chars` characters. */
export function payloadResult(kind: PayloadKind, chars: number, seed = 1): unknown {
  switch (kind) {
    case 'empty-object':
      return {};
    case 'empty-string':
      return '';
    case 'json-rows':
      return toolResult('json', chars, seed);
    default:
      return { output: payloadText(kind, chars, seed) };
  }
}
