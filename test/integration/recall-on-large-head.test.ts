/**
 * The recall tool on an agent whose instruction alone is a cacheable head (a ~6k-token policy). Since 2626734 it is
 * sent only once something names it: until then every request is the one ADK built, and the cached head is never sent
 * again (the third held-out set: the eager declaration was the guard's whole difference from no guard). Review 37: a
 * result cut with no artifact service names nothing, yet brought the tool in and sent the whole prefix uncached; with
 * an artifact service its handle names the tool, which is sent from the next call.
 */
import { FunctionTool, InMemoryArtifactService, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { declaredNames } from '../support/declared-names.js';
import { logText, proseText, ratioTokenCounter, ScriptedLlm, type ModelScript } from '../../src/testing/index.js';

const BIG_AT = 6;

const lookup = new FunctionTool({
  name: 'lookup',
  description: 'Looks an order up.',
  parameters: { type: 'OBJECT', properties: { turn: { type: 'INTEGER' } } } as never,
  execute: (input: unknown) => {
    const turn = (input as { turn: number }).turn;
    return { order: logText(turn === BIG_AT ? 16_000 : 600, turn) };
  },
});

const script: ModelScript = ({ request, index }) => {
  // The budget line, when on, is the request's last content: the turn's own are just before it.
  const recent = request.contents.slice(-2);
  if (recent.some((content) => content.parts?.some((part) => part.functionResponse)))
    return { content: { role: 'model', parts: [{ text: `Done ${index}.` }] } };
  const turn = Number(/Turn (\d+)/.exec(JSON.stringify(recent))?.[1] ?? 0);
  return { content: { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { turn } } }] } };
};

async function run(withArtifacts: boolean) {
  const tools: string[][] = [];
  const model = new ScriptedLlm({
    window: 128_000,
    countTokens: ratioTokenCounter(1.2),
    script,
    fail: ({ request }) => void tools.push(declaredNames(request)),
  });
  const agent = new LlmAgent({ name: 'support', model, instruction: proseText(24_000, 3), tools: [lookup] });
  // Masking for cost held off, so only the cut can name the tool.
  const guard = new ContextGuard({ contextWindow: 128_000, maskStaleOutputTokens: 100_000 });
  const sessionService = new InMemorySessionService();
  const artifactService = withArtifacts ? new InMemoryArtifactService() : undefined;
  const runner = new Runner({ appName: 'shop', agent, sessionService, artifactService, plugins: [guard] });
  const { id } = await sessionService.createSession({ appName: 'shop', userId: 'u' });
  for (let turn = 1; turn <= 8; turn++)
    for await (const _ of runner.runAsync({
      userId: 'u',
      sessionId: id,
      newMessage: { role: 'user', parts: [{ text: `Turn ${turn}: check my order.` }] },
    }));
  return { tools, requests: model.requests };
}

describe('the recall tool on a large cacheable head', () => {
  it('should not be sent while nothing names it, a result cut without an artifact included', async () => {
    const { tools, requests } = await run(false);
    expect(tools.every((names) => !names.includes('recall_history'))).toBe(true);
    // Every call after the first reads the head from the cache.
    expect(requests.slice(1).every((request) => (request.cachedPromptTokens ?? 0) > 5_000)).toBe(true);
  });

  it('should be sent from the call after a cut result stored with a handle that names it, and stay', async () => {
    const { tools, requests } = await run(true);
    const first = tools.findIndex((names) => names.includes('recall_history'));
    expect(first).toBeGreaterThan(0);
    expect(JSON.stringify(requests[first]?.contents)).toContain('recall_history');
    expect(tools.slice(first).every((names) => names.includes('recall_history'))).toBe(true);
  });
});
