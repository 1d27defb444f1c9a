/**
 * After a model call: the compaction record and the call's own record ride on the response event,
 * and the provider's real prompt count calibrates the agent's usage record (and bills the call).
 */
import type { Context, LlmResponse } from '@google/adk';
import { billUsage, type CallBill } from '../../cost/bill-usage.js';
import type { ModelPrice } from '../../cost/price-table.js';
import { acceptedByCall, recordAccepted } from '../../usage/learned-window.js';
import { userOfContext } from '../runtime/session-scope.js';
import { countBeyondWindow, recordReportedUsage } from '../../usage/provider-feedback.js';
import { PLATEAU_REPORTS } from '../../usage/count-plateau.js';
import { readReportedUsage, type ReportedUsage } from '../../usage/reported-usage.js';
import type { WarnOnce } from '../runtime/warn-once.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { overflowInMessage } from '../../estimate/overflow-error.js';
import { takeCallRecords } from './call-records.js';
import type { UsageRecord } from '../../usage/stored-usage.js';
import { updateUsage } from '../runtime/state-writer.js';
import { recordUsageTelemetry } from '../../telemetry/bill-metrics.js';
import type { CompactionReporter } from './compaction-reporter.js';
import { modelNameOf } from './model-name.js';
import { agentModelPrice } from '../runtime/listed-routed-name.js';
import type { ModelWindowResolver } from '../runtime/model-window-resolver.js';
import type { PendingCalls } from './pending-calls.js';
import type { CallUsage } from './call-usage.js';
import type { LeftRequests } from './left-requests.js';
import { recordAgentAdditions } from '../../usage/agent-additions.js';
import type { GuardLogger } from '../../options.js';
import { wasLearned } from './learned-rejections.js';
import { learnFromRejection } from './model-error-event.js';

/**
 * Responses already recorded. ADK runs an agent's own after-model callbacks after the plugins', so
 * where the plugin and `attachTo` both serve an agent each response arrives twice: count it once.
 */
const recorded = new WeakSet<LlmResponse>();

/** Where the records of the call wait for its response, and the accepted sizes by model. */
interface ResponseRecorders {
  readonly reporter: CompactionReporter;
  readonly calls: PendingCalls;
  readonly windows: ModelWindowResolver;
  readonly left: LeftRequests;
  readonly logger: GuardLogger;
  readonly usage: CallUsage;
  /** The guard's warnings logged once per cause. */
  readonly warnings: WarnOnce;
}

export function recordResponse(
  context: Context,
  response: LlmResponse,
  priceOf: (model: string | undefined) => ModelPrice | undefined,
  recorders: ResponseRecorders,
  onUnpriced: (model: string) => void = () => undefined,
): void {
  if (recorded.has(response)) return;
  recorded.add(response);
  const model = modelNameOf(context, response);
  const reported = usageOf(context, response, model, recorders.warnings);
  // Partial (streamed) chunks are not stored: only a response that is not partial carries the records and is billed
  // (a streamed call may have several: billed once), up to the largest usage its partial chunks reported too.
  const price = agentModelPrice(context.invocationContext.agent, priceOf);
  if (response.partial && reported) recorders.usage.notePartial(context, reported);
  const bill = response.partial
    ? undefined
    : billResponse(context, reported, model, price, recorders.usage, onUnpriced);
  // A failed interaction (Interactions API) states its overflow in an answer: learned as a rejection.
  const overflow = !response.partial && learnFromFailedAnswer(context, response, model, recorders);
  if (!response.partial) attachRecords(context, response, recorders, bill, overflow);
  // Before the count is paired with the estimate: the request the model got is the one the agent's callbacks left.
  const change = recorders.left.takeChange(context);
  recordAnswer(context, response, reported, model, bill, recorders, change);
  if (bill) recordUsageTelemetry(context.agentName, model, bill);
}

/** The response's usage read as Gemini reports it (usage/reported-usage.ts), said once per model when it was not. */
function usageOf(
  context: Context,
  response: LlmResponse,
  model: string | undefined,
  warnings: WarnOnce,
): ReportedUsage | undefined {
  if (!response.usageMetadata) return undefined;
  const read = readReportedUsage(response.usageMetadata);
  if (read.cachedOutsidePrompt)
    warnings.warn(
      `cached-outside-prompt\u0000${model ?? ''}`,
      `${LOG_PREFIX} agent '${context.agentName}': the usage reported for '${model ?? 'the model'}' has more cached tokens (cachedContentTokenCount) than prompt tokens (promptTokenCount); read as a prompt count that leaves the cached tokens out, and added up. Report promptTokenCount as every prompt token, cached ones included (for Anthropic: input_tokens + cache_read_input_tokens + cache_creation_input_tokens; README, "Other providers' models").`,
    );
  return read.usage;
}

function billResponse(
  context: Context,
  reported: ReportedUsage | undefined,
  model: string | undefined,
  priceOf: (model: string | undefined) => ModelPrice | undefined,
  usage: CallUsage,
  onUnpriced: (model: string) => void,
): CallBill | undefined {
  const price = priceOf(model);
  const bill = usage.billOf(context, reported, price);
  if (bill && price === undefined) onUnpriced(model ?? 'unknown');
  return bill;
}

/** The records travel on the model response event: ADK persists `customMetadata` verbatim. */
function attachRecords(
  context: Context,
  response: LlmResponse,
  recorders: ResponseRecorders,
  bill: CallBill | undefined,
  rejected: boolean,
): void {
  const records = takeCallRecords(context, recorders, bill, rejected);
  if (records) response.customMetadata = { ...(response.customMetadata ?? {}), ...records };
}

/**
 * An answer with `errorCode` whose message states an overflow (a failed interaction of Gemini's
 * Interactions API): learned as a thrown rejection is (a stated window, a forced compaction, which
 * in Interactions mode also starts a fresh chain), unless the retry already learned from it.
 */
function learnFromFailedAnswer(
  context: Context,
  response: LlmResponse,
  model: string | undefined,
  recorders: ResponseRecorders,
): boolean {
  // An answer without an error code states nothing: not probed (the probe's patterns cost more than the call's other records).
  if (!response.errorCode) return false;
  const message = response.errorMessage ?? '';
  if (!overflowInMessage(message)) return false;
  if (!wasLearned(response)) learnFromRejection(context, undefined, message, recorders, model);
  return true;
}

/**
 * The accepted size bounds any window learned later, the real count calibrates, and the bill adds to the
 * usage record (kept for sessions read without events).
 */
function recordAnswer(
  context: Context,
  response: LlmResponse,
  reported: ReportedUsage | undefined,
  model: string | undefined,
  bill: CallBill | undefined,
  { windows, warnings }: Pick<ResponseRecorders, 'windows' | 'warnings'>,
  change: number | undefined,
): void {
  let notice: CountNotice | undefined;
  updateUsage(context.state, context.agentName, (record) => {
    const stored = change === undefined ? record : recordAgentAdditions(record, change);
    // An answer, not an error response: the model accepted the request.
    const usage = response.errorCode ? stored : acceptRequest(stored, reported, model, windows, userOfContext(context));
    notice = response.errorCode ? undefined : unbelievedCount(context.agentName, model, usage, reported);
    const next = reported ? recordReportedUsage(usage, reported, model) : usage;
    const billed = billUsage(next, bill);
    notice ??=
      countPlateau(context.agentName, model, next) ?? unreportedUsage(context.agentName, model, billed, response);
    return billed;
  });
  if (notice) warnings.warn(notice.cause, notice.message);
}

interface CountNotice {
  readonly cause: string;
  readonly message: string;
}

/** What to say once when the count of an accepted request is not calibrated from (usage/provider-feedback.ts). */
function unbelievedCount(
  agentName: string,
  model: string | undefined,
  usage: UsageRecord,
  reported: ReportedUsage | undefined,
): CountNotice | undefined {
  const beyond = countBeyondWindow(usage, reported);
  if (beyond === undefined) return undefined;
  const known =
    usage.windowSource === 'option' ? 'set in the options' : `the guard knows for '${model ?? 'the model'}'`;
  return {
    cause: `count-beyond-window\u0000${model ?? ''}\u0000${agentName}`,
    message: `${LOG_PREFIX} agent '${agentName}': the provider reported ${beyond} prompt tokens for a request it accepted, over twice the window of ${usage.window} tokens ${known} and over any correction of the estimate; not calibrated from (billed as reported). Check the usage your model or proxy reports, and the window (contextWindow, modelWindows).`,
  };
}

/** What to say once when the provider reports the same count on requests that grew (usage/count-plateau.ts). */
function countPlateau(agentName: string, model: string | undefined, usage: UsageRecord): CountNotice | undefined {
  if (usage.samePromptReports !== PLATEAU_REPORTS) return undefined;
  const named = model ?? 'the model';
  return {
    cause: `count-plateau\u0000${model ?? ''}\u0000${agentName}`,
    message: `${LOG_PREFIX} agent '${agentName}': the provider's prompt count has not grown past ${usage.realPromptTokens} tokens on ${PLATEAU_REPORTS} requests the guard estimates over a tenth larger than the one it counted so (the last at ${usage.sentEstimate} tokens, against ${usage.lastEstimate}): '${named}' may be cutting the prompt without refusing it (Ollama keeps the last num_ctx tokens), so the model answers without part of its context, or it reports only part of the prompt. Not calibrated from. Set contextWindow (or modelWindows) to the model's real window.`,
  };
}

/** Calls of an agent, in a session, none of which reported usage, after which the shell says so. */
const UNREPORTED_CALLS = 3;

/**
 * What to say once when none of an agent's first calls in a session reported usage: its calls are in no token or
 * cost figure, and the guard compacts on its estimate alone (the forty-fifth outside trial: a bill that looked whole
 * held the summarizer's calls only, with nothing said).
 */
function unreportedUsage(
  agentName: string,
  model: string | undefined,
  usage: UsageRecord,
  response: LlmResponse,
): CountNotice | undefined {
  if (response.partial || response.errorCode || usage.modelCalls < UNREPORTED_CALLS) return undefined;
  if ((usage.billedPromptTokens ?? 0) > 0) return undefined;
  const named = model ?? 'the model';
  return {
    cause: `unreported-usage\u0000${model ?? ''}\u0000${agentName}`,
    message: `${LOG_PREFIX} agent '${agentName}': '${named}' reported no usage (usageMetadata.promptTokenCount) on its first ${usage.modelCalls} calls of this session: status()'s token and cost figures and the telemetry leave them out, and the guard compacts on its estimate alone. ADK's streamed Interactions API calls report none; a BaseLlm of one's own should set usageMetadata on its final response.`,
  };
}

/** The session's and the process's largest accepted request of `model`, with this one. */
function acceptRequest(
  usage: UsageRecord,
  reported: ReportedUsage | undefined,
  model: string | undefined,
  windows: ModelWindowResolver,
  user: string,
): UsageRecord {
  const real = reported?.promptTokenCount;
  windows.accept(model, acceptedByCall(usage, real), user);
  return recordAccepted(usage, model, real);
}
