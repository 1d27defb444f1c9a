/**
 * A public agent run in the compact form the simulator replays: the agent's
 * system prompt, and per user turn the recorded model steps (text and tool
 * calls), each call's recorded output, and the turn's final answer. Plain
 * JSON, so it crosses to the worker threads inside a scenario.
 */

/** One recorded tool call and what the tool returned. */
export interface RecordedCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** The tool's recorded output, verbatim (cut at MAX_OUTPUT_CHARS). */
  readonly output: string;
}

/** One model step that called tools: its text (if any) and its calls, in one model content. */
export interface RecordedStep {
  readonly text?: string | undefined;
  readonly calls: readonly RecordedCall[];
}

/** One user message, the model's tool steps in answer to it, and its final text answer. */
export interface RecordedTurn {
  readonly user: string;
  readonly steps: readonly RecordedStep[];
  readonly answer: string;
}

export type RunKind = 'support' | 'coding';

export interface RecordedRun {
  /** Short id, used in the scenario's name. */
  readonly id: string;
  readonly kind: RunKind;
  /** Repository, commit and path (and the run within the file) it was converted from. */
  readonly source: string;
  readonly systemPrompt: string;
  readonly turns: readonly RecordedTurn[];
}

/** The selection rule's cut for a tool output (docs/simulator.md, "Recorded trajectories"). */
export const MAX_OUTPUT_CHARS = 8_000;

export function cutOutput(text: string): string {
  return text.length > MAX_OUTPUT_CHARS ? text.slice(0, MAX_OUTPUT_CHARS) : text;
}

/** Tool calls in a run (every step's calls). */
export function toolCallCount(run: RecordedRun): number {
  return run.turns.reduce((sum, turn) => sum + turn.steps.reduce((n, step) => n + step.calls.length, 0), 0);
}
