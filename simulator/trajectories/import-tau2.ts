/**
 * `npx tsx simulator/trajectories/import-tau2.ts RETAIL_FILE TELECOM_SOLO_FILE`: the third held-out set, from two of
 * tau2-bench's own result files (sierra-research/tau2-bench, MIT), by the rule docs/simulator.md gives ("The third
 * held-out set"), to simulator/trajectories/held-out-3/. tau2's messages are turned into the chat messages tau-bench's
 * converter reads (convert-tau-bench.ts): the domain policy as the system prompt; for a solo run, where tau2 puts the
 * ticket in its system prompt, the ticket as the one user message; the user's own device tool calls left out (the
 * agent never sees them).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { convertTauBenchRun, type TauBenchRun } from './convert-tau-bench.js';
import { toolCallCount, type RecordedRun } from './recorded-run.js';

interface Tau2Call {
  readonly id?: string;
  readonly name?: string;
  readonly arguments?: Record<string, unknown>;
}
interface Tau2Message {
  readonly role: string;
  readonly content?: string | null;
  readonly tool_calls?: readonly Tau2Call[] | null;
  readonly id?: string;
}
interface Tau2Simulation {
  readonly task_id: string;
  readonly trial: number;
  readonly messages: readonly Tau2Message[];
}
interface Tau2File {
  readonly info: { readonly environment_info: { readonly policy: string } };
  readonly tasks: readonly { readonly id: string; readonly ticket?: string | null }[];
  readonly simulations: readonly Tau2Simulation[];
}

const LICENCE = 'MIT (Copyright (c) 2025 Sierra Research)';
const SOURCE = 'sierra-research/tau2-bench (mirror blob';
const RETAIL = `94ad2a06):src/experiments/model_training/results/gpt-4.1_retail_defautl_gpt-4.1_1trials.json`;
const TELECOM = `e93263f9):src/experiments/model_training/results/gpt-4.1_telecom_no-user_gpt-4.1_1trials.json`;

const userTexts = (simulation: Tau2Simulation): number =>
  simulation.messages.filter((message) => message.role === 'user' && message.content && !message.tool_calls?.length)
    .length;
const agentCalls = (simulation: Tau2Simulation): number =>
  simulation.messages
    .filter((message) => message.role === 'assistant')
    .reduce((calls, message) => calls + (message.tool_calls?.length ?? 0), 0);

function chatMessage(message: Tau2Message): Record<string, unknown> | undefined {
  if (message.role === 'user')
    return message.tool_calls?.length ? undefined : { role: 'user', content: message.content ?? '' };
  if (message.role === 'tool') return { role: 'tool', content: message.content ?? '', tool_call_id: message.id };
  if (message.role !== 'assistant') return undefined;
  const calls = message.tool_calls ?? [];
  return {
    role: 'assistant',
    content: message.content ?? null,
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((call) => ({
            id: call.id,
            function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
          })),
        }
      : {}),
  };
}

function toChat(file: Tau2File, simulation: Tau2Simulation, solo: boolean): TauBenchRun {
  const messages: Record<string, unknown>[] = [{ role: 'system', content: file.info.environment_info.policy }];
  if (solo) {
    const ticket = file.tasks.find((task) => task.id === simulation.task_id)?.ticket;
    if (!ticket) throw new Error(`no ticket for task ${simulation.task_id}`);
    messages.push({ role: 'user', content: ticket });
  }
  for (const message of simulation.messages) {
    const chat = chatMessage(message);
    if (chat) messages.push(chat);
  }
  return { trial: simulation.trial, traj: messages };
}

/** The rule: retail dialogues in numeric task order with 10+ user messages and 5+ tool calls, the first 6. */
function supportRuns(file: Tau2File): RecordedRun[] {
  return [...file.simulations]
    .sort((a, b) => Number(a.task_id) - Number(b.task_id))
    .filter((simulation) => userTexts(simulation) >= 10 && agentCalls(simulation) >= 5)
    .slice(0, 6)
    .map((simulation) =>
      convertTauBenchRun(
        toChat(file, simulation, false),
        `retail-task${simulation.task_id}`,
        `${SOURCE} ${RETAIL} (task_id ${simulation.task_id}, trial ${simulation.trial})`,
      ),
    );
}

/** The rule: telecom solo loops in task id order with 20+ tool calls, the first 6. */
function loopRuns(file: Tau2File): RecordedRun[] {
  return [...file.simulations]
    .sort((a, b) => (a.task_id < b.task_id ? -1 : a.task_id > b.task_id ? 1 : 0))
    .filter((simulation) => agentCalls(simulation) >= 20)
    .slice(0, 6)
    .map((simulation, at) => ({
      ...convertTauBenchRun(
        toChat(file, simulation, true),
        `telecom-solo${at + 1}`,
        `${SOURCE} ${TELECOM} (task_id ${simulation.task_id})`,
      ),
      kind: 'coding' as const,
    }));
}

const [retailPath, telecomPath] = process.argv.slice(2);
if (!retailPath || !telecomPath) throw new Error('usage: import-tau2.ts RETAIL_FILE TELECOM_SOLO_FILE');
const read = (path: string): Tau2File => JSON.parse(readFileSync(path, 'utf8')) as Tau2File;
const support = supportRuns(read(retailPath));
const loops = loopRuns(read(telecomPath));
// The loader reads a set's dialogues and loops from these two names (load-trajectories.ts), whatever their source.
const folder = new URL('./held-out-3/', import.meta.url);
writeFileSync(new URL('tau-bench-airline.json', folder), `${JSON.stringify({ licence: LICENCE, runs: support })}\n`);
writeFileSync(new URL('mini-swe-agent-runs.json', folder), `${JSON.stringify({ licence: LICENCE, runs: loops })}\n`);
for (const run of [...support, ...loops])
  console.log(`${run.id}: ${run.turns.length} turns, ${toolCallCount(run)} tool calls`);
