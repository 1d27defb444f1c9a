/**
 * A masking for room waits for the call that needs it (masking/masking-can-wait.ts). A support dialogue on an 8k
 * window whose lookups push it over the threshold in its last turns sends what ADK built, call for call, as no guard
 * would: a masking at the threshold rewrote the cached prefix for calls the session never made (the recorded
 * dialogues paid 2-7% more than no guard). Run on, the same dialogue is masked before the hard limit, with no
 * summary and no rejection.
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { logText, ratioTokenCounter, ScriptedLlm, type ModelScript } from '../../src/testing/index.js';

const WINDOW = 8_000;

const lookup = new FunctionTool({
  name: 'lookup_reservation',
  description: 'Looks a reservation up.',
  parameters: { type: 'OBJECT', properties: { turn: { type: 'INTEGER' } } } as never,
  execute: (input: unknown) => ({ reservation: logText(1_200, (input as { turn: number }).turn) }),
});

const script: ModelScript = ({ request, index }) => {
  const last = request.contents.at(-1);
  if (last?.parts?.some((part) => part.functionResponse))
    return { content: { role: 'model', parts: [{ text: `Your reservation is confirmed, step ${index}.` }] } };
  const turn = Number(/Turn (\d+)/.exec(JSON.stringify(last))?.[1] ?? 0);
  return { content: { role: 'model', parts: [{ functionCall: { name: 'lookup_reservation', args: { turn } } }] } };
};

async function dialogue(turns: number, guarded: boolean) {
  const model = new ScriptedLlm({ window: WINDOW, countTokens: ratioTokenCounter(1.1), script });
  const agent = new LlmAgent({ name: 'support', model, instruction: 'Help with reservations.', tools: [lookup] });
  // Masking for cost held off: only a reduction for room can change the request.
  const guard = new ContextGuard({ contextWindow: WINDOW, maskStaleOutputTokens: 100_000 });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'air', agent, sessionService, plugins: guarded ? [guard] : [] });
  const session = await sessionService.createSession({ appName: 'air', userId: 'u' });
  let errors = 0;
  for (let turn = 1; turn <= turns; turn++)
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text: `Turn ${turn}: please check my reservation.` }] },
    }))
      if (event.errorCode) errors++;
  const stored = await sessionService.getSession({ appName: 'air', userId: 'u', sessionId: session.id });
  const status = stored ? guard.status(stored, 'support') : undefined;
  return { requests: model.requests, errors, status };
}

describe('a masking for room at the threshold', () => {
  it('should wait while the session still fits: a dialogue ending there sends what no guard sends', async () => {
    const none = await dialogue(18, false);
    const guarded = await dialogue(18, true);
    const threshold = 0.8 * WINDOW;
    // The dialogue crossed the threshold and still fitted the window.
    expect(Math.max(...none.requests.map((request) => request.promptTokens))).toBeGreaterThan(threshold);
    expect(none.requests.every((request) => !request.rejected)).toBe(true);
    expect(guarded.status?.maskings).toBe(0);
    expect(guarded.requests.map((request) => JSON.stringify(request.contents))).toEqual(
      none.requests.map((request) => JSON.stringify(request.contents)),
    );
  });

  it('should mask before the hard limit when the dialogue runs on, with no summary and no rejection', async () => {
    const { requests, errors, status } = await dialogue(26, true);
    expect(errors).toBe(0);
    expect(requests.every((request) => !request.rejected)).toBe(true);
    expect(Math.max(...requests.map((request) => request.promptTokens))).toBeLessThanOrEqual(0.95 * WINDOW);
    expect(status?.maskings).toBeGreaterThan(0);
    expect(status?.compactions).toBe(0);
  });
});
