/**
 * A `BaseLlm` wrapper around the agent's model that edits the request it is handed (people write them for prompt
 * tweaks, redaction, retrieved references): everything after the guard's callbacks, where no callback can be seen.
 * A rejected request is retried inside its call (rejection-retry.test.ts); the fifty-first outside trial found the
 * retry taking the model's own edits for a callback's: one that appended to the user's text made the retry refuse
 * (the provider's 400 reached the user), one that added a content had it kept by the retry and added again by the
 * model, twice in every retried request. The retry now starts from the request as the model was handed it.
 */
import {
  BaseLlm,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type BaseLlmConnection,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import {
  CapturingLogger,
  logText,
  ratioTokenCounter,
  ScriptedLlm,
  ScriptedSummarizer,
} from '../../src/testing/index.js';
import {
  APP_NAME,
  errorCodes,
  fetchLogsTool,
  runTurns,
  startSession,
  toolThenAnswerScript,
} from '../support/agent-harness.js';

const REFERENCE = 'Reference notes for this request: ';

/** Hands the inner model the request after editing it in place, as a wrapper of the user's own may. */
class EditingModel extends BaseLlm {
  /** The function declarations of each request handed on, by name. */
  readonly declared: string[][] = [];

  constructor(
    private readonly inner: BaseLlm,
    private readonly edit: 'append' | 'reference' | 'tool',
  ) {
    super({ model: inner.model });
  }

  override async *generateContentAsync(
    request: LlmRequest,
    stream?: boolean,
    abortSignal?: AbortSignal,
  ): AsyncGenerator<LlmResponse, void> {
    if (this.edit === 'append') {
      const last = [...request.contents]
        .reverse()
        .find((content) => content.role === 'user' && content.parts?.[0]?.text);
      if (last?.parts?.[0]) last.parts[0].text += ' (Answer briefly.)';
    } else if (this.edit === 'reference')
      request.contents.unshift({ role: 'user', parts: [{ text: `${REFERENCE}${logText(600, 7)}` }] });
    else ((request.config ??= {}).tools ??= []).push({ functionDeclarations: [{ name: 'web_search' }] });
    this.declared.push(
      (request.config?.tools ?? []).flatMap((tool) =>
        'functionDeclarations' in tool ? (tool.functionDeclarations ?? []).map((d) => d.name ?? '') : [],
      ),
    );
    yield* this.inner.generateContentAsync(request, stream, abortSignal);
  }

  override connect(): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('no live connection'));
  }
}

describe('a model wrapper that edits the request it is handed', () => {
  for (const edit of ['append', 'reference', 'tool'] as const)
    it(`should have a rejected request retried as the model got it (${edit}): no error, its edit once`, async () => {
      // An 8k model the guard does not know: its first rejection states the window, and the call is retried.
      const inner = new ScriptedLlm({
        window: 8_000,
        countTokens: ratioTokenCounter(2),
        script: toolThenAnswerScript(1_200),
      });
      const guard = new ContextGuard({ summarizer: new ScriptedSummarizer(), logger: new CapturingLogger() });
      const model = new EditingModel(inner, edit);
      const agent = new LlmAgent({ name: 'worker', model, tools: [fetchLogsTool()] });
      const sessionService = new InMemorySessionService();
      const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
      const session = await startSession(sessionService);
      const events = await runTurns(runner, session.id, 20);
      expect(errorCodes(events)).toEqual([]);
      expect(inner.rejectedRequests.length).toBeGreaterThan(0);
      const retried = inner.requests[inner.rejectedRequests[0]!.index + 1]!;
      expect(retried.rejected).toBe(false);
      if (edit === 'tool') {
        // Pushed into the tools list in place (as ADK's appendTools does): declared once, as on the rejected call.
        const names = model.declared[retried.index] ?? [];
        expect(names.filter((name) => name === 'web_search')).toHaveLength(1);
      } else {
        const marks = edit === 'append' ? '(Answer briefly.)' : REFERENCE;
        expect(JSON.stringify(retried.contents).split(marks)).toHaveLength(2);
      }
    });
});
