/**
 * What a request really costs, in the two modes the simulator supports:
 *
 * - `ratio`: characters / 4 x the scenario's ratio at the current turn (the
 *   seed's definition), through the package's `ratioTokenCounter`;
 * - `tokenizer`: a real tokenizer's count (Gemma 3's, see gemma-tokenizer.ts),
 *   through `tokenizerTokenCounter`.
 *
 * Both count every text the provider sees: system instruction, tool
 * declarations, texts, function calls and responses; images cost 258 tokens.
 * `measureContent` lets the observer size the raw history incrementally.
 */
import type { LlmRequest } from '@google/adk';
import type { Content } from '@google/genai';
import type { Tokenizer } from '../src/index.js';
import {
  ratioTokenCounter,
  requestPayload,
  tokenizerTokenCounter,
  type RequestTokenCounter,
} from '../src/testing/index.js';

export type GroundTruthMode = 'ratio' | 'tokenizer';

/** The cost of one content, cached by the observer. */
export interface ContentMeasure {
  readonly chars: number;
  readonly mediaTokens: number;
  /** Tokenizer tokens of the texts (tokenizer mode only). */
  readonly tokens: number;
  /** Characters a tool produced that something cut before the model saw them (set by RawHistory). */
  readonly cutChars: number;
}

export interface GroundTruth {
  readonly mode: GroundTruthMode;
  /** Shown in the report: `chars/4 x ratio` or the tokenizer's name. */
  readonly label: string;
  readonly countRequest: RequestTokenCounter;
  /** Tokens of a plain prompt (the summarizer's). */
  countText(text: string): number;
  measureContent(content: Content): ContentMeasure;
  /** Tokens of contents measured with `measureContent`, at the current ratio. */
  tokensOf(total: ContentMeasure): number;
  /** The same with the cut characters counted back: the contents as the tools produced them. */
  producedTokensOf(total: ContentMeasure): number;
}

function payloadOf(contents: Content[]): { texts: string[]; mediaTokens: number } {
  const request: LlmRequest = { contents, toolsDict: {}, liveConnectConfig: {} };
  return requestPayload(request);
}

export function ratioGroundTruth(ratio: () => number): GroundTruth {
  return {
    mode: 'ratio',
    label: 'chars/4 × scenario ratio',
    countRequest: ratioTokenCounter(ratio),
    countText: (text) => Math.ceil((text.length / 4) * ratio()),
    measureContent(content) {
      const { texts, mediaTokens } = payloadOf([content]);
      let chars = 0;
      for (const text of texts) chars += text.length;
      return { chars, mediaTokens, tokens: 0, cutChars: 0 };
    },
    tokensOf: (total) => Math.ceil((total.chars / 4) * ratio()) + total.mediaTokens,
    producedTokensOf: (total) => Math.ceil(((total.chars + total.cutChars) / 4) * ratio()) + total.mediaTokens,
  };
}

export function tokenizerGroundTruth(tokenizer: Tokenizer): GroundTruth {
  return {
    mode: 'tokenizer',
    label: `${tokenizer.name} tokenizer`,
    countRequest: tokenizerTokenCounter(tokenizer),
    countText: (text) => tokenizer.count(text),
    measureContent(content) {
      const { texts, mediaTokens } = payloadOf([content]);
      let chars = 0;
      let tokens = 0;
      for (const text of texts) {
        chars += text.length;
        tokens += tokenizer.count(text);
      }
      return { chars, mediaTokens, tokens, cutChars: 0 };
    },
    tokensOf: (total) => total.tokens + total.mediaTokens,
    // Cut characters are counted at the tokenizer's average density over these contents.
    producedTokensOf: (total) =>
      Math.ceil(total.tokens + total.cutChars * (total.chars > 0 ? total.tokens / total.chars : 0.25)) +
      total.mediaTokens,
  };
}
