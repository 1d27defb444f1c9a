/**
 * Masking never invites a repeated side effect, and stays recoverable (issue 25, item 6), through
 * a real Runner. A `create_order` tool (not declared read-only) creates an order and returns its
 * id with a long receipt; a `get_catalog` tool is declared read-only. On a large window the
 * receipt is masked for cost. The next turn needs the order id. The scripted model does what the
 * request says: it answers with an id it can read, follows a placeholder that tells it to call the
 * tool again, or else recalls. The order must be created once, and the answer must be its id.
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard, type ContextGuardOptions } from '../../src/index.js';
import { contentsText, logText, ratioTokenCounter, ScriptedLlm, type ModelScript } from '../../src/testing/index.js';
import { APP_NAME, runTurn, startSession } from '../support/agent-harness.js';

const WINDOW = 200_000;
const MASKED = 'context_guard_masked';
const QUESTION = 'What was the id of the order you created?';
const ORDER_ID = /ORD-\d{4}/;

/** The placeholders of the masked results in `contents`, by tool. */
function placeholders(contents: readonly Content[]): { name: string; text: string }[] {
  return contents.flatMap((content) =>
    (content.parts ?? []).flatMap((part) => {
      const response = part.functionResponse?.response;
      return response && MASKED in response
        ? [{ name: part.functionResponse?.name ?? '', text: String(response[MASKED]) }]
        : [];
    }),
  );
}

/** The text of the user's latest message. */
function latestQuestion(contents: readonly Content[]): string {
  for (let i = contents.length - 1; i >= 0; i--) {
    const text = contents[i]?.role === 'user' ? contents[i]?.parts?.find((part) => part.text)?.text : undefined;
    if (text) return text;
  }
  return '';
}

/** The tool results of the in-flight turn (after the user's latest message). */
function inFlightResults(contents: readonly Content[]): string[] {
  let start = contents.length - 1;
  while (start >= 0 && !(contents[start]?.role === 'user' && contents[start]?.parts?.some((part) => part.text)))
    start--;
  return contents
    .slice(start + 1)
    .flatMap((content) =>
      (content.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse.name ?? ''] : [])),
    );
}

/** The in-flight turn's latest recall_history answer, if any. */
function lastRecallAnswer(contents: readonly Content[]): { hits?: { event_id?: string }[] } | undefined {
  const last = contents[contents.length - 1];
  const part = last?.parts?.find((p) => p.functionResponse?.name === 'recall_history');
  return part?.functionResponse?.response;
}

const call = (name: string, args: Record<string, unknown>) => ({
  content: { role: 'model', parts: [{ functionCall: { name, args } }] },
});
const say = (text: string) => ({ content: { role: 'model', parts: [{ text }] } });

/** A model that does what its request says, and records the tools each request declared. */
function obedientModel(declared: string[][]): ModelScript {
  return ({ request }) => {
    declared.push(Object.keys(request.toolsDict).sort());
    const contents = request.contents;
    const question = latestQuestion(contents);
    const done = inFlightResults(contents);
    if (question !== QUESTION) {
      if (done.length > 0) return say(`Done: ${logText(100, contents.length)}`);
      return question.startsWith('Turn 1:')
        ? call('create_order', { item: 'widget' })
        : call('get_catalog', { page: contents.length });
    }
    // The id, wherever the model can read it: the context, a placeholder or a recall answer.
    const id = ORDER_ID.exec(contentsText(contents))?.[0];
    if (id) return say(`The order id is ${id}.`);
    // A placeholder that says to call the tool again is followed, as a model would.
    const rerun = placeholders(contents).find(
      (p) => p.name === 'create_order' && /call the tool again|call create_order again/.test(p.text),
    );
    if (rerun && !done.includes('create_order')) return call('create_order', { item: 'widget' });
    // Else search with the recall tool, then read the top hit whole.
    if ('recall_history' in request.toolsDict) {
      const recalled = lastRecallAnswer(contents);
      if (!recalled) return call('recall_history', { query: 'create_order receipt' });
      const top = recalled.hits?.[0]?.event_id;
      if (top) return call('recall_history', { event_id: top });
    }
    return say('I do not have the order id.');
  };
}

async function orderSession(options: Partial<ContextGuardOptions> = {}, idKey = true, ownTools: FunctionTool[] = []) {
  const orders: string[] = [];
  const createOrder = new FunctionTool({
    name: 'create_order',
    description: 'Creates an order and returns its id.',
    parameters: { type: 'OBJECT', properties: { item: { type: 'STRING' } } } as never,
    execute: () => {
      const id = `ORD-${7731 + orders.length}`;
      orders.push(id);
      // The id comes after a long header: the placeholder's excerpt ("Excerpt: …") does not reach it.
      const receipt = { receipt: `${logText(3_000, 1)} order ${id} created`, status: 'created' };
      return idKey ? { ...receipt, order_id: id } : receipt;
    },
  });
  const getCatalog = new FunctionTool({
    name: 'get_catalog',
    description: 'Reads one page of the catalogue.',
    parameters: { type: 'OBJECT', properties: { page: { type: 'INTEGER' } } } as never,
    execute: (input: unknown) => ({ page: logText(3_000, (input as { page: number }).page) }),
  });
  const declared: string[][] = [];
  const warnings: string[] = [];
  const model = new ScriptedLlm({
    window: WINDOW,
    countTokens: ratioTokenCounter(1.2),
    script: obedientModel(declared),
  });
  const agent = new LlmAgent({
    name: 'clerk',
    model,
    instruction: 'You take orders.',
    tools: [createOrder, getCatalog, ...ownTools],
  });
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    // No cache discount: masking for cost pays as soon as the batch is large enough.
    prices: { 'scripted-model': { input: 1, cachedInput: 1, output: 1 } },
    tools: { get_catalog: { readOnly: true } },
    logger: { debug() {}, info() {}, warn: (message: unknown) => warnings.push(String(message)), error() {} },
    ...options,
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  const session = await startSession(sessionService);
  for (let turn = 1; turn <= 4; turn++) await runTurn(runner, session.id, `Turn ${turn}: go on.`);
  const beforeQuestion = model.requests.length;
  const events = await runTurn(runner, session.id, QUESTION);
  const answer =
    events
      .flatMap((event) => event.content?.parts ?? [])
      .filter((part) => part.text)
      .pop()?.text ?? '';
  return { model, orders, answer, declared, beforeQuestion, warnings };
}

describe('masking never invites a repeated side effect', () => {
  it('should answer the order id without creating the order again, from the placeholder, and keep every result recallable', async () => {
    const { model, orders, answer, declared, beforeQuestion } = await orderSession();
    // The receipt was masked for cost before the question, on a window far from full.
    const asked = model.requests[beforeQuestion]!;
    const receipt = placeholders(asked.contents).find((p) => p.name === 'create_order');
    expect(receipt).toBeDefined();
    expect(model.rejectedRequests).toEqual([]);
    // Its placeholder never says to call create_order again, and carries the id.
    expect(receipt!.text).not.toMatch(/call the tool again|call create_order again/);
    expect(receipt!.text).toContain('ORD-7731');
    expect(receipt!.text).toContain('recall_history');
    // The read-only tool's placeholders may suggest calling it again.
    const catalog = placeholders(asked.contents).filter((p) => p.name === 'get_catalog');
    expect(catalog.length).toBeGreaterThan(0);
    expect(catalog.every((p) => p.text.includes('or get_catalog again, to read it again'))).toBe(true);
    // One order, and the answer is its id.
    expect(orders).toEqual(['ORD-7731']);
    expect(answer).toBe('The order id is ORD-7731.');
    // The recall tool was declared by the guard from the first request with a placeholder on, and
    // never before: until then the tools sent, and so the cached prefix, do not change.
    expect(declared.length).toBe(model.requests.length);
    const firstMasked = model.requests.findIndex((request) => placeholders(request.contents).length > 0);
    expect(firstMasked).toBeGreaterThan(0);
    expect(new Set(declared.slice(0, firstMasked).map((names) => names.join(',')))).toEqual(
      new Set(['create_order,get_catalog']),
    );
    expect(new Set(declared.slice(firstMasked).map((names) => names.join(',')))).toEqual(
      new Set(['create_order,get_catalog,recall_history']),
    );
  });

  it('should read a masked result back with the recall tool it declared, when the placeholder does not carry the id', async () => {
    // The id only deep in the receipt's text, past what the placeholder reads: the recall tool,
    // which the agent was not given, is the way back.
    const { model, orders, answer, beforeQuestion } = await orderSession({}, false);
    const receipt = placeholders(model.requests[beforeQuestion]!.contents).find((p) => p.name === 'create_order');
    expect(receipt?.text).toBeDefined();
    expect(receipt!.text).not.toMatch(ORDER_ID);
    expect(receipt!.text).not.toMatch(/call the tool again|call create_order again/);
    const recalls = model.requests.filter((request) =>
      request.contents.some((content) =>
        content.parts?.some((part) => part.functionResponse?.name === 'recall_history'),
      ),
    );
    expect(recalls.length).toBeGreaterThan(0);
    expect(orders).toEqual(['ORD-7731']);
    expect(answer).toBe('The order id is ORD-7731.');
  });

  it("should declare no tool of its own where masking for cost is off, and leave a tool of the agent's named like it alone", async () => {
    const off = await orderSession({ maskStaleOutputTokens: 0 });
    expect(new Set(off.declared.map((names) => names.join(',')))).toEqual(new Set(['create_order,get_catalog']));
    // A tool of the agent's own named recall_history: kept, and masking for cost stays off (nothing could read back).
    const lookalike = new FunctionTool({ name: 'recall_history', description: 'Something else.', execute: () => ({}) });
    const taken = await orderSession({}, true, [lookalike]);
    expect(new Set(taken.declared.map((names) => names.join(',')))).toEqual(
      new Set(['create_order,get_catalog,recall_history']),
    );
    expect(taken.model.requests.every((request) => placeholders(request.contents).length === 0)).toBe(true);
    expect(taken.warnings.filter((line) => line.includes('masking for cost is off'))).toHaveLength(1);
    expect(taken.orders).toEqual(['ORD-7731']);
  });
});
