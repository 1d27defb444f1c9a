/**
 * Which agents `status()` lists in each session of an app with `AgentTool` children. ADK seeds a child's session
 * with a copy of the caller's state (the caller's agents' records, frozen there) and copies the child's state back
 * to the caller (the records of the child's own agents). Review 36 found a rule on app names alone wrong both ways:
 * an app named like its root agent kept the caller listed in the child's session, and a child's sub-agents vanished
 * from the caller's session.
 */
import { AgentTool, InMemorySessionService, LlmAgent, Runner, SequentialAgent, type BaseAgent } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, logText, ratioTokenCounter } from '../../src/testing/index.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { userMessage } from '../support/agent-harness.js';

const USER = 'u1';

function calling(name: string, child: string): ScriptedLlm {
  return new ScriptedLlm({
    model: `scripted-${name}`,
    window: 64_000,
    countTokens: ratioTokenCounter(2),
    script: callThenAnswer({
      after: child,
      call: ({ index }) => ({ name: child, args: { request: `Question ${index}.` } }),
      answer: ({ index }) => `${name} answer ${index}: ${logText(100, index)}`,
    }),
  });
}

function answering(name: string): ScriptedLlm {
  return new ScriptedLlm({
    model: `scripted-${name}`,
    window: 64_000,
    countTokens: ratioTokenCounter(2),
    script: ({ index }) => ({ content: { role: 'model', parts: [{ text: `${name} says ${index}` }] } }),
  });
}

const leaf = (name: string) => new LlmAgent({ name, model: answering(name), instruction: `You are ${name}.` });
const caller = (name: string, child: BaseAgent) =>
  new LlmAgent({
    name,
    description: `${name} delegates.`,
    model: calling(name, child.name),
    instruction: `You are ${name}.`,
    tools: [new AgentTool({ agent: child })],
  });

/** Runs `root` under `app` for a few turns; the agents `status()` lists in the session of each app named. */
async function listed(
  app: string,
  root: LlmAgent,
  sessions: readonly string[],
  logger = new CapturingLogger(),
): Promise<Record<string, string[]>> {
  const guard = new ContextGuard({ logger });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: app, agent: root, sessionService, plugins: [guard] });
  const { id } = await sessionService.createSession({ appName: app, userId: USER });
  for (let turn = 0; turn < 3; turn++)
    for await (const _ of runner.runAsync({ userId: USER, sessionId: id, newMessage: userMessage(`turn ${turn}`) }));
  const out: Record<string, string[]> = {};
  for (const name of sessions) {
    const session = await sessionService.getSession({ appName: name, userId: USER, sessionId: id });
    out[name] = (guard.status(session) as { agentName: string }[]).map((status) => status.agentName);
  }
  return out;
}

describe("status() of an app's sessions with AgentTool children", () => {
  it('should keep the caller out of the child session when the app is named like its root agent', async () => {
    const lists = await listed('lead', caller('lead', leaf('researcher')), ['lead', 'researcher']);
    expect(lists).toEqual({ lead: ['lead', 'researcher'], researcher: ['researcher'] });
  });

  it("should list a child's sub-agents in the caller's session, from the state ADK copies back", async () => {
    const pipeline = new SequentialAgent({
      name: 'pipeline',
      description: 'Two steps.',
      subAgents: [leaf('step1'), leaf('step2')],
    });
    const lists = await listed('shop', caller('lead', pipeline), ['shop', 'pipeline']);
    expect(lists).toEqual({ shop: ['lead', 'step1', 'step2'], pipeline: ['step1', 'step2'] });
  });

  it("should list a child's child in every session above it, and no ancestor in any below", async () => {
    const top = caller('top', caller('lead', leaf('researcher')));
    const logger = new CapturingLogger();
    const lists = await listed('shop', top, ['shop', 'lead', 'researcher'], logger);
    // The child's own lines name the apps that called it (its session is named after it): review 36.
    expect(logger.matching("unknown model 'scripted-researcher'")[0]?.message).toContain(
      'app shop > lead > researcher',
    );
    expect(lists).toEqual({
      shop: ['lead', 'researcher', 'top'],
      lead: ['lead', 'researcher'],
      researcher: ['researcher'],
    });
  });
});
