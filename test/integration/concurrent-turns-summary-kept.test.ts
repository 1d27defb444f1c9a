/**
 * Two turns of one session at once in a coordinator with desks it transfers to and a researcher it calls as a
 * tool (the forty-ninth outside trial, app 3). Each turn sees the history as it was when it started plus its own
 * events, so a summary made or prepared in one turn is located in the other's contents, and in the next round's,
 * where the other turn's events sit among its own. The summary kept applying there: the coordinator's stored
 * summary was dropped and the same range compacted again on seven calls of thirty rounds (once when the turns run
 * one after another), because a prepared summary applied at a moved watermark kept the anchor of its old place and
 * a repeated content (the same transfer call in both turns) made the covered prefix look incomplete.
 */
import { AgentTool, App, FunctionTool, InMemorySessionService, LlmAgent, Runner, type LlmRequest } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ContextGuard } from '../../src/index.js';
import {
  answeringSummaries,
  CapturingLogger,
  logText,
  proseText,
  ratioTokenCounter,
  ScriptedLlm,
  type ModelScript,
} from '../../src/testing/index.js';
import { errorCodes, runTurn } from '../support/agent-harness.js';

const WINDOW = 16_000;

const tools = {
  invoices: new FunctionTool({
    name: 'get_invoices',
    description: 'Invoices of the customer.',
    parameters: z.object({ month: z.string() }),
    execute: ({ month }) =>
      Promise.resolve({
        month,
        invoices: Array.from({ length: 30 }, (_, k) => ({ id: `INV-${k}`, note: proseText(60, k) })),
      }),
  }),
  parcel: new FunctionTool({
    name: 'track_parcel',
    description: 'Parcel tracking log.',
    parameters: z.object({ parcel: z.string() }),
    execute: ({ parcel }) => Promise.resolve({ parcel, log: logText(5_000, parcel.length) }),
  }),
  search: new FunctionTool({
    name: 'web_search',
    description: 'Search the web.',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => Promise.resolve({ q, results: proseText(7_000, q.length) }),
  }),
};

const say = (text: string) => ({ content: { role: 'model', parts: [{ text }] } });
const call = (name: string, args: Record<string, unknown>) => ({
  content: { role: 'model', parts: [{ functionCall: { name, args } }] },
});

function textOf(content: { parts?: Array<{ text?: string }> } | undefined): string {
  return (content?.parts ?? []).map((part) => part.text ?? '').join('');
}

/** The user's latest routed message in a request. */
function routedMessage(request: LlmRequest): string {
  const contents = request.contents ?? [];
  for (let index = contents.length - 1; index >= 0; index--) {
    const text = textOf(contents[index]);
    if (contents[index]?.role === 'user' && /#(route|research)/.test(text)) return text;
  }
  return '';
}

/** Routes by the message: a desk calls its tool and answers; the coordinator transfers or calls the researcher. */
const script: ModelScript = ({ request }) => {
  const agent = String(request.config?.labels?.['adk_agent_name'] ?? '');
  const contents = request.contents ?? [];
  const response = contents.at(-1)?.parts?.find((part) => part.functionResponse)?.functionResponse;
  const message = routedMessage(request);
  const declared = (request.config?.tools ?? []).flatMap((tool) =>
    'functionDeclarations' in tool ? (tool.functionDeclarations ?? []).map((d) => d.name) : [],
  );
  if (agent === 'researcher') return response ? say(`Notes: ${proseText(300, 5)}`) : call('web_search', { q: 'rules' });
  if (response && response.name !== 'transfer_to_agent')
    return say(`${agent} done with ${response.name}: ${proseText(1_000, message.length)}`);
  const target = /#route (\w+)/.exec(message)?.[1];
  if (message.includes('#research') && agent === 'coordinator') return call('researcher', { request: 'customs rules' });
  if ((message.includes('#research') || (target && target !== agent)) && declared.includes('transfer_to_agent'))
    return call('transfer_to_agent', { agentName: message.includes('#research') ? 'coordinator' : target });
  if (agent === 'billing') return call('get_invoices', { month: `2026-${message.length % 12}` });
  if (agent === 'shipping') return call('track_parcel', { parcel: `PX${message.length}` });
  return say(`coordinator: ${proseText(200, message.length)}`);
};

function desk(name: string, model: ScriptedLlm, tool: FunctionTool): LlmAgent {
  return new LlmAgent({
    name,
    model,
    description: `Handles ${name}.`,
    instruction: `You handle ${name}.`,
    tools: [tool],
  });
}

const MESSAGES = [
  '#route billing why was I charged twice?',
  '#route shipping where is my parcel?',
  '#research what are the customs rules?',
  'thanks, that is all',
];

/** Rounds of two turns of one session at once, on a 16k window. */
async function concurrentRounds(rounds: number) {
  const model = new ScriptedLlm({
    window: WINDOW,
    countTokens: ratioTokenCounter(1.3),
    script: answeringSummaries(script, 1_024),
  });
  const researcher = new LlmAgent({ name: 'researcher', model, description: 'Researches.', tools: [tools.search] });
  const coordinator = new LlmAgent({
    name: 'coordinator',
    model,
    instruction: 'Route the customer to billing or shipping; use researcher for open questions.',
    subAgents: [desk('billing', model, tools.invoices), desk('shipping', model, tools.parcel)],
    tools: [new AgentTool({ agent: researcher })],
  });
  const logger = new CapturingLogger();
  const guard = new ContextGuard({ contextWindow: WINDOW, logger });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({
    app: new App({ name: 'desk', rootAgent: coordinator, plugins: [guard] }),
    sessionService,
  });
  const session = await sessionService.createSession({ appName: 'desk', userId: 'user-1' });
  const errors: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const turns = [0, 1].map((k) => runTurn(runner, session.id, `[${round}${k}] ${MESSAGES[(round + k) % 4]}`));
    for (const events of await Promise.all(turns)) errors.push(...errorCodes(events));
  }
  const stored = await sessionService.getSession({ appName: 'desk', userId: 'user-1', sessionId: session.id });
  if (!stored) throw new Error('the session is gone');
  return { model, guard, logger, stored, errors };
}

describe('two turns of one session at once in a coordinator with desks and an AgentTool child', () => {
  it('should keep applying the stored summaries instead of compacting the same range again', async () => {
    const { model, guard, logger, stored, errors } = await concurrentRounds(24);
    expect(errors).toEqual([]);
    expect(model.rejectedRequests).toEqual([]);
    expect(logger.matching('stored summary not applied')).toEqual([]);
    const { compactions } = guard.status(stored, 'coordinator');
    expect(compactions).toBeGreaterThan(0);
    expect(compactions).toBeLessThanOrEqual(2);
  });

  it("should count every call of the child in the caller's session, however the runs overlapped", async () => {
    // Each run copies the child's usage record into the caller's state; the later of two overlapping runs
    // overwrote the earlier's calls (the forty-ninth trial: 44 of 58). The records on each call's answer add up.
    const { model, guard, stored } = await concurrentRounds(12);
    const served = model.requests.filter((request) => !request.rejected && request.agentName === 'researcher');
    const status = guard.status(stored, 'researcher');
    expect(served.length).toBeGreaterThan(4);
    expect(status).toMatchObject({ modelCalls: served.length, countsFrom: 'events' });
    expect(status.promptTokens).toBe(served.reduce((sum, request) => sum + request.promptTokens, 0));
  });
});
