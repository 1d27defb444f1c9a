/**
 * `guard.attachTo` given a `Workflow` (ADK 2.0's `Workflow` is a node, not an agent; TypeScript refuses it, plain
 * JavaScript and the devtools CLI's esbuild do not): review 12 found it throwing "Invalid value used in weak set",
 * which says nothing of what to do. It now says what it takes.
 */
import { LlmAgent, Workflow } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { ScriptedLlm, ratioTokenCounter } from '../../src/testing/index.js';

describe('attachTo given a Workflow', () => {
  it('should throw a TypeError that names what it takes', () => {
    const model = new ScriptedLlm({
      window: 8_000,
      countTokens: ratioTokenCounter(1),
      script: () => ({ content: { role: 'model', parts: [{ text: 'a' }] } }),
    });
    const root = new Workflow({ name: 'flow', edges: [['START', new LlmAgent({ name: 'triage', model })]] });
    const guard = new ContextGuard({ contextWindow: 8_000 });
    expect(() => guard.attachTo(root as never)).toThrow(/attachTo takes an ADK agent \(a Workflow is not one\)/);
  });
});
