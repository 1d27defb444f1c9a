/**
 * ADK's load_memory result (LoadMemoryTool over an InMemoryMemoryService fed by four earlier sessions)
 * cut by the guard through a real Runner: the cut fills its budget, every memory kept keeps its keys and
 * the ends of its text, and a fact in a memory dropped from the middle is read back by the recall tool
 * from the offloaded whole result (the twelfth outside trial lost it: "memory had no order id").
 */
import {
  createEvent,
  InMemoryArtifactService,
  InMemoryMemoryService,
  InMemorySessionService,
  LlmAgent,
  LoadMemoryTool,
  Runner,
  type Event,
} from '@google/adk';
import type { Content, Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard, contextRecallTool } from '../../src/index.js';
import { ScriptedLlm, ScriptedSummarizer, ratioTokenCounter, type ModelScript } from '../../src/testing/index.js';
import { APP_NAME, userMessage } from '../support/agent-harness.js';

const FACT = 'ORD-3-7731';
const USER = 'alice';

/** A clerk's report: 14 log lines; the one in session 3, report 5 states the order id in its middle. */
function report(session: number, item: number): string {
  return Array.from({ length: 14 }, (_, line) =>
    session === 3 && item === 5 && line === 7
      ? `10:07:00 clerk noted the customer's order id is ${FACT} for the late parcel`
      : `10:${String(line).padStart(2, '0')}:00 host-${session}-${item} order parcel shipped, invoice ${item * 100 + line} checked`,
  ).join('\n');
}

/** Four earlier sessions of ten questions and reports each, added to memory. */
async function rememberSessions(sessions: InMemorySessionService, memory: InMemoryMemoryService): Promise<void> {
  for (let number = 1; number <= 4; number += 1) {
    const session = await sessions.createSession({ appName: APP_NAME, userId: USER });
    for (let item = 0; item < 10; item += 1) {
      const question = createEvent({ invocationId: `e-${number}-${item}`, author: 'user' });
      question.content = { role: 'user', parts: [{ text: `Where is my order ${item}?` }] };
      await sessions.appendEvent({ session, event: question });
      const answer = createEvent({ invocationId: `e-${number}-${item}`, author: 'clerk' });
      answer.content = { role: 'model', parts: [{ text: report(number, item) }] };
      await sessions.appendEvent({ session, event: answer });
    }
    await memory.addSessionToMemory(session);
  }
}

function lastParts(request: { contents: readonly Content[] }): Part[] {
  return request.contents.at(-1)?.parts ?? [];
}

/** Load memory; when the fact is not in the cut result, search the stored whole result for it. */
const script: ModelScript = ({ request }) => {
  const response = lastParts(request).find((part) => part.functionResponse)?.functionResponse;
  if (!response)
    return { content: { role: 'model', parts: [{ functionCall: { name: 'load_memory', args: { query: 'order' } } }] } };
  const handle = (response.response as { full_result_artifact?: { name: string } }).full_result_artifact;
  if (response.name === 'load_memory' && !JSON.stringify(response.response).includes(FACT) && handle) {
    const args = { artifact: handle.name, pattern: 'order id' };
    return { content: { role: 'model', parts: [{ functionCall: { name: 'recall_history', args } }] } };
  }
  return { content: { role: 'model', parts: [{ text: 'Done.' }] } };
};

async function loadMemoryTurn() {
  const sessionService = new InMemorySessionService();
  const memoryService = new InMemoryMemoryService();
  await rememberSessions(sessionService, memoryService);
  const model = new ScriptedLlm({ window: 200_000, countTokens: ratioTokenCounter(1), script });
  const agent = new LlmAgent({ name: 'worker', model, tools: [new LoadMemoryTool(), contextRecallTool()] });
  const guard = new ContextGuard({ contextWindow: 200_000, summarizer: new ScriptedSummarizer() });
  const artifactService = new InMemoryArtifactService();
  const runner = new Runner({
    appName: APP_NAME,
    agent,
    sessionService,
    memoryService,
    artifactService,
    plugins: [guard],
  });
  const session = await sessionService.createSession({ appName: APP_NAME, userId: USER });
  const events: Event[] = [];
  for await (const event of runner.runAsync({
    userId: USER,
    sessionId: session.id,
    newMessage: userMessage('What is my order id?'),
  }))
    events.push(event);
  return { model, events };
}

describe('a load_memory result cut by the guard', () => {
  it('should fill the budget with every kept memory whole in its keys, and read a dropped fact back by its handle', async () => {
    const { model, events } = await loadMemoryTurn();
    const sent = lastParts(model.requests[1]!).find((part) => part.functionResponse)!.functionResponse!;
    const { full_result_artifact: handle, ...cut } = sent.response as Record<string, unknown>;
    const memories = cut['memories'] as unknown[];
    // Before the fix: 3,259 bytes, every report reduced to "[... omitted 3 of 3 keys ...]".
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeGreaterThan(0.95 * 10_240);
    expect(JSON.stringify(cut)).not.toMatch(/omitted \d+ of \d+ keys/);
    expect(memories).toContainEqual(expect.stringMatching(/^\[\.\.\. omitted \d+ of 80 items \.\.\.\]$/));
    const kept = memories.filter((memory): memory is { content: string } => typeof memory === 'object');
    for (const memory of kept) expect(Object.keys(memory)).toEqual(['content', 'author', 'timestamp']);
    const reports = kept.filter((memory) => memory.content.startsWith('10:00:00'));
    expect(reports.length).toBeGreaterThan(10);
    for (const memory of reports)
      expect(memory.content).toMatch(/^10:00:00 [^]*\[\.\.\. omitted [^]*:13:00 [^]*checked$/);

    // The fact is in the request, or read back from the whole result by the handle.
    expect(handle).toBeDefined();
    const recalled = events
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionResponse?.name === 'recall_history')?.functionResponse?.response;
    expect(JSON.stringify(cut).includes(FACT) || JSON.stringify(recalled).includes(FACT)).toBe(true);
    expect(JSON.stringify(model.requests.at(-1)!.contents)).toContain(FACT);
  });
});
