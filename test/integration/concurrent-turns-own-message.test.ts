/**
 * Two turns of one session at once (the user sends again before the answer came), on a session service that
 * reloads the session each turn: each turn's request holds both user messages, its own first. The guard kept the
 * latest through a compaction, so a turn's own message went into the summary and the model was asked the other
 * turn's question (the eighteenth outside trial: 8 requests in 40 turns on SQLite). Each request now keeps its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BasePlugin,
  DatabaseSessionService,
  FunctionTool,
  InMemoryArtifactService,
  LlmAgent,
  Runner,
  type Event,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import { afterAll, describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { ContextGuard, type Summarizer } from '../../src/index.js';
import { logText, ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';

const folder = mkdtempSync(join(tmpdir(), 'context-guard-concurrent-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The message of the invocation each request belongs to, noted before the guard runs. */
const ownMessage = new WeakMap<LlmRequest, string>();

class OwnMessage extends BasePlugin {
  constructor() {
    super('own_message');
  }
  override async beforeModelCallback(params: {
    callbackContext: { readonly invocationContext: { readonly userContent?: Content | undefined } };
    llmRequest: LlmRequest;
  }): Promise<LlmResponse | undefined> {
    const text = params.callbackContext.invocationContext.userContent?.parts?.[0]?.text ?? '';
    ownMessage.set(params.llmRequest, text);
    return Promise.resolve(undefined);
  }
}

/** The scripted model, noting for each request it receives the message of its invocation. */
class OwnMessageModel extends ScriptedLlm {
  readonly owns: string[] = [];
  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.owns.push(ownMessage.get(request) ?? 'unknown');
    yield* super.generateContentAsync(request);
  }
}

const summarizer: Summarizer = {
  name: 'plain',
  async summarize() {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { text: '## Current state\nThe user asks for log checks; all normal so far.' };
  },
};

const message = (turn: number): string => `Turn ${turn}: check the logs of service ${turn}.`;

async function runTurn(runner: Runner, sessionId: string, text: string): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({
    userId: 'u',
    sessionId,
    newMessage: { role: 'user', parts: [{ text }] },
  }))
    events.push(event);
  return events;
}

describe('two turns of one session at once, on SQLite', () => {
  it("should send each turn's own message in each of its requests, through compactions", async () => {
    const model = new OwnMessageModel({
      window: 32_000,
      countTokens: ratioTokenCounter(1.8),
      script: ({ request }) => {
        const last = request.contents.at(-1);
        const n = request.contents.length;
        if (last?.parts?.some((part) => part.functionResponse))
          return { content: { role: 'model', parts: [{ text: `Analysis ${n}: ${logText(400, n)}` }] } };
        const size = n % 5 === 0 ? 60_000 : 3_000;
        return {
          content: { role: 'model', parts: [{ functionCall: { name: 'fetch_logs', args: { seed: n, size } } }] },
        };
      },
    });
    const tool = new FunctionTool({
      name: 'fetch_logs',
      description: 'Server logs.',
      parameters: { type: 'OBJECT', properties: { seed: { type: 'INTEGER' }, size: { type: 'INTEGER' } } } as never,
      execute: (input: unknown) => {
        const { seed, size } = input as { seed: number; size: number };
        return { logs: logText(size, seed) };
      },
    });
    const agent = new LlmAgent({ name: 'worker', model, instruction: 'You analyse logs.', tools: [tool] });
    const sessionService = new DatabaseSessionService(`sqlite://${join(folder, 'concurrent.sqlite')}`);
    await sessionService.init();
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    const guard = new ContextGuard({ contextWindow: 8_000, summarizer, logger });
    const artifactService = new InMemoryArtifactService();
    const plugins = [new OwnMessage(), guard];
    const runner = new Runner({ appName: 'app', agent, sessionService, artifactService, plugins });
    const { id } = await sessionService.createSession({ appName: 'app', userId: 'u' });
    const events: Event[] = [];
    for (let turn = 1; turn <= 40; turn++) {
      if (turn % 3 === 0 && turn < 40) {
        const pair = await Promise.all([runTurn(runner, id, message(turn)), runTurn(runner, id, message(turn + 1))]);
        events.push(...pair.flat());
        turn++;
      } else events.push(...(await runTurn(runner, id, message(turn))));
    }
    const missing = model.requests.flatMap((request, index) => {
      const own = model.owns[index] ?? 'unknown';
      return JSON.stringify(request.contents).includes(own) ? [] : [`request ${index}: "${own}" missing`];
    });
    expect(model.requests.length).toBeGreaterThan(60);
    expect(missing).toEqual([]);
    // The guard compacted: the check ran on requests it reduced.
    expect(JSON.stringify(model.requests.map((request) => request.contents))).toContain('context_guard summary');
    expect(events.filter((event) => event.errorCode)).toEqual([]);
  }, 120_000);
});
