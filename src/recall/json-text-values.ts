/**
 * JSON text read as its values, for the recall search (recall/search-text.ts): each string unescaped on a line of its
 * own, numbers and literals as they are written, punctuation dropped. A scan in one pass, never a parse and a new
 * rendering: that rounded ids over 2^53 and wrote 12.50 as 12.5 (review 42). Strict: text that is not JSON (a log
 * line in brackets, a lone quote) is `undefined`, and is read as it is, never rewritten (review 43). A string that
 * is JSON text itself (an MCP tool's text content) is read the same way, to a bounded depth.
 */

/** Nesting of JSON text inside JSON strings read as values. */
const MAX_NESTING = 8;
const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: ' ',
  f: ' ',
  '"': '"',
  '\\': '\\',
  '/': '/',
};
/** A JSON number or literal, at the scan's position. */
const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/**
 * Whether `text` may be JSON text of an object or array (the scan decides): it opens and closes with braces or
 * brackets, or, the head of a longer text (`partial`), opens with one.
 */
export function looksLikeJson(text: string, partial = false): boolean {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return false;
  const end = text.trimEnd().at(-1);
  return partial || end === (start === '{' ? '}' : ']');
}

/** How a text is read: its depth inside other JSON text, and whether it may end mid-way (a head cut off). */
interface ReadAs {
  readonly nesting?: number;
  /** The text is the head of a longer one: a token or number it ends inside is read as far as it goes. */
  readonly partial?: boolean;
  /** The text starts in the middle of a longer one (a tail): its first token may follow a value or not. */
  readonly midway?: boolean;
}

/** What may come next: a value (after `[`, `{`, `,` or `:`), what follows one (`,` `:` or a close), or either. */
type Order = 'value' | 'after' | 'any';

/**
 * The order after a token of JSON text that starts with `code`; undefined when it cannot stand there ("[::1]:8080" and
 * '["a" "b"]' are not JSON, review 44). A close may come anywhere (an empty `[]`, or a trailing comma, harmless here).
 */
function nextOrder(order: Order, code: number): Order | undefined {
  if (code === 0x7d || code === 0x5d) return 'after';
  if (code === 0x2c || code === 0x3a) return order === 'value' ? undefined : 'value';
  if (code === 0x7b || code === 0x5b) return order === 'after' ? undefined : 'value';
  return order === 'after' ? undefined : 'after';
}

/** `text`'s values as lines, or `undefined` when it is not JSON text. */
export function jsonTextValues(text: string, readAs: ReadAs = {}): string | undefined {
  const nesting = readAs.nesting ?? 0;
  const partial = readAs.partial === true;
  const out: string[] = [];
  const scan = new StringScan(text, partial);
  const length = text.length;
  let order: Order | undefined = readAs.midway === true ? 'any' : 'value';
  let at = 0;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (!isSpace(code) && (order = nextOrder(order, code)) === undefined) return undefined;
    if (code === 0x22) {
      const token = scan.token(at + 1);
      if (token === undefined) return undefined;
      const inner =
        nesting < MAX_NESTING && looksLikeJson(token.value, !token.closed)
          ? jsonTextValues(token.value, { nesting: nesting + 1, partial: !token.closed })
          : undefined;
      out.push(inner ?? token.value);
      at = token.end;
    } else if (isStructural(code)) {
      at++;
    } else {
      // The head of a longer text may end inside a number or a literal.
      if (partial && length - at <= 24 && /^[-+.\w]*$/.test(text.slice(at))) {
        out.push(text.slice(at));
        break;
      }
      SCALAR.lastIndex = at;
      const scalar = SCALAR.exec(text);
      // A number runs to a delimiter: "00123", "2024-01-05" and "12:00:01" are not JSON (review 44).
      if (scalar !== null && !endsScalar(text, SCALAR.lastIndex)) return undefined;
      if (scalar === null) return undefined;
      out.push(scalar[0]);
      at = SCALAR.lastIndex;
    }
  }
  return out.join('\n');
}

/** Whether a number or literal may end before `at`: the text's end, a quote, or structure. */
function endsScalar(text: string, at: number): boolean {
  if (at >= text.length) return true;
  const code = text.charCodeAt(at);
  return code === 0x22 || isStructural(code);
}

/**
 * The values of `tail`, the end of a JSON text cut off anywhere before it (what the recall tool's readback keeps of a
 * long result), or `undefined`. The text's end stands outside any string, so a quote after an even run of
 * backslashes opens or closes one: counted from the end, they say whether the tail starts inside a string; that
 * string's rest is read to its quote, and what follows as JSON (review 44: read as written, a failure at the end
 * of a long test run was a word inside another again).
 */
export function jsonTailValues(tail: string, nesting = 0): string | undefined {
  const quotes = realQuotes(tail);
  if (quotes.length % 2 === 0) {
    const from = tail.search(/["{}[\],:]/);
    return from < 0 ? undefined : jsonTextValues(tail.slice(from), { nesting, midway: true });
  }
  const close = quotes[0] ?? 0;
  const first = new StringScan(`${tail.slice(0, close)}"`, false).token(0)?.value ?? tail.slice(0, close);
  const rest = jsonTextValues(tail.slice(close + 1), { nesting, midway: true });
  if (rest === undefined) return undefined;
  // The rest of a string that held JSON text (an MCP tool's text content) is that text's end.
  const inner = nesting < MAX_NESTING && /[}\]]\s*$/.test(first) ? jsonTailValues(first, nesting + 1) : undefined;
  return `${inner ?? first}\n${rest}`;
}

/** Positions of the quotes in `text` that are no escaped ones (an even run of backslashes before each). */
function realQuotes(text: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf('"'); at >= 0; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) found.push(at);
  }
  return found;
}

/** JSON's whitespace. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** `{ } [ ] , :` and JSON's whitespace. */
function isStructural(code: number): boolean {
  return (
    code === 0x7b ||
    code === 0x7d ||
    code === 0x5b ||
    code === 0x5d ||
    code === 0x2c ||
    code === 0x3a ||
    code === 0x20 ||
    code === 0x0a ||
    code === 0x0d ||
    code === 0x09
  );
}

/**
 * String tokens of one text, read in one pass: the next quote and the next backslash are looked for again only once
 * the scan has passed them (looked for from every escape, a 4 MB log of line breaks took a minute: review 43).
 */
class StringScan {
  private nextQuote = -1;
  private nextBackslash = -1;
  constructor(
    private readonly text: string,
    /** A token the text ends inside is read as far as it goes (the head of a longer text). */
    private readonly partial: boolean,
  ) {}

  /**
   * The string token whose value starts at `from` (after its quote): unescaped, where it ends, and whether its quote
   * closed it; undefined when it is not closed (unless partial) or holds an escape JSON has not.
   */
  token(from: number): { value: string; end: number; closed: boolean } | undefined {
    const { text } = this;
    let value = '';
    let at = from;
    for (;;) {
      const quote = this.quoteFrom(at);
      const backslash = this.backslashFrom(at);
      if (quote < 0 && backslash < 0)
        return this.partial ? { value: value + text.slice(at), end: text.length, closed: false } : undefined;
      if (backslash < 0 || (quote >= 0 && backslash > quote))
        return { value: value + text.slice(at, quote), end: quote + 1, closed: true };
      value += text.slice(at, backslash);
      const escape = text[backslash + 1];
      // The head of a longer text may end inside an escape.
      if (this.partial && backslash + (escape === 'u' ? 6 : 2) > text.length)
        return { value, end: text.length, closed: false };
      if (escape === 'u') {
        const hex = text.slice(backslash + 2, backslash + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
        value += String.fromCharCode(Number.parseInt(hex, 16));
        at = backslash + 6;
      } else {
        const plain = escape === undefined ? undefined : ESCAPES[escape];
        if (plain === undefined) return undefined;
        value += plain;
        at = backslash + 2;
      }
    }
  }

  private quoteFrom(at: number): number {
    if (this.nextQuote !== -2 && this.nextQuote < at) this.nextQuote = this.positionOf('"', at);
    return this.nextQuote === -2 ? -1 : this.nextQuote;
  }

  private backslashFrom(at: number): number {
    if (this.nextBackslash !== -2 && this.nextBackslash < at) this.nextBackslash = this.positionOf('\\', at);
    return this.nextBackslash === -2 ? -1 : this.nextBackslash;
  }

  /** Where `char` next stands from `at`; -2 when nowhere (then never looked for again). */
  private positionOf(char: string, at: number): number {
    const found = this.text.indexOf(char, at);
    return found < 0 ? -2 : found;
  }
}
