/**
 * What a provider's "prompt too long" rejection says: whether it is an overflow at all, and the sizes it states
 * (the request's, the maximum, the request with its completion), read only from the provider's own words.
 */
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
// OpenAI's error code, also alone (a client's "400 context_length_exceeded"): its underscores defeat the words' `\b`.
// LiteLLM's class name `ContextWindowExceededError` says so too (review 27).
const OWN_OVERFLOW_WORDS =
  /\b(?:context|prompt|input)\b[^.]{0,40}\b(?:too long|exceed(?:s|ed)?)\b|\bcontext_length_exceeded\b|ContextWindowExceeded/i;

/**
 * What may precede a statement in a provider's own words: error class names a client or proxy prefixes
 * ("litellm.BadRequestError: ", LiteLLM's "VertexAIException BadRequestError - "), the HTTP status openai-node
 * puts first ("400 ", or "[400 Bad Request] " as Google's older JavaScript SDK writes it; before a LiteLLM proxy's
 * class names too, review 9), Vertex AI's "Unable to
 * submit request because", Bedrock's "The model returned the following errors:" before the model's own words,
 * OpenAI's "This model's" (OpenRouter's "This endpoint's"). None of them can hold
 * text of the request.
 */
const CLASS_NAMES = String.raw`(?:[\w.]{1,80}(?:Error|Exception)(?:\s*[:-]\s*|\s+)){0,4}`;
/** An HTTP status as clients write it before the provider's words: "400 ", "[400 Bad Request] ". */
const STATUS = String.raw`(?:\d{3}\s+|\[\d{3}(?: [A-Za-z ]{1,40})?\]\s*)?`;
const LEAD_IN = String.raw`^\s*${STATUS}${CLASS_NAMES}${STATUS}(?:unable to submit request because\s+|the model returned the following errors:\s*)?(?:the\s+|this (?:model|endpoint)'s\s+)?`;
/**
 * A count as providers write it: digits, or digits grouped by thousands with commas ("9,321") or, as localised
 * messages write them, with dots ("9.321": a token count is never a fraction).
 */
const COUNT = String.raw`(\d{1,3}(?:,\d{3})+(?!\d)|\d{1,3}(?:\.\d{3})+(?!\d|\.\d)|\d+)`;
/**
 * What a client puts before a provider's JSON error body: error class names (LiteLLM nests four), then
 * @google/genai's "got status: INVALID_ARGUMENT. ", openai-python's "Error code: 400 - " or a bare status, with its reason phrase ("400 Bad Request ").
 * A body after any other text may be the request's, quoted by a proxy: it is not read as the provider's.
 */
const BODY_PREFIX = new RegExp(
  String.raw`^\s*${STATUS}${CLASS_NAMES}(?:got status: [\w ]{1,40}\.\s*|error code: \d{3}\s*-\s*|\d{3}(?: bad request| payload too large| request entity too large)?\s+)?$`,
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
/** Anthropic's words when the input fits but the input plus `max_tokens` does not: "... limit: A + B > C". */
const ANTHROPIC_WITH_OUTPUT = new RegExp(
  `${LEAD_IN}input length and \`?max_tokens\`? exceed context limit:\\s*${COUNT}\\s*\\+\\s*${COUNT}\\s*>\\s*${COUNT}`,
  'i',
);
const OPENAI = new RegExp(`${LEAD_IN}maximum context length is ${COUNT} tokens`, 'i');
/**
 * OpenAI's words for a model whose input limit is below its context window (GPT-5's 272,000 of 400,000): "Input
 * tokens exceed the configured limit of 272000 tokens. Your messages resulted in 289650 tokens." (the fortieth
 * outside trial: read as stating nothing, every new session was rejected once).
 */
const OPENAI_INPUT_LIMIT = new RegExp(`${LEAD_IN}input tokens exceed the configured limit of ${COUNT} tokens`, 'i');
/** OpenAI's own next sentence: "However, your messages resulted in N tokens", "however you requested N tokens (P in your prompt; ...". */
const OPENAI_SIZE = new RegExp(
  String.raw`^[^\d]{0,40}?(?:resulted in|requested(?: about)?|request has) ${COUNT} (?:input )?tokens(?: \(${COUNT} in (?:your prompt|the messages))?`,
  'i',
);

/** What follows the messages' count when the rest of the prompt is the tools' declarations (OpenAI's Chat Completions). */
const IN_THE_FUNCTIONS = new RegExp(
  String.raw`^[,;]\s*${COUNT} in the (?:functions|tools)(?:,?\s*(?:and\s+)?${COUNT} (?:in|for) the completion)?`,
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
  const withOutput = ANTHROPIC_WITH_OUTPUT.exec(text);
  if (withOutput) {
    const promptTokens = count(withOutput[1]);
    return { promptTokens, requestedTokens: promptTokens + count(withOutput[2]), limit: count(withOutput[3]) };
  }
  const openai = OPENAI.exec(text) ?? OPENAI_INPUT_LIMIT.exec(text);
  if (!openai) return undefined;
  // "you requested N tokens (P in your prompt; C for the completion)": N includes the completion. "resulted in N
  // tokens (M in the messages, F in the functions)": N is the prompt, the tools' declarations included.
  const after = text.slice(openai[0].length);
  const size = OPENAI_SIZE.exec(after);
  const tools = size?.[2] === undefined ? undefined : IN_THE_FUNCTIONS.exec(after.slice(size[0].length));
  // With the functions counted apart, N is the prompt unless a completion follows them (then the prompt is M + F).
  const withCompletion = tools !== undefined && tools !== null && tools[2] !== undefined;
  const stated = !tools ? (size?.[2] ?? size?.[1]) : size?.[1];
  const prompt = withCompletion ? count(size?.[2]) + count(tools[1]) : stated && count(stated);
  const requested = size?.[2] && (!tools || withCompletion) ? { requestedTokens: count(size[1]) } : {};
  return { ...(prompt ? { promptTokens: prompt } : {}), ...requested, limit: count(openai[1]) };
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
  const body = depth < 2 ? bodyOf(message) : undefined;
  if (typeof body === 'string') return providerMessage(body, depth + 1);
  const inner = isObject(body) ? bodyMessage(body) : undefined;
  return typeof inner === 'string' ? providerMessage(inner, depth + 1) : message;
}

/**
 * A body's own words: `error.message` (Google's, OpenAI's, Anthropic's), a string `error` (Ollama-style servers),
 * a top-level `message` (Bedrock's, review 11) or a string `detail` (FastAPI-style proxies).
 */
function bodyMessage(body: Record<string, unknown>): unknown {
  const error = body['error'];
  if (isObject(error)) return error['message'];
  if (typeof error === 'string') return error;
  return typeof body['message'] === 'string' ? body['message'] : body['detail'];
}

/** The JSON body `message` is, or that follows a client's prefix in it; `undefined` when there is none. */
function bodyOf(message: string): unknown {
  return parseJson(message) ?? prefixedBody(message);
}

/**
 * A JSON body after a client's prefix, up to its closing brace (LiteLLM writes ". Received Model Group=…" after
 * it); none after other text (it may be the request's, quoted).
 */
function prefixedBody(message: string): unknown {
  const start = message.indexOf('{');
  if (start <= 0 || !BODY_PREFIX.test(message.slice(0, start))) return undefined;
  return parseJson(message.slice(start)) ?? parseJson(message.slice(start, objectEnd(message, start)));
}

/** Where the JSON object starting at `start` ends (past its closing brace), strings skipped; the text's end if never. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return at + 1;
  }
  return text.length;
}

/**
 * Whether an error's own message says the request was too long: in the provider's own words
 * (`overflowInOwnWords`), or, when the message carries no JSON body, in any words before its first quotation
 * mark. A body's other fields and quoted text may be the request's or the user's: a 422 that echoes its
 * `input`, a validation error quoting a value (review 27: each was retried as an overflow, old results
 * masked for nothing).
 */
export function overflowInMessage(message: string): boolean {
  if (overflowInOwnWords(message)) return true;
  if (bodyOf(message) !== undefined) return false;
  return parseOverflowError(message.split(/["'`“‘]/, 1)[0] ?? '') !== undefined;
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
