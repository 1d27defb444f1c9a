/**
 * Which app is calling an `AgentTool` child right now, so that a child agent
 * shared by two apps is guarded by the calling app's guard and policy.
 *
 * ADK 2.0.0 runs the child in a new Runner named after the child
 * (`tools/agent_tool.js`), so inside the child nothing says which app called
 * it, and the guard callbacks on the shared child object are those of the
 * first guard that attached. So the calling guard marks the tool call in its
 * `beforeToolCallback` (plugin or agent-level), and the `AgentTool`'s
 * `runAsync` is wrapped once to run the child inside an `AsyncLocalStorage`
 * scope holding that guard's callbacks: everything the child does awaits
 * inside `runAsync`, so the scope reaches the child's callbacks, and two
 * concurrent calls each keep their own. A call no guard marked (an
 * unguarded parent) runs as before.
 *
 * The storage and the marks live on `globalThis` under a registered symbol,
 * like the callback brand, so two copies of the package share them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { BaseTool, Context } from '@google/adk';
import type { GuardAgentCallbackSet } from './attach-to-agent.js';
import { readCallerAppsWith } from '../../logging/session-log.js';
import { MAX_CHILD_CALLS, type ChildCall } from '../../records/child-calls.js';
import { finishChildRun } from './child-calls.js';

/** The guard of the app whose tool call is running the child, and the apps it runs under (outermost first). */
export interface AgentToolCaller {
  readonly callbacks: GuardAgentCallbackSet;
  readonly appPath: readonly string[];
  /** The call records of the child's model calls so far (its own children's too), for the call's answer. */
  readonly childCalls?: ChildCall[] | undefined;
  /** The caller whose `AgentTool` call runs this one's parent, if any. */
  readonly outer?: AgentToolCaller | undefined;
}

interface CallerRegistry {
  readonly scope: AsyncLocalStorage<AgentToolCaller>;
  /** Tool calls (their `Context`) marked by a guard's `beforeToolCallback`. */
  readonly marks: WeakMap<object, AgentToolCaller>;
}

const REGISTRY = Symbol.for('adk-context-guard.agent-tool-caller.v1');
const WRAPPED_RUN = Symbol.for('adk-context-guard.agent-tool-run.v1');

function registry(): CallerRegistry {
  const holder = globalThis as { [REGISTRY]?: CallerRegistry };
  return (holder[REGISTRY] ??= { scope: new AsyncLocalStorage(), marks: new WeakMap() });
}

/** The caller whose `AgentTool` call is running in this async context, if any. */
export function currentCaller(): AgentToolCaller | undefined {
  return registry().scope.getStore();
}

/** Notes a call record made in an `AgentTool` child's run: it goes on the answer of each call up the chain. */
export function noteChildCall(invocationId: string, record: Readonly<Record<string, unknown>>): void {
  for (let caller = currentCaller(); caller; caller = caller.outer)
    if (caller.childCalls && caller.childCalls.length < MAX_CHILD_CALLS)
      caller.childCalls.push({ invocationId, record });
}

// A child's log lines name the apps that called it before its own (logging/session-log.ts).
readCallerAppsWith(() => currentCaller()?.appPath);

/**
 * Marks `toolContext`'s call as made by the guard with `callbacks`. The first
 * mark wins: plugins run before agent-level callbacks, so the app's own
 * plugin guard is preferred over callbacks another app attached to the parent.
 */
export function markToolCall(toolContext: Context, callbacks: GuardAgentCallbackSet): void {
  const { marks } = registry();
  if (marks.has(toolContext)) return;
  const outer = currentCaller();
  const appPath = [...(outer?.appPath ?? []), toolContext.invocationContext.appName];
  marks.set(toolContext, { callbacks, appPath, childCalls: [], outer });
}

type RunAsync = BaseTool['runAsync'];

function isWrapped(tool: BaseTool): boolean {
  const run: unknown = Object.getOwnPropertyDescriptor(tool, 'runAsync')?.value;
  return typeof run === 'function' && WRAPPED_RUN in run;
}

/** Wraps `tool.runAsync` (once, whichever guard or copy comes first) to run inside its marked caller's scope. */
export function wrapAgentToolRun(tool: BaseTool): void {
  if (isWrapped(tool)) return;
  const original = tool.runAsync.bind(tool);
  const wrapped: RunAsync = (request) => {
    const { scope, marks } = registry();
    const caller = marks.get(request.toolContext);
    if (!caller) return original(request);
    return scope
      .run(caller, () => original(request))
      .finally(() => {
        // Counting never fails the tool: a failure here leaves the child's calls to its usage record, as before.
        try {
          finishChildRun(request.toolContext, caller);
        } catch {
          /* left uncounted on the answer */
        }
      });
  };
  Object.defineProperty(wrapped, WRAPPED_RUN, { value: true });
  tool.runAsync = wrapped;
}
