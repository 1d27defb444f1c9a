/**
 * Builders for integration tests: a real ADK Runner, a real session service,
 * real FunctionTools and a strict ScriptedLlm.
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import type { BasePlugin, BaseSessionService, Event, Session } from '@google/adk';
import type { Content } from '@google/genai';
import { callThenAnswer } from './call-then-answer.js';
import { ContextGuard, type ContextGuardOptions } from '../../src/index.js';
import {
  logText,
  ScriptedLlm,
  ScriptedSummarizer,
  ratioTokenCounter,
  type ModelScript,
} from '../../src/testing/index.js';

export const APP_NAME = 'guard-test';
export const USER_ID = 'user-1';

/**
 * A guard on an 8k window that makes a summary at every compaction, in the call: masking alone would
 * make room with `toolThenAnswerScript(3_000)`, and preparing ahead adds summarizer calls.
 */
export function summarizingGuard(options: ContextGuardOptions = {}): ContextGuard {
  return new ContextGuard({
    contextWindow: 8_000,
    summarizer: new ScriptedSummarizer(),
    maskKeepRecent: 0,
    prepareTurnsAhead: 0,
    ...options,
  });
}

/** A tool that returns a payload of the requested size. */
export function fetchLogsTool(): FunctionTool {
  return new FunctionTool({
    name: 'fetch_logs',
    description: 'Returns server logs of the requested size.',
    parameters: {
      type: 'OBJECT',
      properties: { size: { type: 'INTEGER' }, seed: { type: 'INTEGER' } },
      required: ['size'],
    } as never,
    execute: (input: unknown) => {
      const { size, seed } = input as { size: number; seed?: number };
      return { logs: logText(size, seed ?? size) };
    },
  });
}

/**
 * A script for a tool-heavy agent: on a user turn it calls `fetch_logs` with
 * `toolSize`, then answers with text once it has the result.
 */
export function toolThenAnswerScript(toolSize: number): ModelScript {
  // Payloads depend on the conversation, not on the model's call counter, so two replicas replay the same session.
  return callThenAnswer({
    call: ({ request }) =>
      toolSize > 0 ? { name: 'fetch_logs', args: { size: toolSize, seed: request.contents.length + 1 } } : undefined,
    answer: ({ request }) =>
      `Analysis ${request.contents.length}: the logs show normal latency. ${logText(200, request.contents.length)}`,
  });
}

export interface Harness {
  readonly runner: Runner;
  readonly model: ScriptedLlm;
  readonly sessionService: BaseSessionService;
  readonly agent: LlmAgent;
  /** `startSession`, `storedSession` and `runTurns` on this harness's session service and runner. */
  startSession(): Promise<Session>;
  storedSession(sessionId: string): Promise<Session>;
  runTurns(sessionId: string, to: number, options?: TurnsOptions): Promise<Event[]>;
  /** Starts a session, runs turns 1..`to` on it, and returns it as stored after them. */
  sessionAfterTurns(to: number, options?: TurnsOptions): Promise<Session>;
}

/** The log analyst's strict model: `ratio` real tokens per chars/4 token (default 2), rejecting over `window`. */
export function logsModel(options: { window: number; ratio?: number; script: ModelScript; reportUsage?: boolean }) {
  return new ScriptedLlm({
    window: options.window,
    countTokens: ratioTokenCounter(options.ratio ?? 2),
    script: options.script,
    reportUsage: options.reportUsage ?? true,
  });
}

/** The log analyst: an agent (`worker` by default) with the `fetch_logs` tool. */
export function logsAgent(model: ScriptedLlm, options: { agentName?: string; instruction?: string } = {}): LlmAgent {
  return new LlmAgent({
    name: options.agentName ?? 'worker',
    model,
    instruction: options.instruction ?? 'You analyse server logs.',
    tools: [fetchLogsTool()],
  });
}

/** The agent's model: a strict `ScriptedLlm` built from `window`, `ratio` and `script`, or one the test built. */
export type HarnessModel =
  | { window: number; ratio?: number; script: ModelScript; reportUsage?: boolean; model?: undefined }
  | { model: ScriptedLlm };

export function createHarness(
  options: HarnessModel & {
    plugins?: BasePlugin[];
    instruction?: string;
    sessionService?: BaseSessionService;
    agentName?: string;
  },
): Harness {
  const model = options.model ?? logsModel(options);
  const agent = logsAgent(model, options);
  const sessionService = options.sessionService ?? new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent, sessionService, plugins: options.plugins ?? [] });
  return {
    runner,
    model,
    sessionService,
    agent,
    startSession: () => startSession(sessionService),
    storedSession: (sessionId) => storedSession(sessionService, sessionId),
    runTurns: (sessionId, to, turns) => runTurns(runner, sessionId, to, turns),
    sessionAfterTurns: async (to, turns) => {
      const session = await startSession(sessionService);
      await runTurns(runner, session.id, to, turns);
      return storedSession(sessionService, session.id);
    },
  };
}

export function userMessage(text: string): Content {
  return { role: 'user', parts: [{ text }] };
}

/** Runs one user turn to completion and returns its events. */
export async function runTurn(runner: Runner, sessionId: string, text: string): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: USER_ID, sessionId, newMessage: userMessage(text) }))
    events.push(event);
  return events;
}

/** A new session of the test user (`USER_ID` in `APP_NAME`). */
export async function startSession(sessionService: BaseSessionService): Promise<Session> {
  return sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
}

/** The test user's session as stored now (events and state); throws when it is missing. */
export async function storedSession(sessionService: BaseSessionService, sessionId: string): Promise<Session> {
  const session = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId });
  if (!session) throw new Error(`session ${sessionId} is not stored`);
  return session;
}

export interface TurnsOptions {
  /** @default 1 */
  readonly from?: number;
  /** What each turn asks after `Turn n: `. @default 'check the logs.' */
  readonly ask?: string;
}

/** Runs the user turns `Turn n: <ask>` for n = from..to, one after the other, and returns all their events. */
export async function runTurns(
  runner: Runner,
  sessionId: string,
  to: number,
  { from = 1, ask = 'check the logs.' }: TurnsOptions = {},
): Promise<Event[]> {
  const events: Event[] = [];
  for (let turn = from; turn <= to; turn++) events.push(...(await runTurn(runner, sessionId, `Turn ${turn}: ${ask}`)));
  return events;
}

/** The error codes among `events`, in order. */
export function errorCodes(events: readonly Event[]): string[] {
  return events.flatMap((event) => (event.errorCode ? [event.errorCode] : []));
}
