/**
 * Test helpers for applications that use adk-context-guard, and the one toolkit this
 * repository's tests, simulator and bench share: a strict scripted model, ground-truth token
 * counters, deterministic payloads and media, a capturing logger. Import from
 * `adk-context-guard/testing`.
 */
export { ScriptedLlm, promptTooLongError } from './scripted-llm.js';
export { cachedPrefixTokens, DEFAULT_MIN_CACHED_TOKENS, snapshotRequest } from './cached-prefix.js';
export type { PrefixSnapshot } from './cached-prefix.js';
export type { ModelScript, RecordedRequest, ScriptCall, ScriptedLlmOptions } from './scripted-llm.js';
export { memoizedTokenizer, ratioTokenCounter, requestPayload, tokenizerTokenCounter } from './ground-truth.js';
export type { RequestTokenCounter } from './ground-truth.js';
export { SeededRandom } from './seeded-random.js';
export { codeText, logText, modelAnswer, proseText, systemPrompt, toolResult, userMessage } from './payloads.js';
export type { PayloadShape } from './payloads.js';
export { base64Text, CJK_CHARACTERS, cjkText, EMOJI_PIECES, emojiText, hexText } from './hard-text.js';
export {
  gifBytes,
  imageBase64,
  jpegBytes,
  pdfBase64,
  pdfText,
  pngBytes,
  toBase64,
  webpBytes,
  zeroBytesBase64,
} from './media.js';
export { CapturingLogger, OVER_LIMIT_WARNING, SENT_WHOLE_NOTE } from './capturing-logger.js';
export type { CapturingLoggerOptions, LogLevelName, LogLine } from './capturing-logger.js';
export { ScriptedSummarizer, scriptedOutputTokens, scriptedSummaryText } from './scripted-summarizer.js';
export type { ScriptedSummarizerOptions, SummarizerBehavior, SummarizerCall } from './scripted-summarizer.js';
export { ScriptedSummarizerLlm, SUMMARIZER_MODES, SUMMARIZER_THOUGHT } from './scripted-summarizer-llm.js';
export type { ScriptedSummarizerLlmOptions, SummarizerLlmCall, SummarizerMode } from './scripted-summarizer-llm.js';
export { contentsText } from './contents-text.js';
export { answeringSummaries, summaryRequestKind } from './summary-requests.js';
export type { SummaryRequestKind } from './summary-requests.js';
