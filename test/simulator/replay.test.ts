/**
 * A recorded run replayed through the real Runner (the simulator's
 * runScenario: LlmAgent, InMemorySessionService, real FunctionTools, the
 * scripted model answering as recorded): the session holds the recorded tool
 * calls and outputs in order, and the bill splits into its cached, uncached
 * and output parts as the implicit cache makes them.
 */
import type { Session } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../simulator/run-scenario.js';
import { replayScenarios } from '../../simulator/scenarios/replays.js';
import { STRATEGIES, type StrategySpec } from '../../simulator/strategies.js';
import type { RecordedRun } from '../../simulator/trajectories/recorded-run.js';

// Gemini 2.5 Flash list prices, USD per token (src/cost/price-table.ts).
const INPUT = 0.3 / 1e6;
const CACHED = 0.03 / 1e6;
const OUTPUT = 2.5 / 1e6;

const RUN: RecordedRun = {
  id: 'tiny',
  kind: 'support',
  source: 'test',
  // About 3,000 tokens: every request's repeated prefix is over the 2,048-token cache minimum.
  systemPrompt: `Airline policy {with braces ADK must not read as state}. ${'Be exact about fares. '.repeat(550)}`,
  turns: [
    { user: 'Hi, I want to change a flight.', steps: [], answer: 'Your user id, please?' },
    {
      user: 'mia_li_3668',
      steps: [
        {
          calls: [{ name: 'get_user_details', args: { user_id: 'mia_li_3668' }, output: '{"reservations":["A","B"]}' }],
        },
        {
          text: 'Both reservations:',
          calls: [
            { name: 'get_reservation_details', args: { id: 'A' }, output: 'A: JFK-SEA 2024-05-20' },
            { name: 'get_reservation_details', args: { id: 'B' }, output: 'B: SEA-JFK 2024-05-27' },
          ],
        },
        // The same call again gets the next recorded output.
        { calls: [{ name: 'get_user_details', args: { user_id: 'mia_li_3668' }, output: '{"reservations":["A"]}' }] },
      ],
      answer: 'Reservation B is cancelled.',
    },
  ],
};

function strategy(name: string): StrategySpec {
  const found = STRATEGIES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(name);
  return found;
}

function callsAndResponses(session: Session | undefined): { calls: unknown[]; responses: unknown[] } {
  const parts = (session?.events ?? []).flatMap((event) => event.content?.parts ?? []);
  return {
    calls: parts.flatMap((part) => (part.functionCall ? [[part.functionCall.name, part.functionCall.args]] : [])),
    responses: parts.flatMap((part) =>
      part.functionResponse ? [[part.functionResponse.name, part.functionResponse.response?.['result']]] : [],
    ),
  };
}

describe('a recorded run replayed on the real Runner', () => {
  const scenario = replayScenarios([RUN]).find((spec) => spec.window === 131_072);
  if (!scenario) throw new Error('no 128k scenario');

  it('should make the recorded tool calls and hand the model the recorded outputs, in order', async () => {
    for (const name of ['none', 'guard-defaults']) {
      let stored: Session | undefined;
      const result = await runScenario(scenario, strategy(name), { onStoredSession: (session) => (stored = session) });
      expect(result.violations).toEqual([]);
      const expected = RUN.turns.flatMap((turn) => turn.steps.flatMap((step) => step.calls));
      const { calls, responses } = callsAndResponses(stored);
      expect(calls).toEqual(expected.map((call) => [call.name, call.args]));
      expect(responses).toEqual(expected.map((call) => [call.name, call.output]));
      // One call per step and one per answer: turn 1 answers at once, turn 2 after three tool steps.
      expect(result.modelCalls).toBe(1 + 4);
      const texts = (stored?.events ?? []).flatMap((event) =>
        event.author !== 'user' ? (event.content?.parts ?? []).flatMap((part) => (part.text ? [part.text] : [])) : [],
      );
      expect(texts).toEqual(['Your user id, please?', 'Both reservations:', 'Reservation B is cancelled.']);
    }
  });

  it('should bill each request after the first with the previous one as its cached prefix, and the rest uncached', async () => {
    const result = await runScenario(scenario, strategy('none'));
    const prompts = result.calls.map((call) => call.promptTokens);
    // Without a guard each request is the previous one plus what was appended: all of it cached.
    expect(result.calls.map((call) => call.cachedPromptTokens)).toEqual([0, ...prompts.slice(0, -1)]);
    const total = prompts.reduce((sum, tokens) => sum + tokens, 0);
    const cached = prompts.slice(0, -1).reduce((sum, tokens) => sum + tokens, 0);
    expect(result.cachedPromptTokens).toBe(cached);
    expect(result.uncachedPromptTokens).toBe(total - cached);
    expect(result.uncachedUsd).toBeCloseTo((total - cached) * INPUT, 12);
    expect(result.cachedUsd).toBeCloseTo(cached * CACHED, 12);
    expect(result.outputUsd).toBeCloseTo(5 * 50 * OUTPUT, 12);
    expect(result.summarizerInputUsd + result.summarizerOutputUsd).toBe(0);
    expect(result.costUsd).toBeCloseTo(result.uncachedUsd + result.cachedUsd + result.outputUsd, 12);
    // The floor: the last request as ADK built it holds every content once (no re-reads), plus the outputs.
    // (Tokens are rounded per measured piece: at most one token per call apart.)
    const floor = (result.calls.at(-1)?.rawTokens ?? 0) * INPUT + 5 * 50 * OUTPUT;
    expect(Math.abs(result.costFloorUsd - floor)).toBeLessThanOrEqual(5 * INPUT + 1e-15);
    expect(result.costFloorUsd).toBeLessThan(result.costUsd);
  });
});
