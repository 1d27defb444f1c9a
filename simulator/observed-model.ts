/**
 * The model the scenario's agents use: the package's strict `ScriptedLlm`
 * (ground-truth count, 400 rejection over the window, usage reporting),
 * wrapped so that every call is joined with the observer's notes and checked
 * against the invariants the moment the model receives it.
 */
import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';
import { scriptedOutputTokens, type ScriptedLlm } from '../src/testing/index.js';
import type { CallRecord, SummaryCallRecord } from './call-record.js';
import { summaryRequestKind } from '../src/testing/index.js';
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
  /** Summary requests the guard sent to this model (no `summarizer` option): not agent calls, kept apart. */
  readonly summaryCalls: SummaryCallRecord[] = [];
  /** Indexes in `inner.requests` of those summary requests. */
  readonly summaryRequestIndexes = new Set<number>();
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
    // Every callback has run: what the strategy did to the request is read now (call-observer.ts).
    this.book.close(request);
    const before = this.inner.requests.length;
    if (summaryRequestKind(request)) return yield* this.summarize(request, before);
    try {
      yield* this.inner.generateContentAsync(request);
    } finally {
      this.record(request, before);
    }
  }

  /** A summary request: answered by the same strict model (its window, its cache), recorded apart. */
  private async *summarize(request: LlmRequest, requestIndex: number): AsyncGenerator<LlmResponse, void> {
    const startedAt = this.calls.length;
    let outputChars = 0;
    try {
      for await (const response of this.inner.generateContentAsync(request)) {
        for (const part of response.content?.parts ?? []) outputChars += part.text?.length ?? 0;
        yield response;
      }
    } finally {
      const received = this.inner.requests[requestIndex];
      if (received) {
        this.summaryRequestIndexes.add(requestIndex);
        this.summaryCalls.push({
          startedAt,
          promptTokens: received.promptTokens,
          cachedPromptTokens: received.cachedPromptTokens,
          outputTokens: received.rejected ? 0 : scriptedOutputTokens(outputChars),
          rejected: received.rejected,
          failed: received.rejected || outputChars === 0,
        });
      }
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
