/**
 * Recall: a detail planted in the first tool result (a tracking code) is lost
 * from the summaries (the summarizer keeps nothing specific). Ten turns later
 * the user asks for it. The scripted model answers only from what it was sent,
 * and calls `recall_history` when it has the tool. Run with and without the
 * tool, on the real Runner with the strict model.
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { ContextGuard, contextRecallTool, type ContextGuardOptions, type Summarizer } from '../src/index.js';
import { RECALL_TOOL_NAME } from '../src/internal.js';
import { contentsText, logText, ratioTokenCounter, ScriptedLlm, type ModelScript } from '../src/testing/index.js';

export const RECALL_WINDOW = 8_000;
export const PLANTED_CODE = 'TRK-99812-ZQ';
const QUESTION = 'What was the tracking code in the first log?';

export interface RecallResult {
  readonly withTool: boolean;
  /** The model's final answer contains the exact code. */
  readonly recovered: boolean;
  /** The code was absent from what the model was sent just before the question. */
  readonly lostFromContext: boolean;
  readonly recallCalls: number;
  readonly overflows: number;
  readonly answer: string;
}

/** A summarizer that keeps nothing specific, like a careless model. */
export const forgetfulSummarizer: Summarizer = {
  name: 'forgetful',
  summarize: async () => ({
    text: '## Current state\nThe user and the agent looked at several logs.',
    finishReason: 'STOP',
  }),
};

const script: ModelScript = ({ request }) => {
  const contents = request.contents;
  const last = contents[contents.length - 1];
  const responses = last?.parts?.filter((part) => part.functionResponse) ?? [];
  const lastUser = [...contents]
    .reverse()
    .find(
      (content) =>
        content.role === 'user' && content.parts?.some((part) => part.text && !part.text.startsWith('[context_guard')),
    );
  const question = lastUser?.parts?.find((part) => part.text)?.text ?? '';
  if (question === QUESTION) {
    const match = /TRK-\d+-[A-Z]+/.exec(contentsText(contents));
    if (match) return { content: { role: 'model', parts: [{ text: `The tracking code is ${match[0]}.` }] } };
    if (
      RECALL_TOOL_NAME in request.toolsDict &&
      !responses.some((part) => part.functionResponse?.name === RECALL_TOOL_NAME)
    ) {
      return {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: RECALL_TOOL_NAME, args: { query: 'tracking code' } } }],
        },
      };
    }
    return { content: { role: 'model', parts: [{ text: 'I no longer have the tracking code.' }] } };
  }
  if (responses.length === 0)
    return {
      content: {
        role: 'model',
        parts: [
          {
            functionCall: {
              name: 'fetch_logs',
              args: { first: question.startsWith('Turn 1:'), seed: contents.length },
            },
          },
        ],
      },
    };
  return { content: { role: 'model', parts: [{ text: 'Looked at the logs.' }] } };
};

/** One recall session: the model, the answer to the question, and whether the code had left the context by then. */
export interface RecallSession {
  readonly model: ScriptedLlm;
  readonly answer: string;
  readonly lostFromContext: boolean;
}

/**
 * Runs the ten turns and the question, with or without the tool, under a guard with `guardOptions`
 * over the experiment's, on a model (and guard) window of `window` tokens.
 */
export async function recallSession(
  withTool: boolean,
  guardOptions: Partial<ContextGuardOptions> = {},
  window = RECALL_WINDOW,
): Promise<RecallSession> {
  const model = new ScriptedLlm({ window, countTokens: ratioTokenCounter(1.8), script });
  const fetchLogs = new FunctionTool({
    name: 'fetch_logs',
    description: 'Returns server logs.',
    parameters: { type: 'OBJECT', properties: { first: { type: 'BOOLEAN' }, seed: { type: 'INTEGER' } } } as never,
    execute: (input: unknown) => {
      const { first, seed } = input as { first: boolean; seed: number };
      return {
        logs: first
          ? // Past the first 2,048 characters a placeholder scans for identifiers: masked, the code is lost from context.
            `${logText(2_500, seed)} shipment tracking code ${PLANTED_CODE} ${logText(300, seed + 1)}`
          : logText(3_000, seed),
      };
    },
  });
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You analyse logs.',
    tools: [fetchLogs, ...(withTool ? [contextRecallTool()] : [])],
  });
  const sessionService = new InMemorySessionService();
  const guard = new ContextGuard({
    contextWindow: window,
    summarizer: forgetfulSummarizer,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    ...guardOptions,
  });
  const runner = new Runner({ appName: 'recall', agent, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: 'recall', userId: 'u' });
  const send = async (text: string): Promise<string> => {
    let answer = '';
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text }] },
    })) {
      for (const part of event.content?.parts ?? []) if (part.text) answer = part.text;
    }
    return answer;
  };
  for (let turn = 1; turn <= 10; turn++) await send(`Turn ${turn}: fetch the logs.`);
  const before = model.requests[model.requests.length - 1];
  if (!before) throw new Error('recall: the model received no request in ten turns');
  const lostFromContext = !contentsText(before.contents).includes(PLANTED_CODE);
  const answer = await send(QUESTION);
  return { model, answer, lostFromContext };
}

async function runOne(withTool: boolean, guardOptions: Partial<ContextGuardOptions>): Promise<RecallResult> {
  const { model, answer, lostFromContext } = await recallSession(withTool, guardOptions);
  const recallCalls = model.requests.filter((request) =>
    request.contents.some((content) => content.parts?.some((part) => part.functionResponse?.name === RECALL_TOOL_NAME)),
  ).length;
  return {
    withTool,
    recovered: answer.includes(PLANTED_CODE),
    lostFromContext,
    recallCalls,
    overflows: model.rejectedRequests.length,
    answer,
  };
}

/**
 * Runs the recall experiment with and without the tool. Without it, masking for cost is off too:
 * wherever it is on, the guard declares the recall tool itself.
 */
export async function runRecall(guardOptions: Partial<ContextGuardOptions> = {}): Promise<RecallResult[]> {
  return [await runOne(true, guardOptions), await runOne(false, { ...guardOptions, maskStaleOutputTokens: 0 })];
}

export function renderRecallTable(results: readonly RecallResult[]): string {
  const lines = [
    `Recall: a tracking code from the first tool result, asked for after 10 turns and several compactions (window ${RECALL_WINDOW})`,
  ];
  for (const result of results) {
    lines.push(
      `  ${(result.withTool ? 'with recall_history' : 'without the tool').padEnd(22)} ${result.recovered ? 'recovered the exact value' : 'could not recover it'} · lost from context: ${result.lostFromContext ? 'yes' : 'no'} · ${result.overflows} overflows · answer: "${result.answer}"`,
    );
  }
  return lines.join('\n');
}

/** The recall results as an HTML section of the report. */
export function renderRecallSection(results: readonly RecallResult[], escape: (text: string) => string): string {
  const rows = results
    .map(
      (result) =>
        `<tr><td class="name">${result.withTool ? 'with recall_history' : 'without the tool'}</td><td>${result.lostFromContext ? 'yes' : 'no'}</td><td>${result.recovered ? '<b class="pass">recovered</b>' : 'not recovered'}</td><td class="name">${escape(result.answer)}</td><td>${result.overflows}</td></tr>`,
    )
    .join('');
  return (
    `<section class="recall" id="recall"><h2>Recall of a detail the summaries lost</h2>` +
    `<p class="claim">A tracking code planted in the first tool result, summarized away by a summarizer that keeps nothing specific, asked for ten turns later on a ${RECALL_WINDOW}-token window.</p>` +
    `<table><tr><th class="name">agent</th><th>lost from context</th><th>result</th><th class="name">answer</th><th>overflows</th></tr>${rows}</table></section>`
  );
}
