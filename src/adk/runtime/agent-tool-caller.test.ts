import { Context, createSession, FunctionTool, InvocationContext, LlmAgent, PluginManager } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ratioTokenCounter, ScriptedLlm } from '../../testing/index.js';
import { currentCaller, markToolCall, wrapAgentToolRun, type AgentToolCaller } from './agent-tool-caller.js';
import type { GuardAgentCallbackSet } from './attach-to-agent.js';
import { scopeOfContext, sessionScopeKey, userOfContext } from './session-scope.js';

/** A real context, as ADK builds it for a call in `appName`'s session `chat-1` of `user-1`. */
function contextIn(appName: string): Context {
  const model = new ScriptedLlm({
    window: 1_000_000,
    countTokens: ratioTokenCounter(1),
    script: () => ({ content: { role: 'model', parts: [{ text: 'ok' }] } }),
  });
  const session = createSession({ id: 'chat-1', appName, userId: 'user-1' });
  const invocationContext = new InvocationContext({
    invocationId: `invocation-${appName}`,
    session,
    agent: new LlmAgent({ name: 'lead', model }),
    pluginManager: new PluginManager(),
  });
  return new Context({ invocationContext, functionCallId: 'call-1' });
}

/** A stand-in for a guard's callback set: only its identity matters here. */
function callbackSet(): GuardAgentCallbackSet {
  const nothing = () => undefined;
  return { beforeModel: nothing, afterModel: nothing, afterTool: nothing, beforeTool: nothing };
}

/** A tool that reports, after a pause, the caller it runs under and the scope of a child call in `researcher`. */
function probeTool(): FunctionTool {
  const tool = new FunctionTool({
    name: 'researcher',
    description: 'Probe.',
    execute: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { caller: currentCaller(), scope: scopeOfContext(contextIn('researcher')) };
    },
  });
  wrapAgentToolRun(tool);
  return tool;
}

type Probe = { caller: AgentToolCaller | undefined; scope: string };

async function run(tool: FunctionTool, toolContext: Context): Promise<Probe> {
  return (await tool.runAsync({ args: {}, toolContext })) as Probe;
}

describe('the caller of an AgentTool call', () => {
  it('should run each marked call under its own guard, also when two run at the same time', async () => {
    const tool = probeTool();
    const [first, second] = [callbackSet(), callbackSet()];
    const [inFirst, inSecond] = [contextIn('app-1'), contextIn('app-2')];
    markToolCall(inFirst, first);
    markToolCall(inSecond, second);
    const [one, two] = await Promise.all([run(tool, inFirst), run(tool, inSecond)]);
    expect(one.caller?.callbacks).toBe(first);
    expect(one.caller?.appPath).toEqual(['app-1']);
    expect(two.caller?.callbacks).toBe(second);
    expect(two.caller?.appPath).toEqual(['app-2']);
  });

  it('should keep the first mark of a call (the plugin runs before agent-level callbacks)', async () => {
    const tool = probeTool();
    const [plugin, agentLevel] = [callbackSet(), callbackSet()];
    const context = contextIn('app-1');
    markToolCall(context, plugin);
    markToolCall(context, agentLevel);
    expect((await run(tool, context)).caller?.callbacks).toBe(plugin);
  });

  it('should leave a call no guard marked as it was, and wrap a tool once', async () => {
    const tool = probeTool();
    const ownRun = () => Object.getOwnPropertyDescriptor(tool, 'runAsync')?.value as unknown;
    const wrapped = ownRun();
    wrapAgentToolRun(tool);
    expect(ownRun()).toBe(wrapped);
    const probe = await run(tool, contextIn('app-1'));
    expect(probe.caller).toBeUndefined();
    expect(probe.scope).toBe(sessionScopeKey('researcher', 'user-1', 'chat-1'));
  });

  it("should give the child's calls a scope that includes the calling app", async () => {
    const tool = probeTool();
    const [inFirst, inSecond] = [contextIn('app-1'), contextIn('app-2')];
    markToolCall(inFirst, callbackSet());
    markToolCall(inSecond, callbackSet());
    const [one, two] = await Promise.all([run(tool, inFirst), run(tool, inSecond)]);
    // ADK names both child sessions after the child, with the same user and session id.
    expect(one.scope).not.toBe(two.scope);
    expect(one.scope).toBe(sessionScopeKey(['app-1', 'researcher'], 'user-1', 'chat-1'));
    // No app name, however spelt, gives a child's scope.
    expect(one.scope).not.toBe(sessionScopeKey('["app-1","researcher"]', 'user-1', 'chat-1'));
  });

  it("should make one invocation's keys again under another caller, and for its session's user or id changed", async () => {
    const child = contextIn('researcher');
    const tool = new FunctionTool({
      name: 'researcher',
      description: 'Probe.',
      execute: () => ({ scope: scopeOfContext(child), user: userOfContext(child) }),
    });
    wrapAgentToolRun(tool);
    expect(scopeOfContext(child)).toBe(sessionScopeKey('researcher', 'user-1', 'chat-1'));
    const caller = contextIn('app-1');
    markToolCall(caller, callbackSet());
    const inside = (await tool.runAsync({ args: {}, toolContext: caller })) as { scope: string; user: string };
    expect(inside.scope).toBe(sessionScopeKey(['app-1', 'researcher'], 'user-1', 'chat-1'));
    expect(inside.user).toBe(JSON.stringify(['app-1', 'user-1']));
    expect(scopeOfContext(child)).toBe(sessionScopeKey('researcher', 'user-1', 'chat-1'));
    expect(userOfContext(child)).toBe(JSON.stringify(['researcher', 'user-1']));
    const session = child.invocationContext.session as { userId: string; id: string };
    session.userId = 'user-2';
    expect(scopeOfContext(child)).toBe(sessionScopeKey('researcher', 'user-2', 'chat-1'));
    expect(userOfContext(child)).toBe(JSON.stringify(['researcher', 'user-2']));
    session.id = 'chat-2';
    expect(scopeOfContext(child)).toBe(sessionScopeKey('researcher', 'user-2', 'chat-2'));
  });
});
