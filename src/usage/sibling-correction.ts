/**
 * An agent's first call in a session where another agent already learned the correction of the same model (a
 * sub-agent after a transfer, the next agent of a `SequentialAgent`, an `AgentTool` child whose session holds its
 * parent's state) starts from that correction, not from the default guess: at the default, its history was measured
 * at 1.5x and its threshold capped for want of a count, and a summary was made and discarded (the seventh outside
 * trial). Its first message is still held on the estimate (pipeline/fit-request.ts `messageFactor`). The correction is the
 * provider's tokenizer against the estimator's, which the model sets, not the agent. Read from the session's own
 * state, so it holds across replicas and never crosses sessions. Pure functions over plain data.
 */
import { normalizeModelName } from '../estimate/model-registry.js';
import type { UsageRecord } from './stored-usage.js';
import { isFirstCall } from './first-call.js';

/** The correction another agent of the session learned for the model, and which agent learned it. */
interface SiblingCorrection {
  readonly correction: number;
  readonly agentName: string;
  readonly model: string;
}

/**
 * Whether `usage` is of an agent's first call in the session with nothing of its own to calibrate by: no call
 * counted, not a retry (a rejection teaches its own), no learned correction and no real count.
 */
export function startsUncalibrated(usage: UsageRecord): boolean {
  return isFirstCall(usage) && usage.learnedCorrection === undefined && usage.realPromptTokens === undefined;
}

/**
 * The largest correction another agent learned for `model` in the session (the one that errs high, as the default
 * does), when `usage` has none of its own; `others` are the other agents' usage records.
 */
export function siblingCorrection(
  usage: UsageRecord,
  model: string | undefined,
  others: Iterable<readonly [string, UsageRecord]>,
): SiblingCorrection | undefined {
  if (!model || !startsUncalibrated(usage)) return undefined;
  const name = normalizeModelName(model);
  let found: SiblingCorrection | undefined;
  for (const [agentName, other] of others) {
    const correction = other.learnedCorrection;
    if (correction === undefined || other.correctionModel !== name) continue;
    if (!found || correction > found.correction) found = { correction, agentName, model: name };
  }
  return found;
}

/** `usage` starting from `found`: calibrated by it as by a correction of its own, kept after the call. */
export function withSiblingCorrection(usage: UsageRecord, found: SiblingCorrection): UsageRecord {
  return { ...usage, learnedCorrection: found.correction, correctionModel: found.model };
}
