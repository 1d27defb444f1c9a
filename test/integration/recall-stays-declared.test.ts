/**
 * An instruction filled from state that grows past a quarter of the window mid-session. The thirty-seventh outside
 * trial (travel-concierge's `{itinerary}`): the guard stopped declaring its recall tool, masked results became
 * unrecoverable with nothing said, and the model's next call of the tool, still in its history, came back from ADK as
 * an error event ("Function recall_history is not found in the toolsDict").
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner, type Context, type LlmRequest } from '@google/adk';
import type { Tool } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard, contextRecallTool } from '../../src/index.js';
import {
  CapturingLogger,
  proseText,
  ratioTokenCounter,
  ScriptedLlm,
  type ModelScript,
} from '../../src/testing/index.js';
import { APP_NAME, errorCodes, runTurn, USER_ID } from '../support/agent-harness.js';

const WINDOW = 24_000;
const GROW_AT = 12;
const RECALL_AT = 16;

const declared = (request: LlmRequest): string[] =>
  ((request.config?.tools ?? []) as Tool[]).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map((d) => d.name ?? ''),
  );

const search = new FunctionTool({
  name: 'search_flights',
  description: 'Searches flights.',
  parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' } } } as never,
  execute: (input: unknown) => {
    const q = (input as { q?: string } | undefined)?.q ?? '';
    return {
      flights: Array.from({ length: 25 }, (_, i) => ({
        id: q === 'first' && i === 0 ? 'REF-ZX81Q' : `F-${q}-${i}`,
        detail: proseText(400, i),
      })),
    };
  },
});
const saveItinerary = new FunctionTool({
  name: 'save_itinerary',
  description: 'Stores the itinerary.',
  parameters: { type: 'OBJECT', properties: {} } as never,
  execute: (_input: unknown, context?: Context) => {
    context?.state.set('itinerary', proseText(45_000, 5));
    return { status: 'saved' };
  },
});

/** Turn n calls one tool, then answers; the recall tool at RECALL_AT. */
const script: ModelScript = ({ request, index }) => {
  const last = request.contents.at(-1);
  if (last?.parts?.some((part) => part.functionResponse))
    return { content: { role: 'model', parts: [{ text: `Done ${index}.` }] } };
  const turn = Number(/Turn (\d+)/.exec(JSON.stringify(last))?.[1] ?? 0);
  const call =
    turn === 2
      ? { name: 'search_flights', args: { q: 'first' } }
      : turn === GROW_AT
        ? { name: 'save_itinerary', args: {} }
        : turn === RECALL_AT
          ? { name: 'recall_history', args: { query: 'REF-ZX81Q' } }
          : { name: 'search_flights', args: { q: `q${turn}` } };
  return { content: { role: 'model', parts: [{ functionCall: call }] } };
};

describe('the recall tool of a session whose instruction grows', () => {
  it('should stay declared once sent, so masked results stay readable and a call of it is answered', async () => {
    const seen: string[][] = [];
    const model = new ScriptedLlm({
      window: WINDOW,
      countTokens: ratioTokenCounter(1.3),
      script,
      fail: ({ request }) => void seen.push(declared(request)),
    });
    const agent = new LlmAgent({
      name: 'planner',
      model,
      instruction: 'You plan trips.\n<itinerary>\n{itinerary?}\n</itinerary>',
      tools: [search, saveItinerary],
    });
    const logger = new CapturingLogger();
    const guard = new ContextGuard({ contextWindow: WINDOW, logger });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    const errors: string[] = [];
    let recalled = '';
    for (let turn = 1; turn <= RECALL_AT + 2; turn++) {
      const events = await runTurn(runner, id, `Turn ${turn}: plan.`);
      errors.push(...errorCodes(events));
      if (turn === RECALL_AT)
        recalled = JSON.stringify(
          events.flatMap((event) => event.content?.parts ?? []).filter((p) => p.functionResponse),
        );
    }
    expect(errors).toEqual([]);
    const withRecall = seen.map((names) => names.includes('recall_history'));
    const first = withRecall.indexOf(true);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(withRecall.slice(first).every(Boolean)).toBe(true);
    expect(recalled).toContain('REF-ZX81Q');
  });

  it.each([
    ['says once why it sends no recall tool', false, 1],
    ['says nothing of it where the agent has a recall tool of its own', true, 0],
  ] as const)('where the instruction takes over a quarter of the window from the start, %s', async (_, own, lines) => {
    const model = new ScriptedLlm({ window: WINDOW, countTokens: ratioTokenCounter(1.3), script });
    const agent = new LlmAgent({
      name: 'planner',
      model,
      instruction: `You plan trips.\n${proseText(45_000, 5)}`,
      tools: own ? [search, contextRecallTool()] : [search],
    });
    const logger = new CapturingLogger();
    const guard = new ContextGuard({ contextWindow: WINDOW, logger });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    for (let turn = 3; turn <= 6; turn++)
      expect(errorCodes(await runTurn(runner, id, `Turn ${turn}: plan.`))).toEqual([]);
    expect(logger.matching('take over a quarter of the window')).toHaveLength(lines);
  });
});
