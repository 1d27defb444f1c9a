import type { Content } from '@google/genai';
import type { FlatPlaceholder } from './placeholder-copy.js';

/** What masking made of the content at one position of one session's history. */
export interface MaskedEntry {
  /** The original content's fingerprint: the entry holds only while the position holds that content. */
  readonly fingerprint: string;
  /** The original content's measured count (the placeholders state it). */
  readonly tokensIn: number;
  /** The masked content, the cache's own copy (never handed out); `undefined` when masking leaves it as it is. */
  readonly masked: Content | undefined;
  /** `masked`'s fields when it has the usual placeholder shape: a call's copy is built from them (placeholder-copy.ts). */
  readonly flat?: FlatPlaceholder | undefined;
  /** Tokens and the estimator's framing of the masked content (of the original when it is left as it is). */
  readonly tokens: number;
  readonly framing: number;
}
