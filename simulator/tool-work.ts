/**
 * Scenarios whose model reads back and repeats tool work (issue 29): the tools, the user's messages
 * and the scripted model of `work` scenarios, and the facts their claims are checked on.
 *
 * - `log-search`: a tool returns a 2.1 MB log; later the user asks for the one error in it. The
 *   model answers from its request when the value is there; when it is not, it searches an
 *   offloaded result it can see (`full_result_artifact`) with one `recall_history` call by pattern.
 * - `repeat-read`: the model reads a configuration file, works on logs, then is asked for a setting
 *   of the file; when the setting is not in its request (the result was masked), it calls the tool
 *   again with the same arguments.
 *
 * - `budget-line`: two log fetches a turn on a small window, each content quoting the budget line
 *   the request ended with (simulator/budget-line-work.ts).
 *
 * The model decides from what it was sent (the value, the handle, the last tool response), never
 * from the turn number, so a guard that keeps the value in view, loses the handle or runs the tool
 * again makes the claims fail.
 */
import { FunctionTool, type Event, type LlmRequest } from '@google/adk';
import { Type } from '@google/genai';
import type { Content, Part } from '@google/genai';
import { OFFLOAD_ARTIFACT_PREFIX } from '../src/index.js';
import { RECALL_TOOL_NAME } from '../src/internal.js';
import { contentsText, logText } from '../src/testing/index.js';
import { budgetLineAnswer, GATEWAY_LOGS_TOOL, type BudgetLineFacts } from './budget-line-work.js';
import type { ToolWorkKind } from './scenario-types.js';

/** Key of the mark on a result answered from the stored one (README, "No repeated fetch"). */
const STORED_ANSWER_KEY = 'context_guard_stored_result';

const LOG_TOOL = 'fetch_service_log';
const CONFIG_TOOL = 'read_config';
const CONFIG_PATH = '/etc/app.toml';

/** Row of the 56,000-row log that holds the error; past the head and tail a cut result keeps. */
const NEEDLE_ROW = 31_337;
const LOG_VALUE = /disk quota exceeded on (vol-[0-9a-f]+)/;
const CONFIG_VALUE = /request_timeout = (\d+s)/;
/** A search term, case differing from the log's, as a model would type it. */
const LOG_PATTERN = 'Disk Quota';

/** The user's messages, one per turn; the last one asks for the value. */
const MESSAGES: Readonly<Record<ToolWorkKind, readonly string[]>> = {
  'log-search': [
    "Fetch today's log of the storage service.",
    'Thanks. Keep it at hand, I will have a question about it.',
    'Which volume hit the disk quota error in that log?',
  ],
  'repeat-read': [
    `Read ${CONFIG_PATH}.`,
    'Fetch the gateway logs, part 1.',
    'Fetch the gateway logs, part 2.',
    'Fetch the gateway logs, part 3.',
    `What is request_timeout in ${CONFIG_PATH}?`,
  ],
  'budget-line': Array.from({ length: 12 }, (_, i) => `Fetch the gateway logs, parts ${2 * i + 1} and ${2 * i + 2}.`),
};

export function workTurns(kind: ToolWorkKind): number {
  return MESSAGES[kind].length;
}

export function workMessage(kind: ToolWorkKind, turn: number): string {
  return MESSAGES[kind][turn - 1] ?? `Turn ${turn}.`;
}

let bigLog: string | undefined;

/** 2.1 MB of distinct lines (as JSON text); one holds the error. Built once, shared by every run. */
function serviceLog(): string {
  bigLog ??= Array.from({ length: 56_000 }, (_, row) =>
    row === NEEDLE_ROW
      ? `row ${row}: ERROR disk quota exceeded on vol-7f3a`
      : `row ${String(row).padStart(6, '0')}: status=ok latency=${(row * 37) % 1000}ms`,
  ).join('\n');
  return bigLog;
}

/** ~9,000 characters of settings (under the 10 KiB cut); the asked one past the first 2,048. */
function configBody(): string {
  const lines = Array.from({ length: 120 }, (_, i) =>
    i === 60 ? 'request_timeout = 45s' : `setting_${String(i).padStart(3, '0')} = ${'v'.repeat(50)}`,
  );
  return lines.join('\n');
}

/** The work's tools and how often each really ran. */
export interface WorkTools {
  readonly tools: FunctionTool[];
  readonly runs: Record<string, number>;
}

export function workTools(kind: ToolWorkKind): WorkTools {
  const runs: Record<string, number> = {};
  const counted = (
    name: string,
    description: string,
    properties: Record<string, { type: Type }>,
    result: (input: Record<string, unknown>) => unknown,
  ): FunctionTool =>
    new FunctionTool({
      name,
      description,
      parameters: { type: Type.OBJECT, properties },
      execute: (input: unknown) => {
        runs[name] = (runs[name] ?? 0) + 1;
        return result((input ?? {}) as Record<string, unknown>);
      },
    });
  const logs = (): FunctionTool =>
    counted(GATEWAY_LOGS_TOOL, 'Returns a part of the gateway logs.', { part: { type: Type.INTEGER } }, (input) => ({
      logs: logText(6_000, Number(input['part'] ?? 1)),
    }));
  if (kind === 'budget-line') return { runs, tools: [logs()] };
  if (kind === 'log-search')
    return {
      runs,
      tools: [
        counted(LOG_TOOL, "Returns a service's log of the day.", { service: { type: Type.STRING } }, () => ({
          output: serviceLog(),
        })),
      ],
    };
  return {
    runs,
    tools: [
      counted(CONFIG_TOOL, 'Reads a configuration file.', { path: { type: Type.STRING } }, (input) => ({
        path: input['path'],
        body: configBody(),
      })),
      logs(),
    ],
  };
}

const say = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const call = (name: string, args: Record<string, unknown>): Content => ({
  role: 'model',
  parts: [{ functionCall: { name, args } }],
});

function lastParts(request: LlmRequest): Part[] {
  return request.contents[request.contents.length - 1]?.parts ?? [];
}

/** The log question: the value from the request, else one recall by pattern of a visible offloaded result. */
function answerLogQuestion(request: LlmRequest): Content {
  const text = contentsText(request.contents);
  const found = LOG_VALUE.exec(text);
  if (found) return say(`The disk quota error is on ${found[1]}.`);
  const recalled = lastParts(request).some((part) => part.functionResponse?.name === RECALL_TOOL_NAME);
  const handle = new RegExp(`${OFFLOAD_ARTIFACT_PREFIX}[^"\\s\\\\]+`).exec(JSON.stringify(request.contents));
  if (!recalled && handle && RECALL_TOOL_NAME in request.toolsDict)
    return call(RECALL_TOOL_NAME, { artifact: handle[0], pattern: LOG_PATTERN });
  return say('I cannot find that error in what I have.');
}

/** The config question: the value from the request (saying how old a stored answer is), else read the file again. */
function answerConfigQuestion(request: LlmRequest): Content {
  const found = CONFIG_VALUE.exec(contentsText(request.contents));
  const response = lastParts(request).find((part) => part.functionResponse?.name === CONFIG_TOOL)?.functionResponse;
  const stored = response?.response?.[STORED_ANSWER_KEY] as { age_seconds?: number } | undefined;
  if (found)
    return say(
      `request_timeout is ${found[1]}${stored ? ` (from the stored result, ${stored.age_seconds ?? '?'} s old)` : ''}.`,
    );
  if (response) return say('The file does not say.');
  return call(CONFIG_TOOL, { path: CONFIG_PATH });
}

/** What the model answers to `message` (the turn's user text), from what `request` holds. */
export function workAnswer(kind: ToolWorkKind, turn: number, request: LlmRequest): Content {
  const messages = MESSAGES[kind];
  if (kind === 'budget-line') return budgetLineAnswer(turn, workMessage(kind, turn), request.contents);
  const answered = lastParts(request).some((part) => part.functionResponse);
  if (turn === messages.length)
    return kind === 'log-search' ? answerLogQuestion(request) : answerConfigQuestion(request);
  if (answered) return say('Done.');
  if (kind === 'log-search') return turn === 1 ? call(LOG_TOOL, { service: 'storage' }) : say('Noted.');
  return turn === 1 ? call(CONFIG_TOOL, { path: CONFIG_PATH }) : call(GATEWAY_LOGS_TOOL, { part: turn - 1 });
}

/** Whether the asked value was absent from the request the question first reached the model in. */
export function valueLostAtQuestion(kind: ToolWorkKind, requests: readonly { contents: Content[] }[]): boolean {
  if (kind === 'budget-line') return false;
  const question = MESSAGES[kind][MESSAGES[kind].length - 1] ?? '';
  const first = requests.find((request) =>
    request.contents.some(
      (content) => content.role === 'user' && content.parts?.some((part) => part.text === question),
    ),
  );
  const value = kind === 'log-search' ? LOG_VALUE : CONFIG_VALUE;
  return first !== undefined && !value.test(contentsText(first.contents));
}

/** What a work run did, read from its stored events, its tools and the guard's status. */
export interface ToolWorkFacts {
  readonly kind: ToolWorkKind;
  /** The scenario that differs only by the feature off, when it has one. */
  readonly offTwin?: string | undefined;
  /** The model's final text answer. */
  readonly answer: string;
  /** The asked value was not in the request when the question came. */
  readonly lostAtQuestion: boolean;
  /** Function calls the model made, by tool. */
  readonly toolCalls: Readonly<Record<string, number>>;
  /** Times each tool really ran. */
  readonly toolRuns: Readonly<Record<string, number>>;
  /** Characters (JSON) of each recall answer. */
  readonly recallResultChars: readonly number[];
  /** Ground-truth tokens of each recall answer. */
  readonly recallResultTokens: readonly number[];
  /** `age_seconds` of each call answered from its stored result. */
  readonly storedAnswerAges: readonly number[];
  /** `status()` of the agent (guard runs only). */
  readonly status?: { readonly storedAnswers: number; readonly recallLineReads: number } | undefined;
  /**
   * Without a pattern: reading the offloaded log by 4,000-character pages from its start until the
   * line, in calls and ground-truth tokens (log-search only).
   */
  readonly pagingToLine?: { readonly calls: number; readonly tokens: number } | undefined;
  /** The budget line sent, read and kept out of storage (budget-line only; simulator/budget-line-work.ts). */
  readonly budgetLine?: BudgetLineFacts | undefined;
}

function functionParts(events: readonly Event[]): Part[] {
  return events.flatMap((event) => event.content?.parts ?? []);
}

/** The facts of one run. */
export function toolWorkFacts(
  kind: ToolWorkKind,
  input: {
    readonly events: readonly Event[];
    readonly runs: Readonly<Record<string, number>>;
    readonly requests: readonly { contents: Content[] }[];
    readonly countText: (text: string) => number;
    readonly status?: ToolWorkFacts['status'];
    readonly offTwin?: string | undefined;
  },
): ToolWorkFacts {
  const parts = functionParts(input.events);
  const toolCalls: Record<string, number> = {};
  for (const part of parts)
    if (part.functionCall?.name) toolCalls[part.functionCall.name] = (toolCalls[part.functionCall.name] ?? 0) + 1;
  const recalls = parts
    .filter((part) => part.functionResponse?.name === RECALL_TOOL_NAME)
    .map((part) => JSON.stringify(part.functionResponse?.response ?? {}));
  const ages = parts
    .map((part) => part.functionResponse?.response?.[STORED_ANSWER_KEY])
    .filter((mark): mark is { age_seconds: number } => typeof mark === 'object' && mark !== null)
    .map((mark) => mark.age_seconds);
  const answer =
    [...input.events]
      .reverse()
      .filter((event) => event.author !== 'user')
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => typeof part.text === 'string' && part.text.length > 0)?.text ?? '';
  return {
    kind,
    offTwin: input.offTwin,
    answer,
    lostAtQuestion: valueLostAtQuestion(kind, input.requests),
    toolCalls,
    toolRuns: { ...input.runs },
    recallResultChars: recalls.map((text) => text.length),
    recallResultTokens: recalls.map((text) => input.countText(text)),
    storedAnswerAges: ages,
    // The two counters only: the whole status would carry the run's budget figures into every row.
    status: input.status
      ? { storedAnswers: input.status.storedAnswers, recallLineReads: input.status.recallLineReads }
      : undefined,
    pagingToLine: kind === 'log-search' ? pagingToLine(input.countText) : undefined,
  };
}

/** Reading the log's JSON text (as offloaded) by 4,000-character pages until the page holding the error. */
function pagingToLine(countText: (text: string) => number): { calls: number; tokens: number } {
  const text = JSON.stringify({ output: serviceLog() });
  const at = text.indexOf('ERROR disk quota');
  const calls = Math.ceil((at + 1) / 4_000);
  let tokens = 0;
  for (let page = 0; page < calls; page++) tokens += countText(text.slice(page * 4_000, (page + 1) * 4_000));
  return { calls, tokens };
}
