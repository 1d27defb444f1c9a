/**
 * SWE-agent `.traj` files to recorded runs. Pure. A coding run is one user
 * message (the task) and every step in that one turn: the step's thought as
 * the model's text, its command as one call of the `run` tool, the
 * observation as the tool's output. The in-context demonstrations and the
 * environment state are dropped.
 */
import { cutOutput, type RecordedRun, type RecordedStep } from './recorded-run.js';

/** The tool a SWE-agent command is replayed through. */
export const SWE_AGENT_TOOL = 'run';

/** The final answer of a coding run: SWE-agent ends on `submit` and records no text after it. */
export const CODING_RUN_ANSWER = 'Submitted the change.';

interface SweHistoryMessage {
  readonly role?: string;
  readonly content?: unknown;
  readonly is_demo?: boolean;
}

interface SweStep {
  readonly thought?: string;
  readonly action?: string;
  readonly observation?: string;
}

export interface SweAgentTrajectory {
  readonly history?: readonly SweHistoryMessage[];
  readonly trajectory?: readonly SweStep[];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? '');
}

export function convertSweAgentRun(traj: SweAgentTrajectory, id: string, source: string): RecordedRun {
  const history = (traj.history ?? []).filter((message) => !message.is_demo);
  const system = history.find((message) => message.role === 'system');
  const task = history.find((message) => message.role === 'user');
  if (!task) throw new Error(`${id}: no task message`);
  const steps = (traj.trajectory ?? []).map((step): RecordedStep => {
    const thought = (step.thought ?? '').trim();
    return {
      ...(thought ? { text: thought } : {}),
      calls: [
        {
          name: SWE_AGENT_TOOL,
          args: { command: (step.action ?? '').trim() },
          output: cutOutput(step.observation ?? ''),
        },
      ],
    };
  });
  return {
    id,
    kind: 'coding',
    source,
    systemPrompt: text(system?.content),
    turns: [{ user: text(task.content), steps, answer: CODING_RUN_ANSWER }],
  };
}

/** The task a demonstration path is about: `.../<task>.traj` (the eight marshmallow-1867 replays are one task). */
export function sweTaskOf(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.traj$/, '');
}

/** The selection rule: in path order, one run per task (the first path), at least `minSteps` steps, the first `count`. */
export function selectSweAgentRuns<T extends { readonly path: string; readonly traj: SweAgentTrajectory }>(
  files: readonly T[],
  rule: { readonly minSteps: number; readonly count: number },
): T[] {
  const seen = new Set<string>();
  const chosen: T[] = [];
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const task = sweTaskOf(file.path);
    if (seen.has(task)) continue;
    seen.add(task);
    if ((file.traj.trajectory ?? []).length >= rule.minSteps && chosen.length < rule.count) chosen.push(file);
  }
  return chosen;
}
