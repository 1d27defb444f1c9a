/**
 * tau-bench's historical trajectories (OpenAI chat messages: system, user,
 * assistant with `tool_calls`, tool) to recorded runs. Pure.
 *
 * An assistant text with no tool call ends its turn (it is what the user
 * reads); a text that tool calls follow in the same turn rides on their step.
 * A last user message nobody answered (tau-bench's `###STOP###`) is dropped.
 */
import {
  cutOutput,
  type RecordedCall,
  type RecordedRun,
  type RecordedStep,
  type RecordedTurn,
} from './recorded-run.js';

interface ChatToolCall {
  readonly id?: string;
  readonly function?: { readonly name?: string; readonly arguments?: string };
}

interface ChatMessage {
  readonly role?: string;
  readonly content?: string | null;
  readonly tool_calls?: readonly ChatToolCall[];
  readonly tool_call_id?: string;
}

/** One entry of a tau-bench results file. */
export interface TauBenchRun {
  readonly task_id?: number;
  readonly trial?: number;
  readonly traj?: readonly ChatMessage[];
}

function parseArgs(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`tool call arguments are not an object: ${text.slice(0, 80)}`);
  return parsed as Record<string, unknown>;
}

interface PendingCall {
  id: string | undefined;
  name: string;
  args: Record<string, unknown>;
  output: string | undefined;
}

interface PendingTurn {
  user: string;
  steps: { text: string | undefined; calls: PendingCall[] }[];
  text: string | undefined;
}

function closeTurn(turn: PendingTurn, runName: string): RecordedTurn {
  const steps = turn.steps.map((step): RecordedStep => ({
    ...(step.text ? { text: step.text } : {}),
    calls: step.calls.map((call): RecordedCall => {
      if (call.output === undefined) throw new Error(`${runName}: the call ${call.name} has no recorded output`);
      return { name: call.name, args: call.args, output: cutOutput(call.output) };
    }),
  }));
  return { user: turn.user, steps, answer: turn.text ?? '' };
}

/** The earliest call of the turn still waiting for its output, with this id (ids repeat across turns). */
function waitingCall(turn: PendingTurn, id: string | undefined): PendingCall | undefined {
  for (const step of turn.steps)
    for (const call of step.calls) if (call.output === undefined && (id === undefined || call.id === id)) return call;
  return undefined;
}

function addAssistant(turn: PendingTurn, message: ChatMessage): void {
  const text = message.content?.trim() ? message.content : undefined;
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) {
    turn.text = turn.text && text ? `${turn.text}\n\n${text}` : (text ?? turn.text);
    return;
  }
  turn.steps.push({
    // A text said before more tool calls is part of the step that makes them.
    text: [turn.text, text].filter(Boolean).join('\n\n') || undefined,
    calls: calls.map((call) => ({
      id: call.id,
      name: call.function?.name ?? 'unknown_tool',
      args: parseArgs(call.function?.arguments),
      output: undefined,
    })),
  });
  turn.text = undefined;
}

export function convertTauBenchRun(run: TauBenchRun, id: string, source: string): RecordedRun {
  const messages = run.traj ?? [];
  const system = messages.find((message) => message.role === 'system')?.content ?? '';
  const turns: RecordedTurn[] = [];
  let turn: PendingTurn | undefined;
  for (const message of messages) {
    if (message.role === 'user') {
      if (turn) turns.push(closeTurn(turn, id));
      turn = { user: message.content ?? '', steps: [], text: undefined };
    } else if (message.role === 'assistant' && turn) {
      addAssistant(turn, message);
    } else if (message.role === 'tool' && turn) {
      const call = waitingCall(turn, message.tool_call_id) ?? waitingCall(turn, undefined);
      if (!call) throw new Error(`${id}: a tool output answers no call`);
      call.output = message.content ?? '';
    }
  }
  // A last user message with no answer (the simulated user's ###STOP###) is dropped.
  if (turn && (turn.steps.length > 0 || turn.text !== undefined)) turns.push(closeTurn(turn, id));
  return { id, kind: 'support', source, systemPrompt: system, turns };
}

/** Messages of `role` in a run. */
const messagesOf = (run: TauBenchRun, role: string): number =>
  (run.traj ?? []).filter((message) => message.role === role).length;

/** The selection rule: trial 0, in task order, at least `minUsers` user messages and `minTools` tool calls, the first `count`. */
export function selectTauBenchRuns(
  runs: readonly TauBenchRun[],
  rule: { readonly minUsers: number; readonly minTools: number; readonly count: number },
): TauBenchRun[] {
  return runs
    .filter((run) => run.trial === 0)
    .sort((a, b) => (a.task_id ?? 0) - (b.task_id ?? 0))
    .filter((run) => messagesOf(run, 'user') >= rule.minUsers && messagesOf(run, 'tool') >= rule.minTools)
    .slice(0, rule.count);
}

/**
 * The held-out rule (docs/simulator.md, "Held-out runs"): runs of trials 1 and later whose task is none of
 * `taken`, in (trial, task) order, with the same least numbers of user messages and tool calls, the first `count`.
 */
export function selectHeldOutTauBenchRuns(
  runs: readonly TauBenchRun[],
  taken: ReadonlySet<number>,
  rule: { readonly minUsers: number; readonly minTools: number; readonly count: number },
): TauBenchRun[] {
  return runs
    .filter((run) => (run.trial ?? 0) >= 1 && !taken.has(run.task_id ?? 0))
    .sort((a, b) => (a.trial ?? 0) - (b.trial ?? 0) || (a.task_id ?? 0) - (b.task_id ?? 0))
    .filter((run) => messagesOf(run, 'user') >= rule.minUsers && messagesOf(run, 'tool') >= rule.minTools)
    .slice(0, rule.count);
}
