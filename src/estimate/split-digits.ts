/**
 * Digits as Gemini counts them. `o200k_base` takes a run of digits three at a time (a run of n
 * digits is ⌈n/3⌉ tokens); Gemini's tokenizer, whose published sibling is Gemma's, and those of most
 * open models (Llama 2, Mistral, Qwen) split digits, one token each. Numbers are common in what
 * agents read (line numbers, ids, timestamps, prices, logs), so a tool result of numbers counted by
 * o200k's rule came to a Gemini model at up to 2.7 times its estimate, too sudden for the learned
 * correction (docs/design.md, "Digits, one token each"). SentencePiece's `split_digits` splits every
 * Unicode decimal digit, fullwidth, Devanagari and Arabic-Indic ones too.
 */

const ZERO = 0x30;
const NINE = 0x39;

/** Tokens a digit-splitting tokenizer counts beyond o200k's in `text`'s runs of ASCII digits (⌈n/3⌉ in o200k). */
export function tokensBeyondDigitGroups(text: string): number {
  let extra = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= ZERO && code <= NINE) {
      run++;
    } else if (run > 0) {
      extra += run - Math.ceil(run / 3);
      run = 0;
    }
  }
  return run > 0 ? extra + run - Math.ceil(run / 3) : extra;
}

/** Runs of decimal digits of other scripts than ASCII's (fullwidth, Devanagari, Bengali, Arabic-Indic). */
const OTHER_DIGITS = /[^\P{Nd}0-9]+/gu;

/**
 * Tokens a digit-splitting tokenizer counts beyond o200k's in `text`'s runs of other scripts' decimal digits:
 * one a digit where `countRun` (o200k) counts fewer. o200k splits digits from the rest before it merges, so a
 * run counts alone as it does in the text (the fifty-second outside trial: 1.10 times the estimate on Devanagari
 * and fullwidth numbers).
 */
export function tokensBeyondOtherDigits(text: string, countRun: (run: string) => number): number {
  let extra = 0;
  for (const [run] of text.matchAll(OTHER_DIGITS)) extra += Math.max(0, [...run].length - countRun(run));
  return extra;
}
