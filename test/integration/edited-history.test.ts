/**
 * An edit in the middle of the history, made before the guard sees the request, reaches what the
 * guard sends. Here the agent's own beforeModelCallback redacts the first tool result from some turn
 * on (the guard is attached to the agent, after the agent's callbacks, so it measures what they
 * leave). The guard keeps each content's measures and placeholder between calls; it used to
 * recognise the earlier history by its first and last contents only, so a redacted middle content
 * kept its old fingerprint and, once masked, its old placeholder: the model was sent the start of
 * the very text the callback had redacted.
 */
import { describe, expect, it } from 'vitest';
import { InMemorySessionService, LlmAgent, Runner, type SingleBeforeModelCallback } from '@google/adk';
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

describe('an edit of an earlier content between calls', () => {
  it("should send the edited content's placeholder, never the one built from the content before the edit", async () => {
    let redacting = false;
    const redact: SingleBeforeModelCallback = ({ request }) => {
      const response = redacting ? firstResult(request.contents ?? []) : undefined;
      if (response) {
        for (const key of Object.keys(response)) delete response[key];
        response['logs'] = REDACTED;
      }
      return undefined;
    };
    const model = logsModel({ window: 200_000, ratio: 1.2, script: toolThenAnswerScript(24_000) });
    const agent = new LlmAgent({
      name: 'worker',
      model,
      instruction: 'You analyse server logs.',
      tools: [fetchLogsTool()],
      beforeModelCallback: redact,
    });
    new ContextGuard({ contextWindow: 200_000, summarizer: new ScriptedSummarizer() }).attachTo(agent);
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService });
    const session = await startSession(sessionService);
    await runTurns(runner, session.id, REDACT_FROM_TURN - 1);
    const before = model.requests.length;
    redacting = true;
    await runTurns(runner, session.id, TURNS, { from: REDACT_FROM_TURN });

    const original = model.requests.map((request) => firstResult(request.contents)).find((r) => r && 'logs' in r);
    const head = String(original?.['logs']).replace(/\s+/g, ' ').slice(0, 60);
    const sent = model.requests.map((request) => firstResult(request.contents)?.[MASKED]);
    // The first result was masked before the edit (its placeholder quotes its start), so the guard had kept one.
    expect(sent.slice(0, before).some((text) => typeof text === 'string' && text.includes(head))).toBe(true);
    // After it every request carries the redacted result's own placeholder, and nothing of the text before.
    const after = sent.slice(before);
    expect(after.length).toBeGreaterThan(0);
    for (const text of after) expect(text).toContain('It began: REDACTED BY POLICY');
    expect(model.requests.slice(before).filter((request) => JSON.stringify(request.contents).includes(head))).toEqual(
      [],
    );
  });
});
