/**
 * An `agents` entry that names no agent of the app is a misspelling whose
 * settings would silently apply to nobody: the guard says so once, when the
 * app first runs (through a real Runner) or when it is attached by hand, and
 * it knows every agent of the app (sub-agents and AgentTool children). So for
 * the other options keyed by names the user writes: `prices` and
 * `modelWindows` (models), `tools` and `toolOutputTruncation.tools` (tools).
 */
import { AgentTool, BaseToolset, InMemorySessionService, LlmAgent, Runner, type BaseTool } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger } from '../../src/testing/index.js';
import { appAgentNames } from '../../src/adk/hooks/unmatched-agents-check.js';
import {
  APP_NAME,
  createHarness,
  errorCodes,
  runTurns,
  startSession,
  toolThenAnswerScript,
  USER_ID,
} from '../support/agent-harness.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import { deskAgent, researcherAgent, routerAgent } from '../support/help-desk.js';
import { agentModel } from '../support/scripted-agents.js';

const NAMES_NO_AGENT = /agents\.(\w+) names no agent of this app/;

function guardWith(agents: Record<string, { contextWindow: number }>): {
  guard: ContextGuard;
  logger: CapturingLogger;
} {
  const logger = new CapturingLogger();
  return { guard: new ContextGuard({ agents, logger }), logger };
}

describe('the agents option and the names of the app’s agents', () => {
  it('should warn once, on the first run, about an entry naming no agent, and suggest the name meant', async () => {
    const { guard, logger } = guardWith({ wroker: { contextWindow: 8_000 } });
    const harness = createHarness({ window: 100_000, script: toolThenAnswerScript(0), plugins: [guard] });
    const session = await harness.startSession();
    await harness.runTurns(session.id, 3);
    const warnings = logger.matching(NAMES_NO_AGENT);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.level).toBe('warn');
    expect(warnings[0]?.message).toContain("(its agents: 'worker')");
    expect(warnings[0]?.message).toContain("Did you mean 'worker'?");
  });

  it('should say nothing when every entry names an agent, sub-agents and AgentTool children included', async () => {
    const answers = toolThenAnswerScript(0);
    const researcher = researcherAgent(agentModel('researcher', 8_000, answers), []);
    const billing = deskAgent('billing', agentModel('billing', 16_000, answers), [
      new AgentTool({ agent: researcher }),
    ]);
    const router = routerAgent(agentModel('router', 64_000, answers), [billing]);
    expect(appAgentNames(billing).sort()).toEqual(['billing', 'researcher', 'router']);
    const { guard, logger } = guardWith({ router: { contextWindow: 64_000 }, researcher: { contextWindow: 8_000 } });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent: router, sessionService, plugins: [guard] });
    const events = await runTurns(runner, (await startSession(sessionService)).id, 1);
    expect(events.some((event) => event.author === 'router' && !event.errorCode)).toBe(true);
    expect(logger.matching(NAMES_NO_AGENT)).toEqual([]);
  });

  it("should not take an AgentTool child, when it is called, for an app without its parent's agents and models", async () => {
    // The child runs in a Runner of its own (ADK's AgentTool), with itself as root: judged alone, the
    // parent's entries would name nothing of it.
    const delegate = callThenAnswer({
      call: () => ({ name: 'researcher', args: { request: 'Look it up.' } }),
      answer: () => 'Done.',
      after: 'researcher',
    });
    const researcherModel = agentModel('researcher', 8_000, toolThenAnswerScript(0));
    const billingModel = agentModel('billing', 64_000, delegate);
    const billing = deskAgent('billing', billingModel, [
      new AgentTool({ agent: researcherAgent(researcherModel, []) }),
    ]);
    const price = { input: 1, cachedInput: 0.1, output: 2 };
    const logger = new CapturingLogger();
    const guard = new ContextGuard({
      logger,
      agents: { billing: { contextWindow: 64_000 }, researcher: { contextWindow: 8_000 } },
      modelWindows: { 'scripted-billing': 64_000, 'scripted-researcher': 8_000 },
      prices: { 'scripted-billing': price, 'scripted-researcher': price },
    });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent: billing, sessionService, plugins: [guard] });
    const events = await runTurns(runner, (await startSession(sessionService)).id, 2);
    expect(events.filter((event) => event.errorCode)).toEqual([]);
    // The child was called on both turns, so it was attached and run with itself as root.
    expect(researcherModel.requests).toHaveLength(2);
    expect(logger.matching(/names no (agent|model)|prices no model/)).toEqual([]);
  });

  it('should check an app attached by hand, where no plugin runs', () => {
    const { guard, logger } = guardWith({ suport: { contextWindow: 8_000 } });
    guard.attachTo(routerAgent(agentModel('router', 64_000, toolThenAnswerScript(0)), []));
    expect(logger.matching(NAMES_NO_AGENT).map((line) => NAMES_NO_AGENT.exec(line.message)?.[1])).toEqual(['suport']);
  });

  it("should warn once about a prices entry that prices no model of the app's agents or summarizers", async () => {
    const PRICES_NO_MODEL = /prices\['([^']+)'\] prices no model this app uses/;
    const logger = new CapturingLogger();
    const price = { input: 1, cachedInput: 0.1, output: 2 };
    const guard = new ContextGuard({
      logger,
      // The harness's model is 'scripted-model'; the summarizer's 'summary-model' is priced too.
      prices: { 'scripted-modle': price, 'scripted-model': price, 'summary-model': price },
      summarizer: { model: 'summary-model', generateContentAsync: async function* () {} },
    });
    const harness = createHarness({ window: 100_000, script: toolThenAnswerScript(0), plugins: [guard] });
    await harness.runTurns((await harness.startSession()).id, 2);
    const warnings = logger.matching(PRICES_NO_MODEL);
    expect(warnings.map((line) => PRICES_NO_MODEL.exec(line.message)?.[1])).toEqual(['scripted-modle']);
    expect(warnings[0]?.message).toContain("Did you mean 'scripted-model'?");
  });

  it('should take the name of a Summarizer of your own as a model the app uses, as its price is found by it', async () => {
    const PRICES_NO_MODEL = /prices\['([^']+)'\] prices no model this app uses/;
    const logger = new CapturingLogger();
    const price = { input: 1, cachedInput: 0.1, output: 2 };
    const guard = new ContextGuard({
      logger,
      prices: { 'scripted-model': price, 'my-summarizer': price, 'my-summariser': price },
      summarizer: { name: 'my-summarizer', summarize: async () => ({ text: 'summary' }) },
    });
    const harness = createHarness({ window: 100_000, script: toolThenAnswerScript(0), plugins: [guard] });
    await harness.runTurns((await harness.startSession()).id, 2);
    const warnings = logger.matching(PRICES_NO_MODEL);
    expect(warnings.map((line) => PRICES_NO_MODEL.exec(line.message)?.[1])).toEqual(['my-summariser']);
  });

  it('should still warn about a modelWindows entry for a Summarizer of your own: its window is its contextWindow', async () => {
    const WINDOW_NO_MODEL = /modelWindows\['([^']+)'\] names no model this app uses/;
    const logger = new CapturingLogger();
    const guard = new ContextGuard({
      logger,
      modelWindows: { 'my-summarizer': 50_000 },
      summarizer: { name: 'my-summarizer', summarize: async () => ({ text: 'summary' }) },
    });
    const harness = createHarness({ window: 100_000, script: toolThenAnswerScript(0), plugins: [guard] });
    await harness.runTurns((await harness.startSession()).id, 2);
    const warnings = logger.matching(WINDOW_NO_MODEL);
    expect(warnings.map((line) => WINDOW_NO_MODEL.exec(line.message)?.[1])).toEqual(['my-summarizer']);
  });

  it("should warn once about a modelWindows entry that names no model of the app's agents or summarizers", async () => {
    const WINDOW_NO_MODEL = /modelWindows\['([^']+)'\] names no model this app uses/;
    const logger = new CapturingLogger();
    const guard = new ContextGuard({
      logger,
      // The harness's model is 'scripted-model'; the summarizer's 'summary-model' has its window set too.
      modelWindows: { 'scripted-modle': 8_000, 'models/scripted-model': 100_000, 'summary-model': 32_000 },
      summarizer: { model: 'summary-model', generateContentAsync: async function* () {} },
    });
    const harness = createHarness({ window: 100_000, script: toolThenAnswerScript(0), plugins: [guard] });
    await harness.runTurns((await harness.startSession()).id, 2);
    const warnings = logger.matching(WINDOW_NO_MODEL);
    // 'models/scripted-model' is not what the lookup reads for 'scripted-model', so it is missed too.
    expect(warnings.map((line) => WINDOW_NO_MODEL.exec(line.message)?.[1])).toEqual([
      'scripted-modle',
      'models/scripted-model',
    ]);
    expect(warnings[0]?.level).toBe('warn');
    expect(warnings[0]?.message).toContain("Did you mean 'scripted-model'?");
  });

  it('should warn about a key no app of a guard serving several has matched, and void the warning when one does', async () => {
    // The thirty-sixth outside trial: one guard, three Runners, each app warned about the other apps' windows and prices.
    const NAMES_NOTHING = /(modelWindows|prices)\['([^']+)'\] (names|prices) no model this app uses/;
    const logger = new CapturingLogger();
    const price = { input: 1, cachedInput: 0.1, output: 2 };
    const guard = new ContextGuard({
      logger,
      modelWindows: { 'scripted-small': 8_000, 'scripted-large': 64_000, 'scripted-lrage': 64_000 },
      prices: { 'scripted-small': price, 'scripted-large': price },
    });
    const sessionService = new InMemorySessionService();
    const answers = toolThenAnswerScript(0);
    const windows = new Map<string, number | undefined>();
    for (const [name, window] of [
      ['small', 8_000],
      ['large', 64_000],
      ['small', 8_000],
    ] as const) {
      const agent = new LlmAgent({ name: 'assistant', model: agentModel(name, window, answers), instruction: 'Help.' });
      const runner = new Runner({ appName: `app-${name}`, agent, sessionService, plugins: [guard] });
      const { id } = await sessionService.createSession({ appName: `app-${name}`, userId: USER_ID });
      expect(errorCodes(await runTurns(runner, id, 1))).toEqual([]);
      const stored = await sessionService.getSession({ appName: `app-${name}`, userId: USER_ID, sessionId: id });
      windows.set(name, guard.status(stored, 'assistant').window);
    }
    expect(Object.fromEntries(windows)).toEqual({ small: 8_000, large: 64_000 });
    const warned = logger.matching(NAMES_NOTHING).map((line) => NAMES_NOTHING.exec(line.message)?.slice(1, 3));
    // At the first app's run, the second's keys were unknown; 'scripted-lrage' matches no app at all.
    expect(warned).toEqual([
      ['prices', 'scripted-large'],
      ['modelWindows', 'scripted-large'],
      ['modelWindows', 'scripted-lrage'],
    ]);
    const voided = logger.matching(/the warning that it named nothing.*is void/);
    expect(voided.map((line) => /option (\w+)\['([^']+)'\]/.exec(line.message)?.slice(1, 3))).toEqual([
      ['prices', 'scripted-large'],
      ['modelWindows', 'scripted-large'],
    ]);
    expect(voided.every((line) => line.level === 'info')).toBe(true);
  });

  it('should warn once about a tools or toolOutputTruncation.tools entry that names no tool it applies to', async () => {
    const NO_TOOL = /the option (\S+) names no tool of ([^(]+) \(/;
    const logger = new CapturingLogger();
    const guard = new ContextGuard({
      logger,
      tools: { fetch_log: { readOnly: true } },
      toolOutputTruncation: { tools: { fetch_logs: { maxLines: 40, headLines: 20, tailLines: 20 } } },
      agents: { worker: { toolOutputTruncation: { tools: { fetchlogs: false } }, tools: { fetch_logs: {} } } },
    });
    const harness = createHarness({ window: 100_000, script: toolThenAnswerScript(2_000), plugins: [guard] });
    await harness.runTurns((await harness.startSession()).id, 2);
    const warnings = logger.matching(NO_TOOL);
    expect(warnings.map((line) => NO_TOOL.exec(line.message)?.slice(1, 3))).toEqual([
      ['tools.fetch_log', 'this app'],
      ['agents.worker.toolOutputTruncation.tools.fetchlogs', "agent 'worker'"],
    ]);
    expect(warnings.every((line) => line.message.includes("Did you mean 'fetch_logs'?"))).toBe(true);
  });

  it("should not guess about tool names a toolset lists only at run time, but still check other agents' keys", () => {
    /** A toolset like an MCP server's: its tools are known only once it is asked. */
    class RemoteToolset extends BaseToolset {
      constructor() {
        super([]);
      }
      getTools(): Promise<BaseTool[]> {
        return Promise.resolve([]);
      }
      close(): Promise<void> {
        return Promise.resolve();
      }
    }
    const logger = new CapturingLogger();
    const guard = new ContextGuard({
      logger,
      tools: { remote_search: { readOnly: true } },
      agents: { billing: { tools: { refnd: {} } }, remote: { tools: { remote_search: { readOnly: true } } } },
    });
    const answers = toolThenAnswerScript(0);
    const remote = new LlmAgent({
      name: 'remote',
      model: agentModel('remote', 8_000, answers),
      tools: [new RemoteToolset()],
    });
    const billing = deskAgent('billing', agentModel('billing', 8_000, answers), [
      new AgentTool({ agent: deskAgent('refund', agentModel('refund', 8_000, answers)) }),
    ]);
    guard.attachTo(routerAgent(agentModel('router', 8_000, answers), [billing, remote]));
    const warnings = logger.matching(/names no tool of/);
    expect(warnings.map((line) => /the option (\S+) /.exec(line.message)?.[1])).toEqual(['agents.billing.tools.refnd']);
    expect(warnings[0]?.message).toContain("Did you mean 'refund'?");
  });
});
