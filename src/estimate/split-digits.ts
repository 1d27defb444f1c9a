/**
 * Digits as Gemini counts them. `o200k_base` takes a run of digits three at a time (a run of n
 * digits is ⌈n/3⌉ tokens); Gemini's tokenizer, whose published sibling is Gemma's, and those of most
 * open models (Llama 2, Mistral, Qwen) split digits, one token each. Numbers are common in what
 * agents read (line numbers, ids, timestamps, prices, logs), so a tool result of numbers counted by
 * o200k's rule came to a Gemini model at up to 2.7 times its estimate, too sudden for the learned
 * correction (docs/design.md, "Digits, one token each").
 */

const ZERO = 0x30;
const NINE = 0x39;

/** Tokens a digit-splitting tokenizer counts beyond o200k's in `text`'s runs of ASCII digits. */
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
