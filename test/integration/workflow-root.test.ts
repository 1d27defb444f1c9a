/**
 * An ADK 2.0 `Workflow` root (`new Workflow({ name, edges: [['START', a, b]] })`) with the guard as a
 * plugin. ADK runs each LlmAgent node with `includeContents: 'none'`: a node sends only its current
 * turn (the node's input and its own steps), so each node's requests restart small on every turn.
 * The guard measures what is sent; its calibration must not take the small first call of a node's
 * turn as the ratio of the tool output that follows (docs/design.md, "Workflow roots").
 */
import { InMemorySessionService, LlmAgent, Runner, Workflow, type Event } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CapturingLogger, logText, ScriptedSummarizer, type ModelScript } from '../../src/testing/index.js';
import {
  APP_NAME,
  errorCodes,
  fetchLogsTool,
  logsModel,
  runTurn,
  startSession,
  storedSession,
} from '../support/agent-harness.js';

const WINDOW = 16_000;
const TURNS = 30;
const RESULT_CHARS = 7_000;
const SEEDS = [1, 2];

/** Each node fetches two logs at once, then answers once their results are in. */
const twoFetchesThenAnswer: ModelScript = ({ request }) => {
  const last = request.contents[request.contents.length - 1];
  if (last?.parts?.some((part) => part.functionResponse))
    return { content: { role: 'model', parts: [{ text: `Reviewed ${request.contents.length} contents.` }] } };
  const calls = SEEDS.map((seed) => ({ functionCall: { name: 'fetch_logs', args: { size: RESULT_CHARS, seed } } }));
  return { content: { role: 'model', parts: calls } };
};

function workflowApp() {
  const model = logsModel({ window: WINDOW, script: twoFetchesThenAnswer });
  const node = (name: string) =>
    new LlmAgent({ name, model, instruction: `You ${name} incidents.`, tools: [fetchLogsTool()] });
  const root = new Workflow({ name: 'incident_flow', edges: [['START', node('triage'), node('fixer')]] });
  const logger = new CapturingLogger();
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    summarizer: new ScriptedSummarizer(),
    prepareTurnsAhead: 0,
    toolOutputTruncation: false,
    logger,
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent: root, sessionService, plugins: [guard] });
  return { model, guard, logger, sessionService, runner };
}

/** The log texts of the function responses in a request's contents. */
function sentResults(
  contents: readonly { parts?: readonly { functionResponse?: { response?: unknown } }[] }[],
): string[] {
  return contents.flatMap((content) =>
    (content.parts ?? []).flatMap((part) => {
      const logs = (part.functionResponse?.response as { logs?: unknown } | undefined)?.logs;
      return typeof logs === 'string' ? [logs] : [];
    }),
  );
}

describe('a Workflow root', () => {
  it(`should guard every node over ${TURNS} turns: results sent whole, status within 1.3 of the real count, no compaction`, async () => {
    const { model, guard, logger, sessionService, runner } = workflowApp();
    const session = await startSession(sessionService);
    const events: Event[] = [];
    const ratios: number[] = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      const from = model.requests.length;
      events.push(...(await runTurn(runner, session.id, `Turn ${turn}: check the incident logs.`)));
      const sent = model.requests.slice(from);
      // Each node: its input alone, then that input, its two calls and their results.
      expect(sent.map((request) => `${request.agentName}:${request.contents.length}`)).toEqual([
        'triage:1',
        'triage:3',
        'fixer:1',
        'fixer:3',
      ]);
      // The user's latest message is what the first node is sent, every turn.
      expect(JSON.stringify(sent[0]?.contents)).toContain(`Turn ${turn}: check the incident logs.`);
      if (turn === 1) continue; // the first turn calibrates from a node's first, small call
      // The results fit with room to spare (under half the window): they go out as the tool returned them.
      for (const request of sent.filter((request) => request.contents.length === 3))
        expect(sentResults(request.contents)).toEqual(SEEDS.map((seed) => logText(RESULT_CHARS, seed)));
      const statuses = guard.status(await storedSession(sessionService, session.id));
      for (const status of statuses) {
        const last = sent.filter((request) => request.agentName === status.agentName).at(-1);
        ratios.push((status.estimatedTokens ?? 0) / (last?.promptTokens ?? 1));
      }
    }
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(0.95);
    expect(Math.max(...ratios)).toBeLessThanOrEqual(1.3);
    expect(model.requests.filter((request) => request.rejected || request.promptTokens > WINDOW)).toEqual([]);
    expect(errorCodes(events)).toEqual([]);
    expect(logger.atOrAbove('warn')).toEqual([]);
    const stored = await storedSession(sessionService, session.id);
    for (const status of guard.status(stored)) {
      expect([status.agentName, status.compactions, status.maskings, status.overLimitCalls]).toEqual([
        status.agentName,
        0,
        0,
        0,
      ]);
      expect(status.modelCalls).toBe(2 * TURNS);
    }
  });
});
