/**
 * The commands of the model-based property runs. Each is a small class with
 * `check`, `run` and a readable `toString`, so a failing run prints the
 * shortest conversation that breaks a promise. The model is a ledger of what
 * was sent (turns, payload characters), not a copy of the guard: the checks
 * live in `GuardedWorld`.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { CheckOptions, GuardedWorld, StepPlan, ToolCallPlan, TurnPlan } from '../support/guarded-world.js';
import { payloadText, type PayloadKind } from '../support/payloads.js';
import type { SummarizerMode } from '../../src/testing/index.js';

/** What the commands remember: enough to bound a run's cost and to describe it. */
export interface Ledger {
  /** Commands run so far (for the printed counts). */
  commands: number;
  turns: number;
  /** Characters of tool output and user text requested so far. */
  payloadChars: number;
  restarts: number;
  /** Cap on `payloadChars` for one run (keeps the suite's time bounded). */
  readonly payloadCap: number;
  /** The largest agent window of the run, for sizes given as window fractions. */
  readonly largestWindow: number;
  readonly checks: CheckOptions;
}

export type GuardCommand = fc.AsyncCommand<Ledger, GuardedWorld>;

const CHARS_PER_TOKEN = 3;

function shortText(text: string): string {
  const flat = text.replace(/\n/g, '⏎');
  return flat.length > 24 ? `"${flat.slice(0, 24)}…"(${text.length})` : JSON.stringify(flat);
}

function describeCall(call: ToolCallPlan): string {
  const size = call.windowFraction !== undefined ? `${call.windowFraction}W` : `${call.chars ?? 0}c`;
  return `fetch(${call.kind}, ${size}, seed ${call.seed})`;
}

function describeStep(step: StepPlan): string {
  return step.kind === 'transfer' ? `transfer→${step.to}` : step.calls.map(describeCall).join(' ‖ ');
}

function plannedChars(plan: TurnPlan, largestWindow: number): number {
  let chars = plan.text.length + plan.answerChars;
  for (const step of plan.steps) {
    if (step.kind !== 'tools') continue;
    for (const call of step.calls)
      chars +=
        call.windowFraction !== undefined ? call.windowFraction * largestWindow * CHARS_PER_TOKEN : (call.chars ?? 0);
  }
  return chars;
}

/** Runs the checks after a command; a violation fails the run with every problem listed. */
async function verify(
  world: GuardedWorld,
  ledger: Ledger,
  turn?: { errorCodes: string[]; thrown?: string | undefined; rejectedBefore: number },
): Promise<void> {
  const problems = world.checkNewCalls(ledger.checks);
  if (turn) {
    if (turn.thrown !== undefined) problems.push(`the turn threw: ${turn.thrown.slice(0, 300)}`);
    const rejectedNow = world.stats.rejectedCalls - turn.rejectedBefore;
    const unexpected = turn.errorCodes.filter((code) => code !== '400');
    if (unexpected.length > 0) problems.push(`the turn ended with error events ${unexpected.join(', ')}`);
    if (turn.errorCodes.length > rejectedNow)
      problems.push(`${turn.errorCodes.length} error events for ${rejectedNow} rejected calls`);
  }
  problems.push(...(await world.stateViolations()));
  expect(problems, `after ${ledger.turns} turns`).toEqual([]);
}

/** A user turn: a message (maybe with an image), then the planned tool steps and hand-overs, then an answer. */
export class UserTurn implements GuardCommand {
  constructor(readonly plan: TurnPlan) {}
  check(ledger: Readonly<Ledger>): boolean {
    return ledger.payloadChars + plannedChars(this.plan, ledger.largestWindow) <= ledger.payloadCap;
  }
  async run(ledger: Ledger, world: GuardedWorld): Promise<void> {
    ledger.commands++;
    ledger.turns++;
    ledger.payloadChars += plannedChars(this.plan, ledger.largestWindow);
    const rejectedBefore = world.stats.rejectedCalls;
    const outcome = await world.turn(this.plan);
    await verify(world, ledger, { ...outcome, rejectedBefore });
  }
  toString(): string {
    const { plan } = this;
    const image = plan.image ? `, img ${plan.image.width}x${plan.image.height}` : '';
    const steps = plan.steps.length > 0 ? `, [${plan.steps.map(describeStep).join('; ')}]` : '';
    return `turn(#${plan.entry} ${shortText(plan.text)}${image}${steps}, answer ${plan.answerChars}c)`;
  }
}

/** A user message larger than a whole window (`fraction` of the largest window, in tokens). */
export class HugeUserMessage implements GuardCommand {
  constructor(
    readonly kind: PayloadKind,
    readonly fraction: number,
    readonly entry: number,
  ) {}
  private chars(ledger: Readonly<Ledger>): number {
    return Math.round(this.fraction * ledger.largestWindow * CHARS_PER_TOKEN);
  }
  check(ledger: Readonly<Ledger>): boolean {
    return ledger.payloadChars + this.chars(ledger) <= ledger.payloadCap;
  }
  async run(ledger: Ledger, world: GuardedWorld): Promise<void> {
    ledger.commands++;
    ledger.turns++;
    const chars = this.chars(ledger);
    ledger.payloadChars += chars;
    const text = `Please read this: ${payloadText(this.kind, chars, ledger.turns)}`;
    const rejectedBefore = world.stats.rejectedCalls;
    const outcome = await world.turn({ entry: this.entry, text, steps: [], answerChars: 20 });
    await verify(world, ledger, { ...outcome, rejectedBefore });
  }
  toString(): string {
    return `hugeUserMessage(#${this.entry} ${this.kind}, ${this.fraction.toFixed(2)}W)`;
  }
}

/** The provider starts or stops reporting usageMetadata. */
export class ReportUsage implements GuardCommand {
  constructor(readonly on: boolean) {}
  check(): boolean {
    return true;
  }
  async run(ledger: Ledger, world: GuardedWorld): Promise<void> {
    ledger.commands++;
    world.reportUsage = this.on;
  }
  toString(): string {
    return `reportUsage(${this.on})`;
  }
}

/** The provider's real tokens per estimated token move to `factor` x the run's base ratio. */
export class Drift implements GuardCommand {
  constructor(readonly factor: number) {}
  check(): boolean {
    return true;
  }
  async run(ledger: Ledger, world: GuardedWorld): Promise<void> {
    ledger.commands++;
    world.ratio = world.config.ratio * this.factor;
  }
  toString(): string {
    return `drift(x${this.factor.toFixed(3)})`;
  }
}

/** The summarizer starts behaving as `mode` (ok, throw, hang past the timeout, huge, empty, thoughts...). */
export class SetSummarizer implements GuardCommand {
  constructor(readonly mode: SummarizerMode) {}
  check(): boolean {
    return true;
  }
  async run(ledger: Ledger, world: GuardedWorld): Promise<void> {
    ledger.commands++;
    world.summarizer.mode = this.mode;
  }
  toString(): string {
    return `summarizer(${this.mode})`;
  }
}

/** A new process: a new ContextGuard instance and new Runners on the same session service. */
export class Restart implements GuardCommand {
  check(): boolean {
    return true;
  }
  async run(ledger: Ledger, world: GuardedWorld): Promise<void> {
    ledger.commands++;
    ledger.restarts++;
    world.restart();
    await verify(world, ledger);
  }
  toString(): string {
    return 'restart()';
  }
}
