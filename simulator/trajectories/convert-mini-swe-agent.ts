/**
 * mini-swe-agent `.traj.json` files (its tool-calling format: a `messages`
 * list of system, user, assistant with `tool_calls`, tool, and a last `exit`
 * message holding the submission) to recorded runs. Pure. A coding run is one
 * user message (the task) and every step in that one turn: the assistant's
 * text and its calls (a `bash` call with `{ command }`), each call's output
 * matched by call id. The submitting call has no tool message: mini-swe-agent
 * stops on it and records what the command printed as the `exit` message, so
 * that is its output. Cost data, model responses and call ids are dropped.
 */
import { CODING_RUN_ANSWER } from './convert-swe-agent.js';
import { cutOutput, type RecordedCall, type RecordedRun, type RecordedStep } from './recorded-run.js';

interface MiniToolCall {
  readonly id?: string;
  readonly function?: { readonly name?: string; readonly arguments?: string };
}

interface MiniMessage {
  readonly role?: string;
  readonly content?: unknown;
  readonly tool_calls?: readonly MiniToolCall[] | null;
  readonly tool_call_id?: string;
}

export interface MiniSweAgentTrajectory {
  readonly messages?: readonly MiniMessage[];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? '');
}

function parseArgs(raw: string | undefined, where: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(raw ?? '{}');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${where}: tool call arguments are not an object`);
  return parsed as Record<string, unknown>;
}

/** The model steps of a run: its assistant messages that call tools (the rule's "tool steps"). */
export function miniSweAgentSteps(traj: MiniSweAgentTrajectory): number {
  return (traj.messages ?? []).filter(
    (message) => message.role === 'assistant' && (message.tool_calls ?? []).length > 0,
  ).length;
}

function outputsById(messages: readonly MiniMessage[]): Map<string, string> {
  const outputs = new Map<string, string>();
  for (const message of messages)
    if (message.role === 'tool' && message.tool_call_id !== undefined)
      outputs.set(message.tool_call_id, text(message.content));
  return outputs;
}

function convertStep(message: MiniMessage, outputs: Map<string, string>, exit: string | undefined, id: string) {
  const calls = (message.tool_calls ?? []).map((call, i): RecordedCall => {
    const name = call.function?.name ?? '';
    const output = (call.id !== undefined ? outputs.get(call.id) : undefined) ?? exit;
    if (output === undefined) throw new Error(`${id}: no recorded output for the ${name} call ${call.id ?? i}`);
    return { name, args: parseArgs(call.function?.arguments, id), output: cutOutput(output) };
  });
  const thought = text(message.content).trim();
  return { ...(thought ? { text: thought } : {}), calls };
}

export function convertMiniSweAgentRun(traj: MiniSweAgentTrajectory, id: string, source: string): RecordedRun {
  const messages = traj.messages ?? [];
  const system = messages.find((message) => message.role === 'system');
  const users = messages.filter((message) => message.role === 'user');
  if (users.length !== 1) throw new Error(`${id}: ${users.length} user messages, a coding run has one (the task)`);
  const assistants = messages.filter((message) => message.role === 'assistant');
  const exit = messages.find((message) => message.role === 'exit');
  const outputs = outputsById(messages);
  const steps = assistants.map((message, i): RecordedStep => {
    if ((message.tool_calls ?? []).length === 0) throw new Error(`${id}: assistant message ${i} calls no tool`);
    // Only the last step may take the exit message's text: the submission its command printed.
    const last = i === assistants.length - 1;
    return convertStep(message, outputs, last && exit ? text(exit.content) : undefined, id);
  });
  return {
    id,
    kind: 'coding',
    source,
    systemPrompt: text(system?.content),
    turns: [{ user: text(users[0]?.content), steps, answer: CODING_RUN_ANSWER }],
  };
}

/** The task a path is about: `.../<instance>.traj.json`. */
export function miniTaskOf(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.traj\.json$/, '');
}

/**
 * The selection rule of the longer coding runs: in path order, one run per
 * task (the first path naming it), those with `minSteps` to `maxSteps` tool
 * steps, the first `count`. Files are read through `load` only until `count`
 * runs are found, so a file past them need not be readable.
 */
export function selectMiniSweAgentRuns(
  paths: readonly string[],
  load: (path: string) => MiniSweAgentTrajectory,
  rule: { readonly minSteps: number; readonly maxSteps: number; readonly count: number },
): { path: string; traj: MiniSweAgentTrajectory }[] {
  const seen = new Set<string>();
  const chosen: { path: string; traj: MiniSweAgentTrajectory }[] = [];
  for (const path of [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (chosen.length >= rule.count) break;
    const task = miniTaskOf(path);
    if (seen.has(task)) continue;
    seen.add(task);
    const traj = load(path);
    const steps = miniSweAgentSteps(traj);
    if (steps >= rule.minSteps && steps <= rule.maxSteps) chosen.push({ path, traj });
  }
  return chosen;
}
