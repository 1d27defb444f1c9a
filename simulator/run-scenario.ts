/**
 * Runs one scenario under one strategy through the real ADK stack:
 * `Runner` + `LlmAgent`s + `InMemorySessionService` + real `FunctionTool`s,
 * the strict scripted model, and (for ContextGuard) the plugin under test
 * between the two observers. Returns the metrics and every violation.
 */
import {
  DatabaseSessionService,
  InMemoryArtifactService,
  InMemorySessionService,
  isCompactedEvent,
  Runner,
  setLogger,
  type BasePlugin,
  type BaseSessionService,
  type Event,
  type Session,
} from '@google/adk';
import { ContextGuard, type Tokenizer } from '../src/index.js';
import { cacheTermsFor, computeBudget, decodeUsageRecord, stateKeysFor } from '../src/internal.js';
import {
  CapturingLogger,
  ScriptedLlm,
  ScriptedSummarizer,
  ScriptedSummarizerLlm,
  type SummarizerCall,
} from '../src/testing/index.js';
import type { SummaryCallRecord } from './call-record.js';
import { summaryOutputTokens } from './summary-requests.js';
import { answeringSummaries, summaryRequestKind } from '../src/testing/index.js';
import { buildAgents } from './build-agents.js';
import { budgetLineFacts } from './budget-line-work.js';
import { ObservationBook, PreObserver } from './call-observer.js';
import { expectationViolations } from './expectations.js';
import { ratioGroundTruth, tokenizerGroundTruth } from './ground-truth.js';
import { ObservedModel } from './observed-model.js';
import { summaryWaits } from './summary-waits.js';
import { describeRatio, ratioAt } from './ratio-schedule.js';
import { REFERENCE_PRICED_MODEL, scenarioCost } from './scenario-cost.js';
import type { ScenarioResult } from './scenario-result.js';
import { scenarioScript } from './scenario-script.js';
import type { ScenarioSpec, UsageSpec } from './scenario-types.js';
import { SimulationClock } from './simulation-clock.js';
import { toolWorkFacts, workTools, type ToolWorkFacts } from './tool-work.js';
import type { StrategySpec } from './strategies.js';
import { planTurn, userContent } from './turn-plan.js';

const APP_NAME = 'adk-context-guard-simulator';
const USER_ID = 'sim-user';
/** Violations kept per result; the rest are counted. */
const MAX_LISTED_VIOLATIONS = 25;
/** Output tokens the scripted model reports for every answer (billed the same for every strategy). */
const MODEL_OUTPUT_TOKENS = 50;

/** Where sessions live: ADK's in-memory service, or its DatabaseSessionService on an in-memory SQLite database. */
export type SessionStore = 'memory' | 'sqlite';

export interface RunScenarioOptions {
  /** A tokenizer for the `tokenizer` ground truth; absent: the `ratio` ground truth. */
  readonly tokenizer?: Tokenizer | undefined;
  /** @default 'memory' */
  readonly sessionStore?: SessionStore | undefined;
  /** Sees the stored session at the end of the run (tests read its events). */
  readonly onStoredSession?: ((session: Session | undefined) => void) | undefined;
}

async function openSessionService(
  store: SessionStore,
): Promise<{ service: BaseSessionService; close: () => Promise<void> }> {
  if (store === 'memory') return { service: new InMemorySessionService(), close: async () => undefined };
  const service = new DatabaseSessionService('sqlite://:memory:');
  await service.init();
  // ADK 2.0.0 has no close(); its MikroORM instance is private, and left open it keeps the process alive.
  const orm = (service as unknown as { orm?: { close?: () => Promise<void> } }).orm;
  return { service, close: async () => orm?.close?.() };
}

function usageOn(usage: UsageSpec, turn: number): boolean {
  if (usage === 'always') return true;
  if (usage === 'never') return false;
  return turn >= usage.fromTurn;
}

function describeUsage(usage: UsageSpec): string {
  return typeof usage === 'string' ? usage : `from turn ${usage.fromTurn}`;
}

/** A 400 "too many tokens" error event: the model's rejection, counted as an overflow. */
function isRejectionEvent(event: Event): boolean {
  return event.errorCode === '400' && /token count|too long|exceeds/i.test(event.errorMessage ?? '');
}

/** A ScriptedSummarizer's call as a summary call: nothing of its own prompt is cached. */
function scriptedSummaryCall(call: SummarizerCall): SummaryCallRecord {
  return {
    startedAt: call.startedAt,
    promptTokens: call.promptTokens,
    cachedPromptTokens: 0,
    outputTokens: call.outputTokens,
    rejected: call.rejected,
    failed: call.rejected || call.behavior === 'fail' || call.behavior === 'timeout' || call.behavior === 'empty',
  };
}

function capViolations(violations: string[]): string[] {
  if (violations.length <= MAX_LISTED_VIOLATIONS) return violations;
  return [...violations.slice(0, MAX_LISTED_VIOLATIONS), `... and ${violations.length - MAX_LISTED_VIOLATIONS} more`];
}

export async function runScenario(
  spec: ScenarioSpec,
  strategy: StrategySpec,
  options: RunScenarioOptions = {},
): Promise<ScenarioResult> {
  const started = performance.now();
  const clock = new SimulationClock();
  const truth = options.tokenizer
    ? tokenizerGroundTruth(options.tokenizer)
    : ratioGroundTruth(() => ratioAt(spec.ratio, Math.max(1, clock.turn), spec.turns));
  const book = new ObservationBook(clock, truth);
  const defaultMaxOutputTokens = Math.min(4_096, Math.floor(spec.window * 0.1));
  const summarizer = new ScriptedSummarizer({
    behavior: spec.summarizer?.behavior ?? 'ok',
    window: spec.window,
    countText: (text) => truth.countText(text),
    defaultMaxOutputTokens,
    // Which model call a summary started in: the virtual clock of summary-waits.ts.
    now: () => model.calls.length,
  });
  // A scenario that scripts its summarizer's behaviour keeps the ScriptedSummarizer under every strategy.
  const ownModelSummarizes =
    strategy.kind === 'context-guard' && strategy.ownModelSummarizes === true && spec.summarizer === undefined;
  const topology = spec.agents ?? 'single';
  const scripted = new ScriptedLlm({
    model: 'scripted-simulator',
    window: spec.window,
    countTokens: truth.countRequest,
    script: answeringSummaries(
      scenarioScript(topology, clock, (request) => book.get(request), spec.work?.kind),
      defaultMaxOutputTokens,
    ),
    reportUsage: () => usageOn(spec.usage, clock.turn),
    // A summary's usage states its length, as the bill counts it (summary-requests.ts): what the guard learns from.
    outputTokens: (call, content) =>
      summaryRequestKind(call.request) === undefined ? MODEL_OUTPUT_TOKENS : summaryOutputTokens(content),
    // The reference model's cache terms (src/cost/cache-terms.ts), which the bill assumes.
    minCachedTokens: cacheTermsFor(REFERENCE_PRICED_MODEL).minCachedPrefixTokens,
    // A summary request reads the agent's cached prefix; the agent's own prefix stays cached for its next call.
    cachesPrefix: (request) => summaryRequestKind(request) === undefined,
  });
  const model = new ObservedModel(scripted, book, spec.window, strategy.kind === 'context-guard');
  const threshold = computeBudget({ window: spec.window, calibrated: true }).threshold;
  const work = spec.work ? workTools(spec.work.kind) : undefined;
  const { root, agentNames } = buildAgents(spec, {
    model,
    workTools: work?.tools,
    adkSummarizerLlm: strategy.kind === 'adk-token-based' ? new ScriptedSummarizerLlm({ summarizer }) : undefined,
    adkTokenThreshold: threshold,
  });

  const logger = new CapturingLogger({ limit: 200 });
  const plugins: BasePlugin[] = [new PreObserver(book)];
  const guard =
    strategy.kind === 'context-guard'
      ? new ContextGuard({
          ...(spec.windowUnknown ? {} : { contextWindow: spec.window }),
          ...(ownModelSummarizes ? {} : { summarizer }),
          logger,
          ...strategy.guardOptions,
          ...spec.guard,
        })
      : undefined;
  if (guard) plugins.push(guard);
  const store = await openSessionService(options.sessionStore ?? 'memory');
  const sessionService = store.service;

  const turnErrors: string[] = [];
  let failedTurns = 0;
  // ADK's logger is global: quiet it for the run (plugin registration, model errors).
  setLogger(logger);
  let sessionId: string;
  try {
    // Tool work offloads cut results, as an app with an artifact service does; other scenarios keep the seed's set-up.
    const artifactService = spec.work ? new InMemoryArtifactService() : undefined;
    const runner = new Runner({ appName: APP_NAME, agent: root, sessionService, plugins, artifactService });
    sessionId = (await sessionService.createSession({ appName: APP_NAME, userId: USER_ID })).id;
    for (let turn = 1; turn <= spec.turns; turn++) {
      const plan = planTurn(spec, turn);
      clock.startTurn(plan);
      let failed = false;
      try {
        for await (const event of runner.runAsync({ userId: USER_ID, sessionId, newMessage: userContent(plan) })) {
          if (!event.errorCode) continue;
          failed = true;
          if (!isRejectionEvent(event))
            turnErrors.push(
              `turn ${turn}: error event ${event.errorCode}: ${(event.errorMessage ?? '').slice(0, 200)}`,
            );
        }
      } catch (error) {
        failed = true;
        turnErrors.push(
          `turn ${turn}: the run threw: ${(error instanceof Error ? error.message : String(error)).slice(0, 200)}`,
        );
      }
      if (failed) failedTurns++;
    }
  } finally {
    setLogger(null);
  }

  const stored = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId });
  await store.close();
  options.onStoredSession?.(stored);
  const compactionsByAgent = new Map<string, number>();
  let compactions = 0;
  let maskings = 0;
  if (strategy.kind === 'context-guard') {
    for (const agent of agentNames) {
      const usage = decodeUsageRecord(stored?.state[stateKeysFor(agent).usage]);
      // For the every-agent claim, a masking is the agent acting too.
      compactionsByAgent.set(agent, usage.compactions + usage.maskings);
      compactions += usage.compactions;
      maskings += usage.maskings;
    }
  } else if (strategy.kind === 'adk-token-based') {
    compactions = (stored?.events ?? []).filter((event) => isCompactedEvent(event)).length;
  }

  // The agents' requests: the summary requests the own model served are the summarizer's.
  const agentRequests = scripted.requests.filter((request) => !model.summaryRequestIndexes.has(request.index));
  const summaryCalls = ownModelSummarizes ? model.summaryCalls : summarizer.calls.map(scriptedSummaryCall);
  const status = guard && stored ? guard.status(stored, agentNames[0] ?? 'worker') : undefined;
  const toolWork: ToolWorkFacts | undefined =
    spec.work && work
      ? {
          ...toolWorkFacts(spec.work.kind, {
            events: stored?.events ?? [],
            runs: work.runs,
            requests: agentRequests,
            countText: (text) => truth.countText(text),
            status,
            offTwin: spec.work.offTwin,
          }),
          ...(spec.work.kind === 'budget-line'
            ? {
                budgetLine: budgetLineFacts({
                  agentRequests,
                  // Every summary request: those the agent's own model served, and a summarizer's prompts.
                  summaryTexts: [
                    ...scripted.requests
                      .filter((request) => model.summaryRequestIndexes.has(request.index))
                      .map((request) => JSON.stringify(request.contents)),
                    ...summarizer.calls.map((call) => call.prompt),
                  ],
                  events: stored?.events ?? [],
                  state: stored?.state,
                  reductions: compactions + maskings,
                  status,
                }),
              }
            : {}),
        }
      : undefined;
  const calls = model.calls;
  const waits = summaryWaits(
    calls,
    summaryCalls.map((call) => call.startedAt),
  );
  const rejected = agentRequests.filter((request) => request.rejected).length;
  // The summarizer is a model too: a request over its window is an overflow of its own.
  const summarizerOverflows = summaryCalls.filter((call) => call.rejected);
  const violations = [
    ...calls.flatMap((call) => call.violations),
    ...turnErrors,
    ...summarizerOverflows.map(
      (call) =>
        `summarizer overflow: a ${call.promptTokens}-token summary request exceeded the summarizer's ${spec.window}-token window`,
    ),
    ...(strategy.kind === 'context-guard'
      ? expectationViolations(spec.expect, {
          strategy: strategy.guardStrategy ?? '',
          checksCompactionClaims: strategy.checksCompactionClaims,
          checksSizeClaims: !options.tokenizer,
          window: spec.window,
          calls,
          compactions,
          maskings,
          compactionsByAgent,
          agents: agentNames,
          rejected,
          summarizerCalls: summaryCalls.length,
          toolWork,
        })
      : expectationViolations(
          { maxRejected: 0 },
          {
            strategy: strategy.name,
            checksCompactionClaims: false,
            checksSizeClaims: false,
            window: spec.window,
            calls,
            compactions,
            compactionsByAgent,
            agents: agentNames,
            rejected,
          },
        )),
  ];
  const accepted = calls.filter((call) => !call.rejected);
  const maxPromptTokens = Math.max(0, ...calls.map((call) => call.promptTokens));
  const meanPromptTokens =
    calls.length > 0 ? calls.reduce((sum, call) => sum + call.promptTokens, 0) / calls.length : 0;
  const cost = scenarioCost(calls, MODEL_OUTPUT_TOKENS, summaryCalls);
  const summarizerFailures = summaryCalls.filter((call) => call.failed).length;
  return {
    name: spec.name,
    group: spec.group,
    claim: spec.claim,
    strategy: strategy.name,
    strategyLabel: strategy.label,
    baseline: strategy.baseline,
    window: spec.window,
    threshold,
    turns: spec.turns,
    ratio: options.tokenizer ? 'tokenizer' : describeRatio(spec.ratio),
    usage: describeUsage(spec.usage),
    groundTruth: truth.label,
    modelCalls: calls.length,
    overflows: rejected,
    compactions,
    maskings,
    summarizerCalls: summaryCalls.length,
    turnsWaitedForSummary: waits.turnsWaited,
    summaryWaitMs: waits.addedMs,
    summarizerFailures,
    maxPromptTokens,
    meanPromptTokens: Math.round(meanPromptTokens),
    peakWindowUse: maxPromptTokens / spec.window,
    meanWindowUse: meanPromptTokens / spec.window,
    billedPromptTokens: accepted.reduce((sum, call) => sum + call.promptTokens, 0) + cost.summarizerPromptTokens,
    cachedPromptTokens: cost.cachedPromptTokens,
    summarizerPromptTokens: cost.summarizerPromptTokens,
    summarizerCachedPromptTokens: cost.summarizerCachedPromptTokens,
    uncachedPromptTokens: cost.uncachedPromptTokens,
    summarizerOutputTokens: cost.summarizerOutputTokens,
    costUsd: cost.costUsd,
    uncachedUsd: cost.uncachedUsd,
    cachedUsd: cost.cachedUsd,
    outputUsd: cost.outputUsd,
    summarizerInputUsd: cost.summarizerInputUsd,
    summarizerOutputUsd: cost.summarizerOutputUsd,
    costFloorUsd: cost.costFloorUsd,
    failedTurns,
    violations: capViolations(violations),
    passed: violations.length === 0,
    durationMs: Math.round(performance.now() - started),
    calls,
    summaryWaitsMs: waits.waitMs,
    ...(toolWork ? { toolWork } : {}),
  };
}
