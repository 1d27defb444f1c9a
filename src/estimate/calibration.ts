/**
 * Calibration of the heuristic estimate against the provider's real counts.
 *
 *   correction = clamp(max(realPromptTokens / lastEstimate,
 *                          realPromptTokens / net(lastEstimate) * net(estimate) / estimate), 1, 5)
 *                (1.5 before any real count)
 *   net(e)     = max(e - the estimator's framing in e, MIN_CONTENT_SHARE * e)
 *   calibrated = max(estimate * correction, realPromptTokens + (estimate - lastEstimate) * correction)
 *                when realPromptTokens >= lastEstimate (or no real count: estimate * correction), else
 *   calibrated = realPromptTokens + growth * (growth >= 0 ? correction : realPromptTokens / lastEstimate)
 *                with growth = estimate - lastEstimate
 *
 * The framing is what the estimator adds for role markers and part, system and
 * tool framing. Whether a provider counts it is unknown, and its share of a
 * request varies: large on a small request (14% of a 130-token first call),
 * negligible on the large one that may follow. The first ratio is right for a
 * provider that counts it, the second (the ratio of content tokens, applied to
 * this request's content) for one that does not; the larger errs on the safe
 * side, and between requests of the same framing share the two are equal. The
 * share of content is taken as at least MIN_CONTENT_SHARE, which bounds what a
 * provider that does count framing is overestimated by.
 *
 * The second term is delta accounting: the last real count plus the calibrated
 * estimate of what was appended since. It never undercounts a growing history
 * when the clamp at 5 binds. When the provider counted the last request below
 * its estimate (dense code and JSON), the correction cannot go below 1 and the
 * first term would hold the estimate above the provider's own count of what it
 * already saw, so only delta accounting is used: appended content at the
 * correction (new content is not trusted to be as cheap), a shrink credited at
 * the ratio (a removed span may be counted cheaper than its estimate). What it
 * can undercount is bounded by what the removed content's estimate exceeds its
 * real count (docs/design.md, "Calibrating"; calibration.test.ts). `lastEstimate` is always the estimate of the
 * request that was actually sent, so a real count and its estimate refer to the
 * same request. After a compaction the real count is cleared (the pre-compaction
 * count would otherwise pin every estimate above the threshold and loop) but
 * the learned correction is kept as the prior.
 */

import { OPTION_TABLE } from '../config/option-table.js';

export const MIN_CORRECTION = 1;
/**
 * The lowest real/estimate ratio read as the provider's tokenizer counting the same text cheaper
 * (code and JSON: 0.77-0.86 on the recorded runs, docs/design.md "Calibrating"); below it the count is
 * not trusted to cover the request.
 */
export const MIN_TRUSTED_RATIO = 0.5;
export const MAX_CORRECTION = 5;
/** The `defaultCorrection` option's default (from the option table). */
export const DEFAULT_CORRECTION: number = OPTION_TABLE.defaultCorrection.default;

/** What calibration needs to remember between model calls (plain data, persisted in state). */
export interface CalibrationState {
  /** `promptTokenCount` the provider reported for the last request sent. */
  readonly realPromptTokens?: number | undefined;
  /** Heuristic estimate of that same request. */
  readonly lastEstimate?: number | undefined;
  /** Of `lastEstimate`, the estimator's own framing (0 when unknown). */
  readonly lastFraming?: number | undefined;
  /** Correction learned from an earlier pair, kept across compactions. */
  readonly learnedCorrection?: number | undefined;
}

/** The correction factor to apply now, and whether it comes from a real count. */
export function correctionFactor(
  state: CalibrationState,
  defaultCorrection: number = DEFAULT_CORRECTION,
  current?: RequestFraming,
): { factor: number; calibrated: boolean } {
  const { realPromptTokens, lastEstimate, learnedCorrection } = state;
  if (isPositive(realPromptTokens) && isPositive(lastEstimate)) {
    const share = current && contentShare(current.estimate, current.framing);
    return { factor: learnedFactor(realPromptTokens, lastEstimate, state.lastFraming, share), calibrated: true };
  }
  if (isPositive(learnedCorrection)) return { factor: clampCorrection(learnedCorrection), calibrated: true };
  return { factor: clampCorrection(defaultCorrection), calibrated: false };
}

/** Calibrated token count of a request whose heuristic estimate is `estimate`. */
export function calibrate(
  estimate: number,
  state: CalibrationState,
  defaultCorrection: number = DEFAULT_CORRECTION,
  framing?: number,
): number {
  const { factor } = correctionFactor(
    state,
    defaultCorrection,
    framing === undefined ? undefined : { estimate, framing },
  );
  const scaled = estimate * factor;
  const { realPromptTokens, lastEstimate } = state;
  if (!isPositive(realPromptTokens) || !isPositive(lastEstimate)) return Math.ceil(scaled);
  const growth = estimate - lastEstimate;
  const ratio = realPromptTokens / lastEstimate;
  // The provider counts the last request below its estimate, within what a tokenizer difference
  // explains: its count of what it saw is trusted, appended content charged at the factor (at least
  // 1), a shrink credited at the ratio only (continuous at no growth: never less as the estimate
  // grows). A count far below (a provider that leaves cached tokens out, a count paired with
  // another call's estimate) falls to the rule below, which never counts under the estimate.
  if (ratio < 1 && ratio >= MIN_TRUSTED_RATIO)
    return Math.ceil(realPromptTokens + growth * (growth >= 0 ? factor : ratio));
  // A shrink is credited at the minimum factor only, so it can never undercount.
  const fromReal = growth >= 0 ? realPromptTokens + growth * factor : realPromptTokens + growth * MIN_CORRECTION;
  return Math.ceil(Math.max(scaled, fromReal));
}

/** A request's heuristic estimate and the estimator's own framing within it. */
interface RequestFraming {
  readonly estimate: number;
  readonly framing: number;
}

/**
 * The least share of content assumed in an estimate. It covers the framing of a
 * small first request (an instruction, a tool and a short question) and caps at
 * 1 / 0.8 the overestimate of a provider that counts framing when the last
 * request was mostly framing (a chain of tool calls with short arguments and
 * results): within the default buffer of 20%, so a request the plain ratio puts
 * well under the threshold is not cut (docs/design.md, Calibrating).
 */
export const MIN_CONTENT_SHARE = 0.8;

/** The share of an estimate that is not the estimator's framing (at least MIN_CONTENT_SHARE; 1 when unknown). */
export function contentShare(estimate: number, framing: number | undefined): number {
  if (!isPositive(estimate) || !isPositive(framing)) return 1;
  return Math.max(estimate - framing, estimate * MIN_CONTENT_SHARE) / estimate;
}

/**
 * The correction a real count of the last request teaches for a request whose
 * content share is `share` (by default the last one's): the larger of the
 * ratio to the whole estimate and the ratio of content tokens scaled to that
 * share, clamped. Never lower than the ratio to the whole estimate.
 */
export function learnedFactor(
  realPromptTokens: number,
  lastEstimate: number,
  lastFraming: number | undefined,
  share?: number,
): number {
  const whole = realPromptTokens / lastEstimate;
  const lastShare = contentShare(lastEstimate, lastFraming);
  const ofContent = (whole / lastShare) * (share ?? lastShare);
  return clampCorrection(Math.max(whole, ofContent));
}

export function clampCorrection(value: number): number {
  if (!Number.isFinite(value)) return MAX_CORRECTION;
  return Math.min(MAX_CORRECTION, Math.max(MIN_CORRECTION, value));
}

function isPositive(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/**
 * Reads the real prompt size out of a provider's "prompt too long" error, so the next estimate can be calibrated even
 * when no usage is ever reported. Gemini: "The input token count (1234567) exceeds the maximum number of tokens
 * allowed (1048576)."; Vertex AI: "Unable to submit request because the input token count is 1234567 but model only
 * supports up to 1048576."; Anthropic and OpenAI-style messages are recognised too, and so is a message that states
 * only the maximum. `limit` is the provider's maximum, which may become the model's window (usage/learned-window.ts).
 *
 * Numbers are read only from the provider's own statement, at the start of its message (the `message` of a JSON error
 * body, else the whole text): some providers and proxies quote the request after their own words, and a user's
 * message can say anything, "maximum number of tokens allowed (1100)" included. A message that only mentions a
 * too-long prompt elsewhere is still an overflow, with nothing stated.
 */
export function parseOverflowError(message: string): OverflowStatement | undefined {
  const own = providerMessage(message);
  const stated = statementAtStart(own);
  if (stated) return stated;
  const text = message.replace(/\\"/g, '"');
  if (/(context|prompt|input).{0,40}(too long|too large|exceed)|exceeds the maximum number of tokens/i.test(text))
    return {};
  if (OTHER_OVERFLOW_WORDS.test(text)) return {};
  return undefined;
}

/** llama.cpp's, llama-cpp-python's, Groq's, older vLLM's and Mistral's, LM Studio's words (not retried before). */
const OTHER_OVERFLOW_WORDS =
  /exceeds? (?:the )?(?:available )?context (?:size|length|window)|reduce the length of the messages|too large for model with \d+ maximum context length|context length of only \d+ tokens/i;

/**
 * Whether `message` says the request was too long in the provider's own words: a statement the guard reads, or
 * the overflow's words (or another provider's, above) in its message before any quotation mark and near its
 * start ("the prompt is too long"). A text that only mentions a too-long prompt after a quote, or far into it, may be
 * quoting the request or a user's words, and "image too large" is not about tokens: `parseOverflowError` still
 * takes those as overflows stating nothing, but only this kind may bound a session's window by the size sent.
 */
export function overflowInOwnWords(message: string): boolean {
  const own = providerMessage(message);
  if (statementAtStart(own) !== undefined) return true;
  const unquoted = own.slice(0, OWN_WORDS_REACH).split(/["'`“‘]/, 1)[0] ?? '';
  return OWN_OVERFLOW_WORDS.test(unquoted) || OTHER_OVERFLOW_WORDS.test(unquoted);
}

/** How far into a provider's message its own words about an overflow are looked for. */
const OWN_WORDS_REACH = 200;
const OWN_OVERFLOW_WORDS = /\b(?:context|prompt|input)\b[^.]{0,40}\b(?:too long|exceeds?)\b/i;

/**
 * What may precede a statement in a provider's own words: error class names a client or proxy prefixes
 * ("litellm.BadRequestError: ", LiteLLM's "VertexAIException BadRequestError - "), the HTTP status openai-node
 * puts first ("400 ", or "[400 Bad Request] " as Google's older JavaScript SDK writes it; before a LiteLLM proxy's
 * class names too, review 9), Vertex AI's "Unable to
 * submit request because", OpenAI's "This model's" (OpenRouter's "This endpoint's"). None of them can hold
 * text of the request.
 */
const CLASS_NAMES = String.raw`(?:[\w.]{1,80}(?:Error|Exception)(?:\s*[:-]\s*|\s+)){0,4}`;
/** An HTTP status as clients write it before the provider's words: "400 ", "[400 Bad Request] ". */
const STATUS = String.raw`(?:\d{3}\s+|\[\d{3}(?: [A-Za-z ]{1,40})?\]\s*)?`;
const LEAD_IN = String.raw`^\s*${STATUS}${CLASS_NAMES}${STATUS}(?:unable to submit request because\s+)?(?:the\s+|this (?:model|endpoint)'s\s+)?`;
/**
 * A count as providers write it: digits, or digits grouped by thousands with commas ("9,321") or, as localised
 * messages write them, with dots ("9.321": a token count is never a fraction).
 */
const COUNT = String.raw`(\d{1,3}(?:,\d{3})+(?!\d)|\d{1,3}(?:\.\d{3})+(?!\d|\.\d)|\d+)`;
/**
 * What a client puts before a provider's JSON error body: error class names (LiteLLM nests four), then
 * @google/genai's "got status: INVALID_ARGUMENT. ", openai-python's "Error code: 400 - " or a bare status.
 * A body after any other text may be the request's, quoted by a proxy: it is not read as the provider's.
 */
const BODY_PREFIX = new RegExp(
  String.raw`^\s*${CLASS_NAMES}(?:got status: [\w ]{1,40}\.\s*|error code: \d{3}\s*-\s*|\d{3}\s+)?$`,
  'i',
);
const GEMINI = new RegExp(
  `${LEAD_IN}input token count(?: \\(| is |: )${COUNT}\\)? exceeds the maximum number of tokens allowed(?: \\(| is |: )?${COUNT}?`,
  'i',
);
const GEMINI_MAXIMUM = new RegExp(
  `${LEAD_IN}input token count exceeds the maximum number of tokens allowed\\s*(?:\\(|is|:)?\\s*${COUNT}`,
  'i',
);
const VERTEX = new RegExp(
  `${LEAD_IN}input token count is ${COUNT} but (?:the )?model only supports up to ${COUNT}`,
  'i',
);
const ANTHROPIC = new RegExp(`${LEAD_IN}prompt is too long:\\s*${COUNT} tokens\\s*>\\s*${COUNT}`, 'i');
const OPENAI = new RegExp(`${LEAD_IN}maximum context length is ${COUNT} tokens`, 'i');
/** OpenAI's own next sentence: "However, your messages resulted in N tokens", "however you requested N tokens (P in your prompt; ...". */
const OPENAI_SIZE = new RegExp(
  String.raw`^[^\d]{0,40}?(?:resulted in|requested(?: about)?|request has) ${COUNT} (?:input )?tokens(?: \(${COUNT} in (?:your prompt|the messages))?`,
  'i',
);

/** The whole request's size (OpenAI's, vLLM's "you requested N") is what went over when the prompt did not. */
type OverflowStatement = { promptTokens?: number; limit?: number; requestedTokens?: number };

function statementAtStart(text: string): OverflowStatement | undefined {
  const gemini = GEMINI.exec(text);
  if (gemini) return { promptTokens: count(gemini[1]), ...(gemini[2] ? { limit: count(gemini[2]) } : {}) };
  const maximum = GEMINI_MAXIMUM.exec(text);
  if (maximum) return { limit: count(maximum[1]) };
  const vertex = VERTEX.exec(text) ?? ANTHROPIC.exec(text);
  if (vertex) return { promptTokens: count(vertex[1]), limit: count(vertex[2]) };
  const openai = OPENAI.exec(text);
  if (!openai) return undefined;
  // "you requested N tokens (P in your prompt; C for the completion)": N includes the completion.
  const size = OPENAI_SIZE.exec(text.slice(openai[0].length));
  const prompt = size?.[2] ?? size?.[1];
  const requested = size?.[2] ? { requestedTokens: count(size[1]) } : {};
  return { ...(prompt ? { promptTokens: count(prompt) } : {}), ...requested, limit: count(openai[1]) };
}

/** A count matched by COUNT, without its thousands separators. */
function count(digits: string | undefined): number {
  return Number((digits ?? '').replace(/[,.]/g, ''));
}

/**
 * The provider's own message: `error.message` of a JSON error body (also after a client's prefix, BODY_PREFIX, or
 * JSON-encoded twice), else the text.
 */
function providerMessage(message: string, depth = 0): string {
  const body = depth < 2 ? (parseJson(message) ?? prefixedBody(message)) : undefined;
  if (typeof body === 'string') return providerMessage(body, depth + 1);
  const error = isObject(body) ? body['error'] : undefined;
  const inner = isObject(error) ? error['message'] : undefined;
  return typeof inner === 'string' ? providerMessage(inner, depth + 1) : message;
}

/** A JSON body after a client's prefix; none after other text (it may be the request's, quoted). */
function prefixedBody(message: string): unknown {
  const start = message.indexOf('{');
  return start > 0 && BODY_PREFIX.test(message.slice(0, start)) ? parseJson(message.slice(start)) : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
