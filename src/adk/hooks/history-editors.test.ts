import { describe, expect, it } from 'vitest';
import {
  BasePlugin,
  LlmAgent,
  PluginManager,
  TokenBasedContextCompactor,
  TruncatingContextCompactor,
  type InvocationContext,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import { ContextGuard } from '../../index.js';
import { historyMayBeEdited, requestMayBeEditedAfter, requestMayBeEditedAfterCallback } from './history-editors.js';

/** A plugin that only observes responses: it cannot edit a request. */
class ObservingPlugin extends BasePlugin {
  override async afterModelCallback(): Promise<LlmResponse | undefined> {
    return undefined;
  }
}

/** A plugin with a before-model callback: it could edit the request before a plugin after it. */
class EditingPlugin extends BasePlugin {
  override async beforeModelCallback({ llmRequest }: { llmRequest: LlmRequest }): Promise<LlmResponse | undefined> {
    llmRequest.contents = [];
    return undefined;
  }
}

/** What the decision reads of a call: the runner's plugin manager and the calling agent. */
function callOf(plugins: BasePlugin[], agent: LlmAgent): InvocationContext {
  return { pluginManager: new PluginManager(plugins), agent } as unknown as InvocationContext;
}

describe('historyMayBeEdited', () => {
  const guard = new ContextGuard({ contextWindow: 100_000 });
  const plain = () => new LlmAgent({ name: 'worker' });

  it('should trust the history when the guard is the only plugin, or the plugins before it cannot edit a request', () => {
    expect(historyMayBeEdited(callOf([guard], plain()), guard)).toBe(false);
    expect(historyMayBeEdited(callOf([new ObservingPlugin('observer'), guard], plain()), guard)).toBe(false);
  });

  it('should not count a plugin after the guard: the guard measured the request before it ran', () => {
    expect(historyMayBeEdited(callOf([guard, new EditingPlugin('after')], plain()), guard)).toBe(false);
  });

  it('should count a plugin before the guard that defines a before-model callback', () => {
    expect(historyMayBeEdited(callOf([new EditingPlugin('before'), guard], plain()), guard)).toBe(true);
  });

  it('should count request processors other than ADK defaults on any agent of the tree (a context compactor)', () => {
    const compactor = () => new TruncatingContextCompactor({ threshold: 100 });
    const compacting = new LlmAgent({ name: 'worker', contextCompactors: [compactor()] });
    expect(historyMayBeEdited(callOf([guard], compacting), guard)).toBe(true);
    const child = new LlmAgent({ name: 'child', contextCompactors: [compactor()] });
    const root = new LlmAgent({ name: 'root', subAgents: [child, new LlmAgent({ name: 'other' })] });
    // The other agent has no compactor, but shares the session whose events the child's compactor rewrites.
    expect(historyMayBeEdited(callOf([guard], root.subAgents[1] as LlmAgent), guard)).toBe(true);
  });

  it('should be exact when the guard is not among the plugins (it runs as an agent callback)', () => {
    expect(historyMayBeEdited(callOf([], plain()), guard)).toBe(true);
  });

  it('should trust the history with compactors that only append a summary event, not with one beside them that rewrites', () => {
    const summarizer = { summarize: () => Promise.reject(new Error('unused')) } as never;
    const tokenBased = () => new TokenBasedContextCompactor({ tokenThreshold: 100, eventRetentionSize: 2, summarizer });
    const appending = new LlmAgent({ name: 'worker', contextCompactors: [tokenBased()] });
    expect(historyMayBeEdited(callOf([guard], appending), guard)).toBe(false);
    const mixed = new LlmAgent({
      name: 'worker',
      contextCompactors: [tokenBased(), new TruncatingContextCompactor({ threshold: 100 })],
    });
    expect(historyMayBeEdited(callOf([guard], mixed), guard)).toBe(true);
  });
});

describe('requestMayBeEditedAfter', () => {
  const guard = new ContextGuard({ contextWindow: 100_000 });
  const plain = () => new LlmAgent({ name: 'worker' });

  it('should say nothing can edit the request after the guard when no later plugin or agent callback edits requests', () => {
    expect(requestMayBeEditedAfter(callOf([guard], plain()), guard)).toBe(false);
    expect(
      requestMayBeEditedAfter(
        callOf([new EditingPlugin('before'), guard, new ObservingPlugin('after')], plain()),
        guard,
      ),
    ).toBe(false);
  });

  it("should count a plugin after the guard with a before-model callback, and the agent's own before-model callback", () => {
    expect(requestMayBeEditedAfter(callOf([guard, new EditingPlugin('after')], plain()), guard)).toBe(true);
    const own = new LlmAgent({ name: 'worker', beforeModelCallback: () => undefined });
    expect(requestMayBeEditedAfter(callOf([guard], own), guard)).toBe(true);
  });

  it('should say it may when the guard is not among the plugins', () => {
    expect(requestMayBeEditedAfter(callOf([new ObservingPlugin('observer')], plain()), guard)).toBe(true);
  });
});

describe("a guard's own callbacks on the agent", () => {
  const guard = new ContextGuard({ contextWindow: 100_000 });
  const own = () => undefined;

  it('should not count a guard callback as an edit after the guard, in either form', () => {
    const attached = guard.attachTo<LlmAgent>(new LlmAgent({ name: 'child' }));
    expect(requestMayBeEditedAfter(callOf([guard], attached), guard)).toBe(false);
    expect(requestMayBeEditedAfterCallback(callOf([], attached))).toBe(false);
  });

  it("should count an agent's callback after the guard's, and none when no guard callback is there", () => {
    const attached = guard.attachTo<LlmAgent>(new LlmAgent({ name: 'child', beforeModelCallback: own }));
    // Attached after the agent's own: nothing edits after the guard's callback.
    expect(requestMayBeEditedAfterCallback(callOf([], attached))).toBe(false);
    attached.beforeModelCallback = [...attached.canonicalBeforeModelCallbacks, own];
    expect(requestMayBeEditedAfterCallback(callOf([], attached))).toBe(true);
    expect(requestMayBeEditedAfterCallback(callOf([], new LlmAgent({ name: 'bare' })))).toBe(true);
  });
});
