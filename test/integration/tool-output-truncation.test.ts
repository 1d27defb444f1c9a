/**
 * Tool-output truncation through a real Runner, InMemorySessionService,
 * FunctionTools and the strict ScriptedLlm: what the model receives, what the
 * session persists, and what is reported, for the plugin and the agent forms.
 */
import {
  BasePlugin,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type SingleAfterToolCallback,
} from '@google/adk';
import { Type, type FunctionResponse } from '@google/genai';
import { describe, expect, it, vi } from 'vitest';
import {
  asPluginAfterToolCallback,
  createToolOutputTruncator,
  type PluginAfterToolParams,
  type ToolOutputTruncator,
} from '../../src/adk/tools/tool-output-callback.js';
import { ratioTokenCounter, ScriptedLlm, type ModelScript, logText } from '../../src/testing/index.js';
import type { ToolTruncationRecord } from '../../src/truncation/truncate-tool-output.js';
import { callThenAnswer } from '../support/call-then-answer.js';
import type { ToolOutputTruncation } from '../../src/truncation/policy.js';
import {
  APP_NAME,
  fetchLogsTool,
  runTurn,
  toolThenAnswerScript,
  startSession,
  storedSession,
} from '../support/agent-harness.js';

const LIMIT = 10_240;

/** A test-only plugin that wires the truncator the way ContextGuard will. */
class TruncationTestPlugin extends BasePlugin {
  readonly records: ToolTruncationRecord[] = [];
  /** The `result` values ADK handed to the hook, before any change. */
  readonly received: unknown[] = [];
  private readonly truncate: (params: PluginAfterToolParams) => Promise<Record<string, unknown> | undefined>;

  constructor(options?: ToolOutputTruncation) {
    super('truncation_test');
    this.truncate = asPluginAfterToolCallback(
      createToolOutputTruncator(options, (record, context) => {
        this.records.push(record);
        // An audit trail in state: the tool context's delta goes out with the function-response event.
        context.state.set('truncation_test:cuts', this.records.length);
      }),
    );
  }

  override async afterToolCallback(params: PluginAfterToolParams): Promise<Record<string, unknown> | undefined> {
    this.received.push(params.result);
    return this.truncate(params);
  }
}

/** A tool that returns a plain string, as many file and shell tools do. */
function readFileTool(content: string): FunctionTool {
  return new FunctionTool({
    name: 'read_file',
    description: 'Returns the content of a file.',
    parameters: { type: Type.OBJECT, properties: { path: { type: Type.STRING } }, required: ['path'] },
    execute: () => content,
  });
}

/** Calls `toolName` once per user turn, then answers. */
function callOnceScript(toolName: string, args: Record<string, unknown>): ModelScript {
  return callThenAnswer({ call: () => ({ name: toolName, args }), answer: () => 'Done.' });
}

/** One agent on a new session, with a model whose window never binds. */
async function setup(options: {
  script: ModelScript;
  tools: FunctionTool[];
  plugins?: BasePlugin[];
  afterToolCallback?: SingleAfterToolCallback | SingleAfterToolCallback[];
}) {
  const model = new ScriptedLlm({ window: 1_000_000, countTokens: ratioTokenCounter(1), script: options.script });
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You read logs.',
    tools: options.tools,
    afterToolCallback: options.afterToolCallback,
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: options.plugins ?? [] });
  const session = await startSession(sessionService);
  return {
    model,
    /** Runs one user turn on the session. */
    turn: (text: string) => runTurn(runner, session.id, text),
    storedNow: () => storedSession(sessionService, session.id),
  };
}

/** What `fetch_logs` returned for the first call in `contents` (the harness derives its seed from the conversation). */
function fetchLogsOutput(
  contents: ReadonlyArray<{ parts?: Array<{ functionCall?: { args?: Record<string, unknown> } }> } | undefined>,
): { logs: string } {
  const call = contents.flatMap((content) => content?.parts ?? []).find((part) => part.functionCall)?.functionCall;
  const size = Number(call?.args?.['size']);
  const seed = call?.args?.['seed'];
  return { logs: logText(size, typeof seed === 'number' ? seed : size) };
}

/** The function responses in a list of contents (a request, or persisted events). */
function functionResponses(
  contents: ReadonlyArray<{ parts?: Array<{ functionResponse?: FunctionResponse }> } | undefined>,
): FunctionResponse[] {
  return contents.flatMap(
    (content) => content?.parts?.flatMap((part) => (part.functionResponse ? [part.functionResponse] : [])) ?? [],
  );
}

function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** The `fetch_logs` agent under `plugin` after its first turn, in which the tool returned `size` characters. */
async function afterFetchLogs(
  plugin: BasePlugin,
  { size = 50_000, afterToolCallback }: { size?: number; afterToolCallback?: SingleAfterToolCallback } = {},
) {
  const run = await setup({
    script: toolThenAnswerScript(size),
    tools: [fetchLogsTool()],
    plugins: [plugin],
    afterToolCallback,
  });
  await run.turn('Fetch the logs.');
  return run;
}

describe('tool-output truncation through a real Runner', () => {
  it('should send and persist the truncated result and report it (plugin form)', async () => {
    const plugin = new TruncationTestPlugin();
    const { model, storedNow } = await afterFetchLogs(plugin);

    const original = fetchLogsOutput(model.requests[1]?.contents ?? []);
    expect(original.logs.length).toBe(50_000);
    const [sent] = functionResponses(model.requests[1]?.contents ?? []);
    const sentLogs = String(sent?.response?.['logs']);
    expect(sentLogs).toMatch(/\n\[\.\.\. omitted \d+ of \d+ (lines|bytes) \.\.\.\]\n/);
    expect(original.logs.startsWith(sentLogs.split('\n')[0] ?? '<none>')).toBe(true);
    expect(original.logs.endsWith(sentLogs.split('\n').at(-1) ?? '<none>')).toBe(true);
    expect(bytesOf(sent?.response)).toBeLessThanOrEqual(LIMIT);

    const stored = await storedNow();
    const [persisted] = functionResponses(stored.events.map((event) => event.content) ?? []);
    expect(persisted?.response).toEqual(sent?.response);
    const responseEvent = stored.events.find((event) => event.content?.parts?.some((part) => part.functionResponse));
    expect(responseEvent?.actions.stateDelta).toEqual({ 'truncation_test:cuts': 1 });
    expect(stored.state['truncation_test:cuts']).toBe(1);

    expect(plugin.records).toEqual([
      {
        tool: 'fetch_logs',
        originalBytes: bytesOf(original),
        keptBytes: bytesOf(sent?.response),
        originalLines: original.logs.split('\n').length,
        keptLines: sentLogs.split('\n').length,
      },
    ]);
  });

  it('should keep the history short on later turns, without cutting twice', async () => {
    const plugin = new TruncationTestPlugin();
    const { model, turn } = await afterFetchLogs(plugin);
    await turn('Fetch them again.');

    // Request 3 (turn 2, first call) carries turn 1's response from history, as it was persisted.
    const fromHistory = functionResponses(model.requests[2]?.contents ?? []);
    expect(fromHistory).toHaveLength(1);
    expect(fromHistory[0]?.response).toEqual(functionResponses(model.requests[1]?.contents ?? [])[0]?.response);
    expect(plugin.records).toHaveLength(2);
    for (const request of model.requests) {
      for (const response of functionResponses(request.contents))
        expect(bytesOf(response.response)).toBeLessThanOrEqual(LIMIT);
    }
  });

  it('should wrap and cut a string result in an agent afterToolCallback', async () => {
    const content = Array.from(
      { length: 2_000 },
      (_, index) => `${index + 1}: const value${index} = compute(${index});`,
    ).join('\n');
    const records: ToolTruncationRecord[] = [];
    const received: unknown[] = [];
    const truncate: ToolOutputTruncator = createToolOutputTruncator(undefined, (record) => records.push(record));
    const spy: SingleAfterToolCallback = (params) => {
      received.push(params.response);
      return truncate(params);
    };
    const { model, turn, storedNow } = await setup({
      script: callOnceScript('read_file', { path: 'src/big.ts' }),
      tools: [readFileTool(content)],
      afterToolCallback: spy,
    });
    await turn('Read the file.');

    // ADK passes the tool's raw string to the callback, despite the record type; it wraps it later.
    expect(received).toEqual([content]);
    const [sent] = functionResponses(model.requests[1]?.contents ?? []);
    expect(Object.keys(sent?.response ?? {})).toEqual(['result']);
    const lines = String(sent?.response?.['result']).split('\n');
    expect(lines[0]).toBe('1: const value0 = compute(0);');
    expect(lines.at(-1)).toBe('2000: const value1999 = compute(1999);');
    expect(bytesOf(sent?.response)).toBeLessThanOrEqual(LIMIT);

    const stored = await storedNow();
    expect(functionResponses(stored.events.map((event) => event.content) ?? [])[0]?.response).toEqual(sent?.response);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      tool: 'read_file',
      originalLines: 2_000,
      originalBytes: bytesOf({ result: content }),
    });
  });

  it('should leave a tool alone when its truncation is turned off', async () => {
    const plugin = new TruncationTestPlugin({ tools: { fetch_logs: false } });
    const { model } = await afterFetchLogs(plugin);
    const [sent] = functionResponses(model.requests[1]?.contents ?? []);
    expect(sent?.response).toEqual(fetchLogsOutput(model.requests[1]?.contents ?? []));
    expect(String(sent?.response?.['logs'])).toHaveLength(50_000);
    expect(plugin.records).toEqual([]);
  });

  it("should skip the agent's afterToolCallback when the plugin cut, and run it when it did not", async () => {
    const agentCallback = vi.fn<SingleAfterToolCallback>(() => undefined);
    const run = async (size: number) => {
      agentCallback.mockClear();
      await afterFetchLogs(new TruncationTestPlugin(), { size, afterToolCallback: agentCallback });
      return agentCallback.mock.calls.length;
    };
    // ADK's PluginManager stops at the first plugin that returns a value, agent callbacks included.
    expect(await run(50_000)).toBe(0);
    expect(await run(2_000)).toBe(1);
  });
});
