/**
 * An `AgentTool` child in a long tool loop prepares its summaries in the background (the default). A preparation
 * that settles while the child still runs is billed on a state event of the child's session; the caller's session
 * had the child's model calls on the answer of its call (records/child-calls.ts) but not that bill (the fifty-third
 * outside trial: 13 of 16 summarizer calls, 16% of their prompt tokens missing from the caller's status()).
 */
import { AgentTool, App, FunctionTool, InMemorySessionService, LlmAgent, Runner, type LlmRequest } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ContextGuard } from '../../src/index.js';
import { proseText, ratioTokenCounter, ScriptedLlm, ScriptedSummarizer } from '../../src/testing/index.js';
import { runTurn, USER_ID } from '../support/agent-harness.js';

const say = (text: string) => ({ content: { role: 'model', parts: [{ text }] } });
const call = (name: string, args: Record<string, unknown>) => ({
  content: { role: 'model', parts: [{ functionCall: { name, args } }] },
});

/** The researcher searches six times a turn, then answers; the coordinator calls it, then answers. */
function script({ request }: { request: LlmRequest }) {
  const agent = String(request.config?.labels?.['adk_agent_name'] ?? '');
  const contents = request.contents ?? [];
  if (agent === 'researcher') {
    let steps = 0;
    for (let i = contents.length - 1; i >= 0 && !contents[i]!.parts?.some((part) => part.text); i--)
      if (contents[i]!.parts?.some((part) => part.functionResponse?.name === 'web_search')) steps++;
    return steps < 6 ? call('web_search', { q: 'rules', step: steps }) : say(`Notes: ${proseText(200, steps)}`);
  }
  const answered = contents.at(-1)?.parts?.some((part) => part.functionResponse) ?? false;
  return answered ? say(`Done: ${proseText(200, contents.length)}`) : call('researcher', { request: 'customs rules' });
}

describe("an AgentTool child's summaries prepared in the background", () => {
  it("should be billed in the caller's status() as in the child's own session", async () => {
    const model = new ScriptedLlm({ window: 8_000, countTokens: ratioTokenCounter(1.2), script });
    const search = new FunctionTool({
      name: 'web_search',
      description: 'Search the web.',
      parameters: z.object({ q: z.string(), step: z.number() }),
      execute: ({ q, step }) => Promise.resolve({ q, step, results: proseText(2_500, step + 3) }),
    });
    const researcher = new LlmAgent({ name: 'researcher', model, description: 'Researches.', tools: [search] });
    const coordinator = new LlmAgent({ name: 'coordinator', model, tools: [new AgentTool({ agent: researcher })] });
    const guard = new ContextGuard({ contextWindow: 8_000, summarizer: new ScriptedSummarizer() });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({
      app: new App({ name: 'desk', rootAgent: coordinator, plugins: [guard] }),
      sessionService,
    });
    const session = await sessionService.createSession({ appName: 'desk', userId: USER_ID });
    for (let turn = 0; turn < 12; turn++)
      await runTurn(runner, session.id, `Turn ${turn}: research the customs rules.`);
    const read = (appName: string) => sessionService.getSession({ appName, userId: USER_ID, sessionId: session.id });
    const [caller, child] = await Promise.all([read('desk'), read('researcher')]);
    const inCaller = caller && guard.status(caller, 'researcher');
    const inChild = child && guard.status(child, 'researcher');
    expect(inChild?.summarizerCalls).toBeGreaterThan(0);
    expect(inCaller).toMatchObject({
      modelCalls: inChild?.modelCalls,
      summarizerCalls: inChild?.summarizerCalls,
      summarizerPromptTokens: inChild?.summarizerPromptTokens,
      countsFrom: 'events',
    });
  });
});
