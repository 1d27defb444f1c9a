/**
 * A provider's usage report read as Gemini writes it: `promptTokenCount` includes `cachedContentTokenCount`. A
 * custom `BaseLlm` that maps Anthropic's `usage` field by field (`input_tokens` to `promptTokenCount`,
 * `cache_read_input_tokens` to `cachedContentTokenCount`) reports a prompt that leaves the cache reads out, so the
 * cached count exceeds the prompt on every call that reads the cache (the fortieth outside trial: 5k reported for
 * 195k sent; the learned correction fell to 1 and requests went over the window, the bill 15-26 times too low). No
 * report of Gemini's convention can have more cached than prompt tokens: such a report is read as the other one.
 */
import { plausibleTokenCount } from '../state/codec.js';

/** The fields of `usageMetadata` the guard reads (typed as ADK types them; a custom model may send anything). */
export interface ReportedUsage {
  readonly promptTokenCount?: number | undefined;
  readonly cachedContentTokenCount?: number | undefined;
  readonly candidatesTokenCount?: number | undefined;
  readonly thoughtsTokenCount?: number | undefined;
}

/** A report as read, and whether its prompt count was taken to leave the cached tokens out. */
interface ReadUsage {
  readonly usage: ReportedUsage;
  readonly cachedOutsidePrompt: boolean;
}

/** `reported` with a prompt that leaves its cached tokens out read as their sum; anything else as it is. */
export function readReportedUsage(reported: ReportedUsage): ReadUsage {
  const prompt = plausibleTokenCount(reported.promptTokenCount, 0);
  const cached = plausibleTokenCount(reported.cachedContentTokenCount, 0);
  if (prompt === undefined || cached === undefined || cached <= prompt)
    return { usage: reported, cachedOutsidePrompt: false };
  return { usage: { ...reported, promptTokenCount: prompt + cached }, cachedOutsidePrompt: true };
}
