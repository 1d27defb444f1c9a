/**
 * JSON text read as its values by a scan, for the recall search (recall/search-text.ts): each string token unescaped
 * on a line of its own, numbers and literals as they are written, punctuation dropped. Never parsed: a parse and a new
 * rendering rounded ids over 2^53 and wrote 12.50 as 12.5 (review 42), and cost a whole parse of every such string on
 * every search. A string token that holds JSON itself is read the same way, to a bounded depth. Text that is not
 * JSON comes out with its quotes and brackets dropped, its words kept.
 */

/** Nesting of JSON inside JSON strings read as values. */
const MAX_NESTING = 4;
const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  r: '\n',
  t: '\t',
  b: ' ',
  f: ' ',
  '"': '"',
  '\\': '\\',
  '/': '/',
};

/** Whether `text` may be JSON text of an object or array. */
export function looksLikeJson(text: string): boolean {
  const start = text.trimStart()[0];
  const end = text.trimEnd().at(-1);
  return (start === '{' && end === '}') || (start === '[' && end === ']');
}

/** `text`'s values as lines, at most about `limit` characters. */
export function jsonTextValues(text: string, limit: number, nesting = 0): string {
  const out: string[] = [];
  let left = limit;
  let at = 0;
  while (at < text.length && left > 0) {
    const quote = text.indexOf('"', at);
    const plain = scalars(text.slice(at, quote < 0 ? text.length : quote));
    if (plain.length > 0) {
      out.push(plain);
      left -= plain.length + 1;
    }
    if (quote < 0) break;
    const { value, end } = stringToken(text, quote + 1);
    const read = nesting < MAX_NESTING && looksLikeJson(value) ? jsonTextValues(value, left, nesting + 1) : value;
    if (read.length > 0) {
      out.push(read.length > left ? read.slice(0, Math.max(0, left)) : read);
      left -= read.length + 1;
    }
    at = end;
  }
  return out.join('\n');
}

/** What stands between string tokens: numbers and literals, punctuation dropped. */
function scalars(between: string): string {
  return between.replace(/[{}[\],:\s]+/g, ' ').trim();
}

/** The string token that starts after its opening quote at `from`: its value unescaped, and where it ends. */
function stringToken(text: string, from: number): { value: string; end: number } {
  let value = '';
  let at = from;
  for (;;) {
    const quote = text.indexOf('"', at);
    const escape = text.indexOf('\\', at);
    if (escape >= 0 && (quote < 0 || escape < quote)) {
      value += text.slice(at, escape);
      const code = text[escape + 1];
      if (code === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(escape + 2, escape + 6))) {
        value += String.fromCharCode(Number.parseInt(text.slice(escape + 2, escape + 6), 16));
        at = escape + 6;
      } else {
        value += code === undefined ? '' : (ESCAPES[code] ?? code);
        at = escape + 2;
      }
      continue;
    }
    if (quote < 0) return { value: value + text.slice(at), end: text.length };
    return { value: value + text.slice(at, quote), end: quote + 1 };
  }
}
