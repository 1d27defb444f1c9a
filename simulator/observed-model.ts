/**
 * The model the scenario's agents use: the package's strict `ScriptedLlm`
 * (ground-truth count, 400 rejection over the window, usage reporting),
 * wrapped so that every call is joined with the observer's notes and checked
 * against the invariants the moment the model receives it.
 */
import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';
import type { ScriptedLlm } from '../src/testing/index.js';
import type { CallRecord } from './call-record.js';
import type { ObservationBook } from './call-observer.js';
import { userContent } from './turn-plan.js';
import {
  containsRequest,
  holdsContent,
  loopViolation,
  maxParallelResponses,
  orphanViolations,
  shrunkToolResults,
  type LoopFacts,
} from './invariants.js';

export class ObservedModel extends BaseLlm {
  readonly calls: CallRecord[] = [];
  private readonly lastByAgent = new Map<string, CallRecord>();
  private adkCompactedEventsSeen = 0;

  constructor(
    readonly inner: ScriptedLlm,
    private readonly book: ObservationBook,
    private readonly window: number,
    /** Whether compactions carry a watermark (the guard's do; ADK's compactor's do not). */
    private readonly watermarked: boolean,
  ) {
    super({ model: inner.model });
  }

  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const before = this.inner.requests.length;
    try {
      yield* this.inner.generateContentAsync(request);
    } finally {
      this.record(request, before);
    }
  }

  override async connect(): Promise<BaseLlmConnection> {
    return this.inner.connect();
  }

  private record(request: LlmRequest, requestIndex: number): void {
    const received = this.inner.requests[requestIndex];
    const observation = this.book.get(request);
    if (!received || !observation) return;
    const contents = request.contents ?? [];
    const guardCompacted = observation.guardCompactionsAfter > observation.guardCompactionsBefore;
    const adkCompacted = observation.adkCompactedEvents > this.adkCompactedEventsSeen;
    this.adkCompactedEventsSeen = Math.max(this.adkCompactedEventsSeen, observation.adkCompactedEvents);
    const violations = [
      ...orphanViolations(contents).map(
        (text) => `call ${this.calls.length} (turn ${observation.turn}, ${observation.agent}): ${text}`,
      ),
    ];
    const plan = this.book.clock.plan;
    const message = plan?.message;
    if (message !== undefined && !containsRequest(contents, message)) {
      violations.push(
        `call ${this.calls.length} (turn ${observation.turn}, ${observation.agent}): the user's current request is not in the request`,
      );
    }
    const facts: LoopFacts = {
      index: this.calls.length,
      compacted: guardCompacted || adkCompacted,
      rejected: received.rejected,
      promptTokens: received.promptTokens,
      appendedTokens: observation.appendedTokens,
      viewTokens: observation.viewTokens,
      watermarkBefore: observation.watermarkBefore,
      watermarkAfter: observation.watermarkAfter,
      hasWatermark: this.watermarked,
    };
    const previous = this.lastByAgent.get(observation.agent);
    const loop = loopViolation(
      facts,
      previous && { ...previous, index: previous.index, hasWatermark: this.watermarked },
      this.window,
    );
    if (loop) violations.push(`${loop} (${observation.agent})`);
    const record: CallRecord = {
      index: this.calls.length,
      agent: observation.agent,
      turn: observation.turn,
      step: observation.step,
      promptTokens: received.promptTokens,
      rejected: received.rejected,
      cachedPromptTokens: received.cachedPromptTokens,
      rawTokens: observation.rawTokens,
      producedTokens: observation.producedTokens,
      appendedTokens: observation.appendedTokens,
      viewTokens: observation.viewTokens,
      rawContents: observation.rawContents,
      sentContents: contents.length,
      compacted: facts.compacted,
      masked: observation.guardMaskingsAfter > observation.guardMaskingsBefore,
      watermarkBefore: observation.watermarkBefore,
      watermarkAfter: observation.watermarkAfter,
      fallbackSummary: observation.fallbackSummary,
      shrunkToolResults: shrunkToolResults(contents),
      maxParallelResponses: maxParallelResponses(contents),
      requestIntact: plan === undefined || holdsContent(contents, userContent(plan)),
      violations,
    };
    this.calls.push(record);
    this.lastByAgent.set(observation.agent, record);
  }
}
