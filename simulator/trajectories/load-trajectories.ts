/**
 * Reads the committed recorded runs (data/*.json, written by import.ts) and
 * checks their shape, so a hand-edited or truncated file fails with the
 * field that is wrong instead of a replay that silently diverges.
 */
import { readFileSync } from 'node:fs';
import type { RecordedCall, RecordedRun, RecordedStep, RecordedTurn } from './recorded-run.js';

export interface TrajectoryFile {
  readonly licence: string;
  readonly runs: readonly RecordedRun[];
}

/** The committed sets of runs: the support dialogues, the short coding runs and the longer ones (30-95 steps). */
export type TrajectorySet = 'support' | 'coding' | 'long-coding';

/** The data file of each set. */
export const TRAJECTORY_FILES: Readonly<Record<TrajectorySet, string>> = {
  support: 'tau-bench-airline.json',
  coding: 'swe-agent-demonstrations.json',
  'long-coding': 'mini-swe-agent-runs.json',
};

type Json = Record<string, unknown>;

function object(value: unknown, where: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${where} must be an object`);
  return value as Json;
}

function string(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new Error(`${where} must be a string`);
  return value;
}

function list(value: unknown, where: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new Error(`${where} must be an array`);
  return value;
}

function parseCall(value: unknown, where: string): RecordedCall {
  const call = object(value, where);
  return {
    name: string(call['name'], `${where}.name`),
    args: object(call['args'], `${where}.args`),
    output: string(call['output'], `${where}.output`),
  };
}

function parseStep(value: unknown, where: string): RecordedStep {
  const step = object(value, where);
  const calls = list(step['calls'], `${where}.calls`).map((call, i) => parseCall(call, `${where}.calls[${i}]`));
  if (calls.length === 0) throw new Error(`${where}.calls must not be empty (a step without calls is the answer)`);
  const text = step['text'] === undefined ? undefined : string(step['text'], `${where}.text`);
  return { ...(text !== undefined ? { text } : {}), calls };
}

function parseTurn(value: unknown, where: string): RecordedTurn {
  const turn = object(value, where);
  return {
    user: string(turn['user'], `${where}.user`),
    steps: list(turn['steps'], `${where}.steps`).map((step, i) => parseStep(step, `${where}.steps[${i}]`)),
    answer: string(turn['answer'], `${where}.answer`),
  };
}

function parseRun(value: unknown, where: string): RecordedRun {
  const run = object(value, where);
  const kind = run['kind'];
  if (kind !== 'support' && kind !== 'coding') throw new Error(`${where}.kind must be 'support' or 'coding'`);
  const turns = list(run['turns'], `${where}.turns`).map((turn, i) => parseTurn(turn, `${where}.turns[${i}]`));
  if (turns.length === 0) throw new Error(`${where}.turns must not be empty`);
  return {
    id: string(run['id'], `${where}.id`),
    kind,
    source: string(run['source'], `${where}.source`),
    systemPrompt: string(run['systemPrompt'], `${where}.systemPrompt`),
    turns,
  };
}

/** A data file's content, checked; throws naming the first wrong field. */
export function parseTrajectoryFile(value: unknown, name: string): TrajectoryFile {
  const file = object(value, name);
  return {
    licence: string(file['licence'], `${name}.licence`),
    runs: list(file['runs'], `${name}.runs`).map((run, i) => parseRun(run, `${name}.runs[${i}]`)),
  };
}

/** Where a set's file lies: the committed workloads (`data`) or a held-out check (docs/simulator.md, "Held-out runs"). */
export type TrajectoryFolder = 'data' | 'held-out' | 'held-out-2' | 'held-out-3';

/** Every committed run of `set`, from `folder`. */
export function loadTrajectories(set: TrajectorySet, folder: TrajectoryFolder = 'data'): readonly RecordedRun[] {
  const name = TRAJECTORY_FILES[set];
  const text = readFileSync(new URL(`./${folder}/${name}`, import.meta.url), 'utf8');
  return parseTrajectoryFile(JSON.parse(text), name).runs;
}
