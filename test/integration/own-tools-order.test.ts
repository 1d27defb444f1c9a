/**
 * The guard's own tools keep one order for the whole session. The status tool (`budgetLine`) is declared from the
 * first call; the recall tool arrives later, on the call whose masking first names it, and is declared on every call
 * after. Were the recall tool put first once stored state names it, the call that brings it in (status, recall) and
 * the next ones (recall, status) would send two tool lists, and the provider's cached prefix, which starts with the
 * tools, would be written again (review 38 #4).
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { declaredNames } from '../support/declared-names.js';
import { logText, ratioTokenCounter, ScriptedLlm, type ModelScript } from '../../src/testing/index.js';

const lookup = new FunctionTool({
  name: 'lookup',
  description: 'Looks an order up.',
  parameters: { type: 'OBJECT', properties: { turn: { type: 'INTEGER' } } } as never,
  execute: (input: unknown) => ({ order: logText(6_000, (input as { turn: number }).turn) }),
});

const script: ModelScript = ({ request, index }) => {
  // The budget line is the request's last content: the turn's own are just before it.
  const recent = request.contents.slice(-2);
  if (recent.some((content) => content.parts?.some((part) => part.functionResponse)))
    return { content: { role: 'model', parts: [{ text: `Done ${index}.` }] } };
  const turn = Number(/Turn (\d+)/.exec(JSON.stringify(recent))?.[1] ?? 0);
  return { content: { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { turn } } }] } };
};

describe("the guard's own tools", () => {
  it('should keep one order from the call the recall tool arrives on', async () => {
    const tools: string[][] = [];
    const model = new ScriptedLlm({
      window: 32_000,
      countTokens: ratioTokenCounter(1.2),
      script,
      fail: ({ request }) => void tools.push(declaredNames(request)),
    });
    const agent = new LlmAgent({ name: 'support', model, instruction: 'Help with orders.', tools: [lookup] });
    const guard = new ContextGuard({ contextWindow: 32_000, budgetLine: true });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: 'shop', agent, sessionService, plugins: [guard] });
    const { id } = await sessionService.createSession({ appName: 'shop', userId: 'u' });
    for (let turn = 1; turn <= 14; turn++)
      for await (const _ of runner.runAsync({
        userId: 'u',
        sessionId: id,
        newMessage: { role: 'user', parts: [{ text: `Turn ${turn}: check my order.` }] },
      }));
    const own = tools.map((names) => names.filter((name) => name !== 'lookup'));
    const first = own.findIndex((names) => names.includes('recall_history'));
    expect(first).toBeGreaterThan(0);
    expect(own.slice(first).every((names) => JSON.stringify(names) === JSON.stringify(own[first]))).toBe(true);
  });
});
