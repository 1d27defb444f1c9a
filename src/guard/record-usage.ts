/**
 * How provider feedback updates the usage record: real counts from a
 * response's `usageMetadata`, and the size stated in a "prompt too long"
 * rejection. Pure functions; the plugin persists the result.
 */
import { clampCorrection, parseOverflowError } from '../estimate/calibration.js';
import { plausibleTokenCount, type UsageRecord } from '../state/guard-state.js';
import { recordStatedWindow } from './learned-window.js';

export interface ReportedUsage {
  readonly promptTokenCount?: unknown;
  readonly candidatesTokenCount?: unknown;
}

function plausibleCount(value: unknown): number | undefined {
  return plausibleTokenCount(value, 1);
}

/**
 * Records a response's real prompt count against the estimate of the request
 * it answered. Missing, partial or nonsensical values leave the record as is.
 */
export function recordReportedUsage(usage: UsageRecord, reported: ReportedUsage | undefined): UsageRecord {
  const prompt = plausibleCount(reported?.promptTokenCount);
  const output = plausibleCount(reported?.candidatesTokenCount);
  if (prompt === undefined || usage.sentEstimate === undefined) {
    return output === undefined ? usage : { ...usage, outputTokens: output };
  }
  return {
    ...usage,
    realPromptTokens: prompt,
    lastEstimate: usage.sentEstimate,
    lastFraming: usage.sentFraming,
    learnedCorrection: clampCorrection(prompt / usage.sentEstimate),
    ...(output === undefined ? {} : { outputTokens: output }),
  };
}

/** True when a model error is a "prompt too long" rejection. */
export function isOverflowError(message: string): boolean {
  return parseOverflowError(message) !== undefined;
}

/**
 * Records a "prompt too long" rejection: the next call compacts whatever the
 * estimate says; when the message states the real size (Gemini's does), that
 * size calibrates the next estimate even if usage is never reported; when it
 * states the maximum, that maximum becomes `model`'s window.
 */
export function recordRejection(usage: UsageRecord, message: string, model?: string): UsageRecord {
  const parsed = parseOverflowError(message);
  if (!parsed) return usage;
  const real = plausibleCount(parsed.promptTokens);
  const calibrated =
    real !== undefined && usage.sentEstimate !== undefined
      ? {
          realPromptTokens: real,
          lastEstimate: usage.sentEstimate,
          lastFraming: usage.sentFraming,
          learnedCorrection: clampCorrection(real / usage.sentEstimate),
        }
      : {};
  // A maximum is the window only when the message says the request went over it.
  const overLimit =
    parsed.promptTokens === undefined || parsed.limit === undefined || parsed.promptTokens > parsed.limit;
  return recordStatedWindow(
    { ...usage, ...calibrated, rejectedCalls: usage.rejectedCalls + 1, forceCompaction: true },
    model,
    overLimit ? parsed.limit : undefined,
  );
}
