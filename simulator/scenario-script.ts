/**
 * The scripted model's behaviour: what each agent answers at each step of a
 * turn, read from the scenario's plan.
 *
 * - `worker` / `researcher`: one model content per tool step (several
 *   function calls in one content for a parallel step), then a text answer.
 *   In the `transfer` topology the worker hands back to the router with its
 *   answer.
 * - `router`: transfers to the worker on its first call of a turn, answers
 *   once the worker handed back.
 * - `writer`: answers from what the researcher found.
 * - `lead` (`agent-tool`): calls the `researcher` AgentTool with the user's
 *   message on its first call of a turn, answers once it has the result.
 *
 * The step comes from the observer (how many calls the agent made this turn),
 * never from the request's contents, so a compacted request cannot confuse it.
 */
import type { LlmRequest, LlmResponse } from '@google/adk';
import type { Content, Part } from '@google/genai';
import type { ModelScript } from '../src/testing/index.js';
import { modelAnswer } from '../src/testing/index.js';
import { FETCH_TOOL_NAME } from './scenario-tools.js';
import type { AgentTopology, ToolWorkKind } from './scenario-types.js';
import type { SimulationClock } from './simulation-clock.js';
import { workAnswer } from './tool-work.js';
import type { RecordedTurn } from './trajectories/recorded-run.js';

export const TRANSFER_TOOL_NAME = 'transfer_to_agent';

/** Agent names per topology; the first is the root. */
export const AGENT_NAMES: Readonly<Record<AgentTopology, readonly string[]>> = {
  single: ['worker'],
  transfer: ['router', 'worker'],
  pipeline: ['researcher', 'writer'],
  'agent-tool': ['lead', 'researcher'],
};

/** Who made a call and at which step; supplied by the observer. */
export type StepLookup = (request: LlmRequest) => { agent: string; step: number } | undefined;

function transfer(agentName: string): Part {
  return { functionCall: { name: TRANSFER_TOOL_NAME, args: { agentName } } };
}

/** The recorded model content of a replayed turn's step: its text and calls, then the turn's answer. */
function replayedContent(turn: RecordedTurn, step: number): Content {
  const recorded = turn.steps[step];
  if (!recorded) return { role: 'model', parts: [{ text: turn.answer || '(no answer recorded)' }] };
  return {
    role: 'model',
    parts: [
      ...(recorded.text ? [{ text: recorded.text }] : []),
      ...recorded.calls.map((call): Part => ({ functionCall: { name: call.name, args: { ...call.args } } })),
    ],
  };
}

/** `work`: a tool-work scenario's model, which decides from the request (simulator/tool-work.ts). */
export function scenarioScript(
  topology: AgentTopology,
  clock: SimulationClock,
  lookup: StepLookup,
  work?: ToolWorkKind,
): ModelScript {
  return ({ request }): Partial<LlmResponse> & { content: Content } => {
    const plan = clock.plan;
    const who = lookup(request);
    if (!plan || !who) return { content: { role: 'model', parts: [{ text: 'No plan for this call.' }] } };
    const { agent, step } = who;
    const answer = (extra: Part[] = []): Content => ({
      role: 'model',
      parts: [{ text: modelAnswer(plan.turn, agent, plan.responseChars) }, ...extra],
    });

    if (agent === 'router') {
      return { content: step === 0 ? { role: 'model', parts: [transfer('worker')] } : answer() };
    }
    if (agent === 'writer') return { content: answer() };
    if (agent === 'lead') {
      return {
        content:
          step === 0
            ? { role: 'model', parts: [{ functionCall: { name: 'researcher', args: { request: plan.message } } }] }
            : answer(),
      };
    }

    if (plan.replay) return { content: replayedContent(plan.replay, step) };
    if (work) return { content: workAnswer(work, plan.turn, request) };
    const toolStep = plan.tools[step];
    if (toolStep && toolStep.length > 0) {
      const parts: Part[] = toolStep.map((call, i) => ({
        functionCall: {
          name: FETCH_TOOL_NAME,
          args: { size: call.size, shape: call.shape, seed: plan.turn * 1_000 + step * 50 + i },
        },
      }));
      return { content: { role: 'model', parts } };
    }
    return { content: topology === 'transfer' ? answer([transfer('router')]) : answer() };
  };
}
