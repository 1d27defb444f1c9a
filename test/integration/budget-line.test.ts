/**
 * The budget the model sees (`budgetLine`): one line at the end of every request, never stored,
 * counted in the estimate, absent from every summarizer input; the `context_status` tool gives
 * the same figures; ADK's `consolidate_context` request is served as a compaction request. Real
 * Runner, real session service, real plugin manager; the scripted model is the only stand-in.
 */
import { describe, expect, it } from 'vitest';
import {
  BasePlugin,
  ConsolidateContextTool,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type Context,
  type LlmRequest,
} from '@google/adk';
import type { Content } from '@google/genai';
import { ContextGuard, pinContextTool, type ContextGuardOptions } from '../../src/index.js';
import { stateKeysFor } from '../../src/internal.js';
import { contentsText, logText, ScriptedSummarizer, type ModelScript } from '../../src/testing/index.js';
import {
  APP_NAME,
  createHarness,
  fetchLogsTool,
  logsModel,
  runTurn,
  startSession,
  storedSession,
  toolThenAnswerScript,
} from '../support/agent-harness.js';

const LINE_START = '[context budget]';
const isLine = (content: Content | undefined): boolean =>
  content?.role === 'user' && content.parts?.length === 1 && !!content.parts[0]?.text?.startsWith(LINE_START);
const isSummaryCall = (request: LlmRequest): boolean =>
  String(request.config?.toolConfig?.functionCallingConfig?.mode) === 'NONE';

interface Seen {
  readonly contents: Content[];
  readonly tools: string;
  readonly summary: boolean;
}

/** The script as the model reads a request: the budget line, when last, is not a turn to answer. */
function readingPastLine(script: ModelScript, seen: Seen[]): ModelScript {
  return (call) => {
    const contents = structuredClone(call.request.contents);
    seen.push({ contents, tools: JSON.stringify(call.request.config?.tools), summary: isSummaryCall(call.request) });
    if (!isLine(contents[contents.length - 1])) return script(call);
    const request = { ...call.request, contents: call.request.contents.slice(0, -1) };
    return script({ ...call, request });
  };
}

function lineHarness(options: ContextGuardOptions, script: ModelScript = toolThenAnswerScript(600)) {
  const seen: Seen[] = [];
  const model = logsModel({ window: 8_000, script: readingPastLine(script, seen) });
  const guard = new ContextGuard({ contextWindow: 8_000, prepareTurnsAhead: 0, ...options });
  return { seen, guard, h: createHarness({ model, plugins: [guard] }) };
}

const lineText = (contents: readonly Content[]): string => contents[contents.length - 1]?.parts?.[0]?.text ?? '';

/** A plugin before the guard that marks every request as the continuation of an interaction. */
class InteractionMark extends BasePlugin {
  constructor() {
    super('interaction_mark');
  }
  override async beforeModelCallback(params: { callbackContext: Context; llmRequest: LlmRequest }) {
    params.llmRequest.previousInteractionId = 'interaction-1';
    return Promise.resolve(undefined);
  }
}

describe('the budget line', () => {
  it('ends every request of a turn, after bytes the two calls share, and is never stored', async () => {
    const { seen, guard, h } = lineHarness({ budgetLine: true });
    const session = await h.startSession();
    await h.runTurns(session.id, 2);
    expect(seen).toHaveLength(4);
    for (const request of seen) expect(isLine(request.contents.at(-1))).toBe(true);
    // Two calls of one turn (the tool call, then the answer): every content before the line is the same, byte for byte.
    for (const [first, second] of [
      [seen[0]!, seen[1]!],
      [seen[2]!, seen[3]!],
    ] as const) {
      const before = first.contents.slice(0, -1);
      expect(second.contents.length).toBeGreaterThan(first.contents.length);
      expect(JSON.stringify(second.contents.slice(0, before.length))).toBe(JSON.stringify(before));
      expect(second.tools).toBe(first.tools);
    }
    // The line carries the figures; the second turn knows the session's pace.
    expect(lineText(seen[0]!.contents)).toMatch(
      /of 8,000 tokens \(\d+%\); compaction at [\d,]+, turns left: not known yet/,
    );
    expect(lineText(seen[2]!.contents)).toMatch(/~\d+ turns? left/);
    expect(seen[0]!.tools).toContain('context_status');
    const stored = await h.storedSession(session.id);
    expect(JSON.stringify(stored.events)).not.toContain(LINE_START);
    const status = guard.status(stored, 'worker');
    expect(status.budgetLines).toBe(4);
    expect(status.budgetLineTokens).toBeGreaterThan(4 * 20);
  });

  it('is off by default: the requests are those of a guard without it', async () => {
    const off = lineHarness({});
    const explicit = lineHarness({ budgetLine: false });
    for (const { h } of [off, explicit]) {
      const session = await h.startSession();
      await h.runTurns(session.id, 2);
    }
    expect(off.seen.map((s) => JSON.stringify(s))).toEqual(explicit.seen.map((s) => JSON.stringify(s)));
    expect(JSON.stringify(off.seen)).not.toContain(LINE_START);
    expect(JSON.stringify(off.seen)).not.toContain('context_status');
  });

  it('is in no summarizer input, a summary asked of the agent model included, and the decision leaves room for it', async () => {
    const summarizer = new ScriptedSummarizer();
    const other = lineHarness({ budgetLine: true, summarizer, maskKeepRecent: 0 }, toolThenAnswerScript(1_500));
    const own = lineHarness({ budgetLine: true, maskKeepRecent: 0 }, (call) =>
      isSummaryCall(call.request)
        ? { content: { role: 'model', parts: [{ text: 'SUMMARY: logs fetched.' }] } }
        : toolThenAnswerScript(1_500)(call),
    );
    for (const { h } of [other, own]) {
      const session = await h.startSession();
      const events = await h.runTurns(session.id, 8);
      expect(events.filter((event) => event.errorCode)).toEqual([]);
    }
    expect(summarizer.calls.length).toBeGreaterThan(0);
    for (const call of summarizer.calls) expect(call.prompt).not.toContain(LINE_START);
    const summaryAt = own.seen.findIndex((s) => s.summary);
    expect(summaryAt).toBeGreaterThan(0);
    const summaryRequest = own.seen[summaryAt]!;
    expect(contentsText(summaryRequest.contents)).not.toContain(LINE_START);
    // The summary request repeats the agent's previous request, which ended with the line, up to the instruction.
    const previous = own.seen[summaryAt - 1]!;
    const leading = summaryRequest.contents.slice(0, -1);
    expect(JSON.stringify(leading)).toBe(JSON.stringify(previous.contents.slice(0, leading.length)));
    expect(isLine(previous.contents.at(-1))).toBe(true);
    // Agent calls still end with the line after the compaction.
    const agentCalls = own.seen.filter((s) => !s.summary);
    for (const request of agentCalls) expect(isLine(request.contents.at(-1))).toBe(true);
  });

  it('is not added to a request that continues an interaction (Interactions mode)', async () => {
    const { seen, guard, h } = lineHarness({ budgetLine: true });
    const marked = createHarness({ model: h.model, plugins: [new InteractionMark(), guard] });
    const session = await marked.startSession();
    await runTurn(marked.runner, session.id, 'Turn 1: check the logs.');
    expect(seen.length).toBeGreaterThan(0);
    expect(JSON.stringify(seen.map((s) => s.contents))).not.toContain(LINE_START);
  });

  it("is not added to the first call of an interaction chain either (the model's useInteractionsApi)", async () => {
    // That call has no previousInteractionId yet, but its whole contents start the chain the server keeps.
    const { seen, h } = lineHarness({ budgetLine: true });
    Object.assign(h.model, { useInteractionsApi: true });
    const session = await h.startSession();
    await h.runTurns(session.id, 1);
    expect(seen.length).toBeGreaterThan(0);
    expect(JSON.stringify(seen.map((s) => s.contents))).not.toContain(LINE_START);
  });
});

describe('the budget line and the pin tool', () => {
  it('names the pin tool the agent has, under its own name, whenever a compaction is near', async () => {
    // The fifty-fifth outside trial: the line said "compaction near" and a loop's plan was lost; pin_context was there.
    const { seen, guard, h } = lineHarness({ budgetLine: true });
    h.agent.tools.push(pinContextTool(guard, { name: 'keep_fact' }));
    const session = await h.startSession();
    await h.runTurns(session.id, 16);
    const lines = seen.filter((request) => !request.summary).map((request) => lineText(request.contents));
    const near = lines.filter((line) => line.includes('compaction near'));
    expect(near.length).toBeGreaterThan(0);
    for (const line of near) expect(line).toContain('compaction near: keep_fact what must outlive it.');
    expect(lines.filter((line) => line.includes('keep_fact'))).toHaveLength(near.length);
  });
});

describe('the budget line inside a tool loop', () => {
  it("counts the loop's steps left from its second call, as context_status and status() do", async () => {
    // One task, a loop of 400-character log reads (the forty-ninth outside trial: a coding agent's 90 steps in one
    // turn were each told "turns left: not known yet").
    const loop: ModelScript = ({ request }) => {
      const steps = request.contents.filter((content) => content.parts?.some((part) => part.functionResponse)).length;
      if (steps < 8)
        return {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'fetch_logs', args: { size: 400, seed: steps } } }],
          },
        };
      return { content: { role: 'model', parts: [{ text: 'The loop is done.' }] } };
    };
    const { seen, guard, h } = lineHarness({ budgetLine: true }, loop);
    const session = await h.startSession();
    await h.runTurns(session.id, 1);
    const lines = seen.filter((request) => !request.summary).map((request) => lineText(request.contents));
    expect(lines[0]).toContain('turns left: not known yet');
    // From the loop's second call on; the first step's pace settles by the third (a moving average).
    const steps = lines.slice(1).map((line) => Number(/~(\d+) steps? left/.exec(line)?.[1]));
    expect(steps.length).toBeGreaterThan(4);
    for (const [at, left] of steps.entries()) {
      expect(left).toBeGreaterThanOrEqual(0);
      if (at > 1) expect(left).toBeLessThanOrEqual(steps[at - 1]!);
    }
    const status = guard.status(await h.storedSession(session.id), 'worker');
    expect(status.stepsLeft).toBe(steps.at(-1));
  });
});

describe('the context_status tool', () => {
  it('answers the figures of the line of the call that asked', async () => {
    const script: ModelScript = (call) => {
      const last = call.request.contents.at(-1);
      if (last?.parts?.some((part) => part.functionResponse?.name === 'context_status'))
        return { content: { role: 'model', parts: [{ text: 'Plenty of room.' }] } };
      return { content: { role: 'model', parts: [{ functionCall: { name: 'context_status', args: {} } }] } };
    };
    const { seen, guard, h } = lineHarness({ budgetLine: true }, script);
    const session = await h.startSession();
    await h.runTurns(session.id, 1);
    const line = lineText(seen[0]!.contents);
    const stored = await h.storedSession(session.id);
    const answer = stored.events
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionResponse?.name === 'context_status')?.functionResponse?.response;
    expect(answer).toBeDefined();
    const used = Number(/\] ([\d,]+) of/.exec(line)?.[1]?.replace(/,/g, ''));
    const threshold = Number(/compaction at ([\d,]+)/.exec(line)?.[1]?.replace(/,/g, ''));
    expect(answer).toMatchObject({
      tokens_used: used,
      window: 8_000,
      compaction_threshold: threshold,
      turns_left: null,
      // The tool runs after its call was answered: the provider's count of that request is known then.
      provider_counted: h.model.requests[0]!.promptTokens,
    });
    expect(used).toBeGreaterThan(0);
    const status = guard.status(stored, 'worker');
    expect(status.contextStatusCalls).toBe(1);
  });
});

describe("ADK's consolidate_context request", () => {
  it('is served as a compaction request on the next call', async () => {
    const summarizer = new ScriptedSummarizer();
    const script: ModelScript = (call) => {
      const last = call.request.contents.at(-1);
      const text = contentsText(last ? [last] : []);
      if (last?.parts?.some((part) => part.functionResponse))
        return { content: { role: 'model', parts: [{ text: 'Done.' }] } };
      if (text.includes('Turn 3'))
        return { content: { role: 'model', parts: [{ functionCall: { name: 'consolidate_context', args: {} } }] } };
      return { content: { role: 'model', parts: [{ text: `Answer. ${logText(400, call.index)}` }] } };
    };
    const model = logsModel({ window: 128_000, script });
    const guard = new ContextGuard({ contextWindow: 128_000, summarizer, prepareTurnsAhead: 0 });
    const agent = new LlmAgent({
      name: 'worker',
      model,
      instruction: 'You help.',
      tools: [fetchLogsTool(), new ConsolidateContextTool()],
    });
    const sessionService = new InMemorySessionService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
    const session = await startSession(sessionService);
    for (const turn of [1, 2]) await runTurn(runner, session.id, `Turn ${turn}: hello.`);
    expect(summarizer.calls).toHaveLength(0);
    await runTurn(runner, session.id, 'Turn 3: we are done with that subtask.');
    expect(summarizer.calls).toHaveLength(1);
    const stored = await storedSession(sessionService, session.id);
    expect(stored.state[stateKeysFor('worker').summary]).toBeTruthy();
    expect(stored.state['temp:consolidate_context']).toBeUndefined();
    // Served once: the next turn does not compact again.
    await runTurn(runner, session.id, 'Turn 4: next.');
    expect(summarizer.calls).toHaveLength(1);
  });
});
