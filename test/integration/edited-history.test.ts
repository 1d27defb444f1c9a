/**
 * An edit in the middle of the history, made before the guard sees the request, reaches what the
 * guard sends. Here the agent's own beforeModelCallback redacts the first tool result from some turn
 * on (the guard is attached to the agent, after the agent's callbacks, so it measures what they
 * leave). The guard keeps each content's measures and placeholder between calls; it used to
 * recognise the earlier history by its first and last contents only, so a redacted middle content
 * kept its old fingerprint and, once masked, its old placeholder: the model was sent the start of
 * the very text the callback had redacted. The same edit made by a plugin registered before the guard's
 * is seen too (the guard compares every content when something before it could edit: adk/hooks/history-editors.ts);
 * a plugin after the guard's edits what the model is sent, never what the guard measured and kept.
 */
import { describe, expect, it } from 'vitest';
import {
  BasePlugin,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type LlmRequest,
  type LlmResponse,
  type SingleBeforeModelCallback,
} from '@google/adk';
import type { Content } from '@google/genai';
import { ContextGuard } from '../../src/index.js';
import { ScriptedSummarizer } from '../../src/testing/index.js';
import {
  APP_NAME,
  fetchLogsTool,
  logsModel,
  runTurns,
  startSession,
  toolThenAnswerScript,
} from '../support/agent-harness.js';

const MASKED = 'context_guard_masked';
const TURNS = 10;
const REDACT_FROM_TURN = 7;
const REDACTED = `REDACTED BY POLICY ${'x '.repeat(3_000)}`;

/** The first tool result's response in `contents`. */
function firstResult(contents: readonly Content[]): Record<string, unknown> | undefined {
  for (const content of contents)
    for (const part of content.parts ?? []) if (part.functionResponse) return part.functionResponse.response;
  return undefined;
}

/** Redacts the first tool result of `contents` in place, when `on()`. */
function redactFirst(contents: readonly Content[] | undefined, on: boolean): void {
  const response = on ? firstResult(contents ?? []) : undefined;
  if (!response) return;
  for (const key of Object.keys(response)) delete response[key];
  response['logs'] = REDACTED;
}

/** A plugin that redacts with `edit` in its before-model callback. */
class RedactingPlugin extends BasePlugin {
  constructor(private readonly edit: (request: LlmRequest) => void) {
    super('redacting_plugin');
  }

  override async beforeModelCallback({ llmRequest }: { llmRequest: LlmRequest }): Promise<LlmResponse | undefined> {
    this.edit(llmRequest);
    return undefined;
  }
}

type Placement = 'agent callback before the guard' | 'plugin before the guard';

/** Runs the turns with the first tool result redacted from REDACT_FROM_TURN on, by a callback placed as `placement` says. */
async function redactedRun(placement: Placement) {
  let redacting = false;
  const redact = (request: LlmRequest) => redactFirst(request.contents, redacting);
  const model = logsModel({ window: 200_000, ratio: 1.2, script: toolThenAnswerScript(24_000) });
  const asCallback: SingleBeforeModelCallback = ({ request }) => void redact(request);
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You analyse server logs.',
    tools: [fetchLogsTool()],
    ...(placement === 'agent callback before the guard' ? { beforeModelCallback: asCallback } : {}),
  });
  const guard = new ContextGuard({ contextWindow: 200_000, summarizer: new ScriptedSummarizer() });
  const plugins = placement === 'plugin before the guard' ? [new RedactingPlugin(redact), guard] : [];
  if (placement === 'agent callback before the guard') guard.attachTo(agent);
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins });
  const session = await startSession(sessionService);
  await runTurns(runner, session.id, REDACT_FROM_TURN - 1);
  const before = model.requests.length;
  redacting = true;
  await runTurns(runner, session.id, TURNS, { from: REDACT_FROM_TURN });
  return { model, before };
}

describe('an edit of an earlier content between calls', () => {
  it.each<Placement>(['agent callback before the guard', 'plugin before the guard'])(
    "should send the edited content's placeholder, never the one built from the content before the edit (%s)",
    async (placement) => {
      const { model, before } = await redactedRun(placement);
      const original = model.requests.map((request) => firstResult(request.contents)).find((r) => r && 'logs' in r);
      const head = String(original?.['logs']).replace(/\s+/g, ' ').slice(0, 60);
      const sent = model.requests.map((request) => firstResult(request.contents)?.[MASKED]);
      // The first result was masked before the edit (its placeholder quotes its start), so the guard had kept one.
      expect(sent.slice(0, before).some((text) => typeof text === 'string' && text.includes(head))).toBe(true);
      // After it every request carries the redacted result's own placeholder, and nothing of the text before.
      const after = sent.slice(before);
      expect(after.length).toBeGreaterThan(0);
      for (const text of after) expect(text).toContain('Excerpt: REDACTED BY POLICY');
      expect(model.requests.slice(before).filter((request) => JSON.stringify(request.contents).includes(head))).toEqual(
        [],
      );
    },
  );

  it("should keep measuring the history ADK built when a plugin after the guard's edits the request in place", async () => {
    // After the guard: it rewrites the newest tool result of what the model is sent, in ADK's own objects.
    const redactNewest = (request: LlmRequest) => {
      const results = (request.contents ?? []).flatMap((content) =>
        (content.parts ?? []).flatMap((part) =>
          part.functionResponse?.response ? [part.functionResponse.response] : [],
        ),
      );
      const newest = results.at(-1);
      if (!newest || MASKED in newest) return;
      for (const key of Object.keys(newest)) delete newest[key];
      newest['logs'] = REDACTED;
    };
    const model = logsModel({ window: 200_000, ratio: 1.2, script: toolThenAnswerScript(24_000) });
    const agent = new LlmAgent({
      name: 'worker',
      model,
      instruction: 'You analyse server logs.',
      tools: [fetchLogsTool()],
    });
    const guard = new ContextGuard({ contextWindow: 200_000, summarizer: new ScriptedSummarizer() });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({
      appName: APP_NAME,
      agent,
      sessionService,
      plugins: [guard, new RedactingPlugin(redactNewest)],
    });
    const session = await startSession(sessionService);
    await runTurns(runner, session.id, TURNS);

    const placeholders = model.requests.flatMap((request) =>
      request.contents.flatMap((content) =>
        (content.parts ?? []).flatMap((part) => {
          const text = part.functionResponse?.response?.[MASKED];
          return typeof text === 'string' ? [text] : [];
        }),
      ),
    );
    // The guard masked results it had measured as ADK built them: every placeholder quotes the logs, none the redaction.
    expect(placeholders.length).toBeGreaterThan(0);
    for (const text of placeholders) expect(text).not.toContain('REDACTED BY POLICY');
    // And the model was sent the redaction the plugin made after the guard.
    expect(model.requests.some((request) => JSON.stringify(request.contents).includes('REDACTED BY POLICY'))).toBe(
      true,
    );
  });
});
