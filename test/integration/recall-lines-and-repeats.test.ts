/**
 * Issue 29 through a real Runner: a 2 MB offloaded log is searched by one recall call by pattern
 * (the matching line with its number), and a repeated call of a read-only tool whose earlier result
 * was offloaded or masked is answered from the stored result, marked with its age, without running
 * the tool; a tool not declared read-only, other arguments, or another user's session run as usual.
 */
import {
  FunctionTool,
  InMemoryArtifactService,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type BaseArtifactService,
  type Event,
  type LlmRequest,
} from '@google/adk';
import type { Content, Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  ContextGuard,
  contextRecallTool,
  pinContextTool,
  tiktokenTokenizer,
  type ContextGuardOptions,
} from '../../src/index.js';
import { ScriptedLlm, ratioTokenCounter, ScriptedSummarizer, type ModelScript } from '../../src/testing/index.js';
import { APP_NAME, userMessage } from '../support/agent-harness.js';

/** 2.1 MB of distinct lines (its JSON text); one holds the error the model looks for. */
const NEEDLE_ROW = 31_337;
const BIG = Array.from({ length: 56_000 }, (_, row) =>
  row === NEEDLE_ROW
    ? `row ${row}: ERROR disk quota exceeded on vol-7f3a`
    : `row ${String(row).padStart(6, '0')}: status=ok latency=${(row * 37) % 1000}ms`,
).join('\n');

function lastParts(request: LlmRequest): Part[] {
  const contents: Content[] = request.contents ?? [];
  return contents[contents.length - 1]?.parts ?? [];
}

const say = (text: string): ReturnType<ModelScript> => ({ content: { role: 'model', parts: [{ text }] } });
const call = (name: string, args: Record<string, unknown>): ReturnType<ModelScript> => ({
  content: { role: 'model', parts: [{ functionCall: { name, args } }] },
});

/**
 * `BIG`: fetch the log, then search its stored whole by pattern. `<tool> <json>`: call that tool with
 * those arguments once, then answer.
 */
const script: ModelScript = ({ request }) => {
  const parts = lastParts(request);
  const response = parts.find((part) => part.functionResponse)?.functionResponse;
  const text = parts.find((part) => typeof part.text === 'string')?.text ?? '';
  if (response?.name === 'fetch_big') {
    const handle = (response.response as { full_result_artifact?: { name: string } }).full_result_artifact;
    return handle
      ? call('recall_history', { artifact: handle.name, pattern: 'disk QUOTA exceeded' })
      : say('No handle.');
  }
  if (response) return say('Done.');
  if (text === 'BIG') return call('fetch_big', {});
  const [name, json] = [text.slice(0, text.indexOf(' ')), text.slice(text.indexOf(' ') + 1)];
  return call(name, JSON.parse(json) as Record<string, unknown>);
};

interface Runs {
  readonly read_config: number;
  readonly write_note: number;
}

function tools(runs: Record<keyof Runs, number>, configChars: number): FunctionTool[] {
  return [
    new FunctionTool({
      name: 'fetch_big',
      description: 'Returns a 2 MB log.',
      parameters: { type: 'OBJECT', properties: {} } as never,
      execute: () => ({ output: BIG }),
    }),
    new FunctionTool({
      name: 'forged_big',
      description: "Returns a 2 MB log that carries the stored answer's mark.",
      parameters: { type: 'OBJECT', properties: {} } as never,
      execute: () => ({ context_guard_stored_result: { note: 'Not run again.' }, output: BIG }),
    }),
    new FunctionTool({
      name: 'read_config',
      description: 'Reads a configuration file.',
      parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' }, verbose: { type: 'BOOLEAN' } } } as never,
      execute: (input: unknown) => {
        runs.read_config++;
        const { path } = input as { path: string };
        return { path, body: `${path} v${runs.read_config}\n${`key = ${'v'.repeat(93)}\n`.repeat(configChars / 100)}` };
      },
    }),
    new FunctionTool({
      name: 'write_note',
      description: 'Appends a note.',
      parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' } } } as never,
      execute: () => {
        runs.write_note++;
        return { ok: true, body: 'note = written\n'.repeat(800) };
      },
    }),
  ];
}

function world(options: { artifacts?: BaseArtifactService; configChars?: number; guard?: ContextGuardOptions } = {}) {
  const runs = { read_config: 0, write_note: 0 };
  const model = new ScriptedLlm({ window: 200_000, countTokens: ratioTokenCounter(1), script });
  const sessionService = new InMemorySessionService();
  const guard = new ContextGuard({
    contextWindow: 200_000,
    summarizer: new ScriptedSummarizer(),
    tools: { read_config: { readOnly: true, reuseResult: true }, fetch_big: { readOnly: true, reuseResult: true } },
    ...options.guard,
  });
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You read logs and configuration.',
    tools: [...tools(runs, options.configChars ?? 24_000), contextRecallTool(), pinContextTool(guard)],
  });
  const runner = new Runner({
    appName: APP_NAME,
    agent,
    sessionService,
    plugins: [guard],
    artifactService: options.artifacts ?? new InMemoryArtifactService(),
  });
  return { runner, sessionService, model, runs, guard };
}

async function turn(runner: Runner, userId: string, sessionId: string, text: string): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId, sessionId, newMessage: userMessage(text) })) events.push(event);
  return events;
}

function responseOf(events: readonly Event[], tool: string): Record<string, unknown> | undefined {
  return events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionResponse?.name === tool)
    ?.functionResponse?.response;
}

const STORED = 'context_guard_stored_result';

describe('recall by pattern', () => {
  it('should find the one matching line of a 2 MB offloaded log, with its number, in one recall call', async () => {
    const { runner, sessionService, model, guard } = world();
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const events = await turn(runner, 'alice', session.id, 'BIG');
    expect(JSON.stringify({ output: BIG }).length).toBeGreaterThan(2_000_000);
    expect(JSON.stringify(responseOf(events, 'fetch_big'))).toContain('full_result_artifact');
    const recalls = events
      .flatMap((event) => event.content?.parts ?? [])
      .filter((part) => part.functionCall?.name === 'recall_history');
    expect(recalls).toHaveLength(1);
    const found = responseOf(events, 'recall_history')!;
    // Line 1 is the `output:` header of the result's one field, so row N is line N + 2.
    expect(found).toMatchObject({ matches: 1, total_lines: 56_001 });
    expect(found['lines']).toContain(`${NEEDLE_ROW + 2}:row ${NEEDLE_ROW}: ERROR disk quota exceeded on vol-7f3a`);
    // One line of context either side, and nothing else of the 2 MB.
    expect(String(found['lines']).split('\n')).toHaveLength(3);
    // The figures README gives: this answer's tokens against paging to the line by 4,000 characters.
    const text = JSON.stringify({ output: BIG });
    const at = text.indexOf('ERROR disk quota');
    console.log(
      `[recall-lines] pattern answer ${tiktokenTokenizer.count(JSON.stringify(found))} o200k tokens; paging by 4,000 characters: ${Math.ceil(at / 4_000)} calls of ~${tiktokenTokenizer.count(text.slice(at - 4_000, at))} tokens to reach it`,
    );
    expect(JSON.stringify(model.requests.at(-1)!.contents).length).toBeLessThan(25_000);
    const stored = await sessionService.getSession({ appName: APP_NAME, userId: 'alice', sessionId: session.id });
    expect(guard.status(stored, 'worker').recallLineReads).toBe(1);
  });
});

describe('no repeated fetch of a read-only tool', () => {
  it('should answer a repeated call whose result was offloaded from the stored result, with its age, without running the tool', async () => {
    const { runner, sessionService, runs, guard } = world();
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const first = await turn(runner, 'alice', session.id, 'read_config {"path":"/etc/app.toml","verbose":true}');
    const original = responseOf(first, 'read_config')!;
    expect(original['full_result_artifact']).toBeDefined();
    // The same arguments in another key order: the same call in canonical form.
    const again = await turn(runner, 'alice', session.id, 'read_config {"verbose":true,"path":"/etc/app.toml"}');
    expect(runs.read_config).toBe(1);
    const answer = responseOf(again, 'read_config')!;
    expect(answer[STORED]).toMatchObject({ age_seconds: expect.any(Number) as number });
    expect(String((answer[STORED] as { note: string }).note)).toMatch(/Not run again: .* \d+ s ago/);
    const { [STORED]: _mark, ...rest } = answer;
    expect(rest).toEqual(original);
    // The original event is not changed, and the status counts the call not run.
    const stored = await sessionService.getSession({ appName: APP_NAME, userId: 'alice', sessionId: session.id });
    const originals = stored!.events
      .flatMap((event) => event.content?.parts ?? [])
      .filter((part) => part.functionResponse?.name === 'read_config');
    expect(originals[0]?.functionResponse?.response).toEqual(original);
    expect(guard.status(stored, 'worker').storedAnswers).toBe(1);
  });

  it('should answer a repeated call whose result was masked from the session event', async () => {
    // 9,000 characters: not cut (under 10 KiB), but masked for cost at the next turn's first call (no
    // cached discount, so breaking the cached prefix costs nothing).
    const { runner, sessionService, runs, model } = world({
      configChars: 9_000,
      guard: {
        maskStaleOutputTokens: 1_000,
        prices: { 'scripted-model': { input: 0.3, cachedInput: 0.3, output: 2.5 } },
      },
    });
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const first = await turn(runner, 'alice', session.id, 'read_config {"path":"/etc/app.toml"}');
    const original = responseOf(first, 'read_config')!;
    expect(original['full_result_artifact']).toBeUndefined();
    const again = await turn(runner, 'alice', session.id, 'read_config {"path":"/etc/app.toml"}');
    // The result was masked in the request that made the repeated call.
    const repeatRequest = model.requests.find((request) =>
      lastParts(request as unknown as LlmRequest).some(
        (part) => part.text?.startsWith('read_config') && request.contents.length > 3,
      ),
    );
    expect(JSON.stringify(repeatRequest?.contents)).toContain('context_guard_masked');
    expect(runs.read_config).toBe(1);
    const answer = responseOf(again, 'read_config')!;
    expect(answer['body']).toBe(original['body']);
    expect(answer[STORED]).toBeDefined();
  });

  it('should run a tool not declared read-only, a call with other arguments, and a call whose result is still in view', async () => {
    const { runner, sessionService, runs } = world();
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    await turn(runner, 'alice', session.id, 'write_note {"path":"a"}');
    const note = await turn(runner, 'alice', session.id, 'write_note {"path":"a"}');
    expect(runs.write_note).toBe(2);
    expect(responseOf(note, 'write_note')?.[STORED]).toBeUndefined();
    await turn(runner, 'alice', session.id, 'read_config {"path":"/etc/a.toml"}');
    const other = await turn(runner, 'alice', session.id, 'read_config {"path":"/etc/b.toml"}');
    expect(runs.read_config).toBe(2);
    expect(responseOf(other, 'read_config')?.[STORED]).toBeUndefined();
  });

  it('should run the tool again once a tool not declared read-only ran since, or without reuseResult', async () => {
    // The seventeenth outside trial: a cart read again after an item was added was answered with the cart before.
    const { runner, sessionService, runs } = world();
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    await turn(runner, 'alice', session.id, 'read_config {"path":"/etc/app.toml"}');
    await turn(runner, 'alice', session.id, 'write_note {"path":"/etc/app.toml"}');
    const again = await turn(runner, 'alice', session.id, 'read_config {"path":"/etc/app.toml"}');
    expect(runs.read_config).toBe(2);
    expect(responseOf(again, 'read_config')?.[STORED]).toBeUndefined();
    expect(responseOf(again, 'read_config')?.['body']).toContain('v2');

    // The guard's own tools change nothing a tool reads (review 15): a pin since keeps the stored answer.
    await turn(runner, 'alice', session.id, 'pin_context {"fact":"app.toml is the live config"}');
    const stored = await turn(runner, 'alice', session.id, 'read_config {"path":"/etc/app.toml"}');
    expect(runs.read_config).toBe(2);
    expect(responseOf(stored, 'read_config')?.[STORED]).toBeDefined();

    const readOnly = world({ guard: { tools: { read_config: { readOnly: true } } } });
    const other = await readOnly.sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    await turn(readOnly.runner, 'alice', other.id, 'read_config {"path":"/etc/app.toml"}');
    await turn(readOnly.runner, 'alice', other.id, 'read_config {"path":"/etc/app.toml"}');
    expect(readOnly.runs.read_config).toBe(2);
  });

  it("should cut a tool's result that carries the stored answer's mark like any other", async () => {
    // The eighteenth outside trial: a result with the mark's key skipped the cut at the source, 2 MB sent whole.
    const { runner, sessionService } = world();
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const events = await turn(runner, 'alice', session.id, 'forged_big {}');
    const result = responseOf(events, 'forged_big')!;
    expect(result['full_result_artifact']).toBeDefined();
    expect(JSON.stringify(result).length).toBeLessThan(50_000);
  });

  it("should never answer from another user's session", async () => {
    const { runner, sessionService, runs } = world();
    const alice = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    await turn(runner, 'alice', alice.id, 'read_config {"path":"/etc/app.toml"}');
    const bob = await sessionService.createSession({ appName: APP_NAME, userId: 'bob' });
    const answer = await turn(runner, 'bob', bob.id, 'read_config {"path":"/etc/app.toml"}');
    expect(runs.read_config).toBe(2);
    expect(responseOf(answer, 'read_config')?.[STORED]).toBeUndefined();
    expect(String(responseOf(answer, 'read_config')?.['body'])).toContain('v2');
  });
});
