/**
 * Requests Gemini refuses when they carry a function declaration: beside a built-in tool (Gemini 2.x, ADK's search
 * agent with `GOOGLE_SEARCH` behind an `AgentTool`) and beside a JSON response (the Gemini API, an `outputSchema`
 * agent without tools). The thirty-fifth outside trial: the guard's `recall_history` or `context_status` turned
 * such accepted requests into a 400 on every later call, unseen behind the `AgentTool`. The scripted models here
 * refuse the mix as Gemini does.
 */
import {
  AgentTool,
  FunctionTool,
  GOOGLE_SEARCH,
  InMemorySessionService,
  LlmAgent,
  Runner,
  SequentialAgent,
  type LlmRequest,
} from '@google/adk';
import type { Tool } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard, type ContextGuardOptions } from '../../src/index.js';
import { CapturingLogger, ScriptedLlm, ScriptedSummarizer, type ModelScript } from '../../src/testing/index.js';
import { proportionalCounter } from '../support/proportional-counter.js';
import { APP_NAME, errorCodes, runTurn, USER_ID } from '../support/agent-harness.js';

const WINDOW = 32_000;

const declared = (request: LlmRequest): string[] =>
  ((request.config?.tools ?? []) as Tool[]).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map((d) => d.name ?? ''),
  );

/** The function declarations of every request a model got, in order. */
type Declarations = string[][];

/** A Gemini model that refuses function declarations beside a built-in tool or a JSON response, with its 400. */
function refusingModel(name: string, script: ModelScript, seen: Declarations = []): ScriptedLlm {
  return new ScriptedLlm({
    model: 'gemini-2.5-flash',
    window: WINDOW,
    countTokens: proportionalCounter(1.3),
    script,
    fail: ({ request }) => {
      seen.push(declared(request));
      if (declared(request).length === 0) return undefined;
      const builtIn = ((request.config?.tools ?? []) as Tool[]).some((tool) => tool.googleSearch !== undefined);
      const json = request.config?.responseMimeType === 'application/json';
      if (!builtIn && !json) return undefined;
      return Object.assign(new Error(`${name}: 400 INVALID_ARGUMENT function calling is unsupported here`), {
        status: 400,
      });
    },
  });
}

const answerOrCall =
  (tool: string, args: Record<string, unknown>, answer: (index: number) => string): ModelScript =>
  ({ request, index }) =>
    // The budget line, where on, is the request's last content: the answer is the one before it.
    request.contents.slice(-2).some((content) => content.parts?.some((part) => part.functionResponse))
      ? { content: { role: 'model', parts: [{ text: answer(index) }] } }
      : { content: { role: 'model', parts: [{ functionCall: { name: tool, args } }] } };

async function run(agent: LlmAgent | SequentialAgent, options: ContextGuardOptions, turns: number) {
  const logger = new CapturingLogger();
  const guard = new ContextGuard({ contextWindow: WINDOW, logger, summarizer: new ScriptedSummarizer(), ...options });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: [guard] });
  const { id } = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  const errors: string[] = [];
  for (let turn = 1; turn <= turns; turn++)
    errors.push(...errorCodes(await runTurn(runner, id, `Turn ${turn}: look into incident INC-${turn}.`)));
  return { errors, logger };
}

const fetchLogs = new FunctionTool({
  name: 'fetch_logs',
  description: 'Fetches the logs.',
  parameters: { type: 'OBJECT', properties: {} } as never,
  execute: () => ({
    logs: Array.from({ length: 160 }, (_, i) => `2026-12-07T01:${i % 60} ERROR svc-${i} timeout`).join('\n'),
  }),
});

describe("the guard's own tools on requests that may carry no function declaration", () => {
  it('should declare none beside a built-in tool, behind an AgentTool, whatever it reduces', async () => {
    const seen: Declarations = [];
    const search = refusingModel(
      'search',
      ({ index }) => ({ content: { role: 'model', parts: [{ text: `RESULT-${index} ${'finding '.repeat(700)}` }] } }),
      seen,
    );
    const searchAgent = new LlmAgent({
      name: 'search_agent',
      model: search,
      description: 'Searches the web.',
      instruction: 'Answer with Google Search.',
      tools: [GOOGLE_SEARCH],
    });
    const coordinator = new LlmAgent({
      name: 'coordinator',
      model: refusingModel(
        'coordinator',
        answerOrCall('search_agent', { request: 'incident' }, (i) => `Done ${i}.`),
      ),
      instruction: 'Research with the search agent.',
      tools: [new AgentTool({ agent: searchAgent })],
    });
    const { errors, logger } = await run(coordinator, { budgetLine: true }, 16);
    expect(errors).toEqual([]);
    expect(search.requests.length).toBeGreaterThan(0);
    expect(search.requests.filter((request) => request.rejected)).toEqual([]);
    expect(seen.flat()).toEqual([]);
    const named = logger.matching(/agent 'search_agent': its requests carry a built-in tool \(googleSearch\)/);
    expect(named).toHaveLength(1);
    expect(named[0]?.level).toBe('info');
    // The line the model reads names no tool it does not have.
    const lines = search.requests.map((request) => JSON.stringify(request.contents.at(-1)));
    expect(lines.some((line) => line.includes('[context budget]'))).toBe(true);
    expect(lines.some((line) => line.includes('context_status'))).toBe(false);
  });

  it('should declare none beside a JSON response, where the agent is masked and compacted', async () => {
    const researched: Declarations = [];
    const research = new ScriptedLlm({
      model: 'scripted-research',
      window: WINDOW,
      countTokens: proportionalCounter(1.3),
      script: answerOrCall('fetch_logs', {}, (i) => `Found ${i}.`),
      fail: ({ request }) => void researched.push(declared(request)),
    });
    const researcher = new LlmAgent({
      name: 'researcher',
      model: research,
      instruction: 'Research.',
      tools: [fetchLogs],
    });
    const formatted: Declarations = [];
    const format = refusingModel(
      'formatter',
      ({ index }) => ({ content: { role: 'model', parts: [{ text: JSON.stringify({ verdict: `ok ${index}` }) }] } }),
      formatted,
    );
    const formatter = new LlmAgent({
      name: 'formatter',
      model: format,
      instruction: 'Return the verdict as JSON.',
      outputSchema: { type: 'OBJECT', properties: { verdict: { type: 'STRING' } }, required: ['verdict'] } as never,
      outputKey: 'verdict',
    });
    const pipeline = new SequentialAgent({ name: 'pipeline', subAgents: [researcher, formatter] });
    const { errors, logger } = await run(pipeline, {}, 14);
    expect(errors).toEqual([]);
    expect(format.requests.filter((request) => request.rejected)).toEqual([]);
    expect(formatted.flat()).toEqual([]);
    expect(logger.matching(/agent 'formatter': its requests ask for a response schema/)).toHaveLength(1);
    // The researcher, whose requests declare its own tool, still gets the recall tool once it is reduced.
    expect(researched.some((names) => names.includes('recall_history'))).toBe(true);
    expect(logger.matching('compacted contents').length + logger.matching('masked').length).toBeGreaterThan(0);
  });
});
