/**
 * The demo's agent: tools that return large outputs, and either a real Gemini
 * model (when GOOGLE_API_KEY or GEMINI_API_KEY is set) or a scripted offline
 * model that is strict like a real provider (rejects requests over its window).
 */
import { FunctionTool, LlmAgent, type BaseLlm } from '@google/adk';
import type { Content } from '@google/genai';
import type { Summarizer } from '../src/index.js';
import { tiktokenTokenizer } from '../src/index.js';
import { ScriptedLlm, tokenizerTokenCounter, type ModelScript } from '../src/testing/index.js';

export const OFFLINE_WINDOW = 32_000;
export const GEMINI_MODEL = 'gemini-2.5-flash';

function pseudoRandom(seed: number): () => number {
  let state = seed || 1;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

function logLines(service: string, lines: number): string {
  const random = pseudoRandom(service.length * 7919 + lines);
  const levels = ['INFO', 'INFO', 'INFO', 'WARN', 'ERROR'];
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const level = levels[Math.floor(random() * levels.length)];
    out.push(
      `2026-11-22T10:${String(i % 60).padStart(2, '0')}:00Z ${level} ${service} request_id=req-${Math.floor(random() * 1e6)} latency_ms=${Math.floor(random() * 900)} status=${level === 'ERROR' ? 500 : 200}`,
    );
  }
  return out.join('\n');
}

export function demoTools(): FunctionTool[] {
  return [
    new FunctionTool({
      name: 'read_logs',
      description: 'Reads the latest log lines of a service.',
      parameters: {
        type: 'OBJECT',
        properties: { service: { type: 'STRING' }, lines: { type: 'INTEGER' } },
        required: ['service'],
      } as never,
      execute: (input: unknown) => {
        const { service, lines } = input as { service: string; lines?: number };
        return { service, logs: logLines(service, Math.min(2_000, lines ?? 300)) };
      },
    }),
    new FunctionTool({
      name: 'get_order',
      description: 'Returns an order with its full history as JSON.',
      parameters: { type: 'OBJECT', properties: { id: { type: 'STRING' } }, required: ['id'] } as never,
      execute: (input: unknown) => {
        const { id } = input as { id: string };
        const random = pseudoRandom(id.length * 31);
        return {
          id,
          status: 'shipped',
          items: Array.from({ length: 40 }, (_, i) => ({
            sku: `SKU-${1000 + i}`,
            quantity: 1 + Math.floor(random() * 3),
            price: Math.round(random() * 10000) / 100,
          })),
          history: Array.from({ length: 60 }, (_, i) => ({
            at: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}`,
            event: i % 3 === 0 ? 'payment_retry' : 'status_update',
          })),
        };
      },
    }),
  ];
}

function lastUserText(contents: readonly Content[]): string {
  for (let i = contents.length - 1; i >= 0; i--) {
    const content = contents[i];
    const text =
      content?.role === 'user'
        ? content.parts?.find((part) => part.text && !part.text.startsWith('[context_guard'))?.text
        : undefined;
    if (text) return text;
  }
  return '';
}

/** The offline model: calls a tool when asked about logs or orders, then answers from the result. */
const offlineScript: ModelScript = ({ request, promptTokens }) => {
  const contents = request.contents;
  const last = contents[contents.length - 1];
  const result = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
  if (result) {
    const size = JSON.stringify(result.response ?? {}).length;
    return {
      content: {
        role: 'model',
        parts: [
          {
            text: `I read ${size.toLocaleString('en')} characters from ${result.name}. Ask me about another service or order.`,
          },
        ],
      },
    };
  }
  const question = lastUserText(contents);
  const order = /\b([A-Z]{2,}-\d+)\b/.exec(question);
  if (order)
    return { content: { role: 'model', parts: [{ functionCall: { name: 'get_order', args: { id: order[1] } } }] } };
  const service = /logs? (?:of|for) ([\w-]+)/i.exec(question);
  if (service)
    return {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'read_logs', args: { service: service[1], lines: 400 } } }],
      },
    };
  return {
    content: {
      role: 'model',
      parts: [
        {
          text: `(offline model) You said: "${question.slice(0, 120)}". The prompt I received was ${promptTokens} tokens. Try "show me the logs of payments" or "look up order ORD-1234".`,
        },
      ],
    },
  };
};

/** A summarizer for the offline mode: a structured, mechanical digest of the prompt's conversation. */
export const offlineSummarizer: Summarizer = {
  name: 'offline-summarizer',
  async summarize({ prompt }) {
    const conversation = prompt.slice(prompt.indexOf('<conversation>'));
    const requests = [...conversation.matchAll(/^\[user\]: (.{1,160})/gm)].map((match) => match[1]);
    const tools = [...conversation.matchAll(/called tool `(\w+)` with (.{1,80})/g)].map(
      (match) => `${match[1]} ${match[2]}`,
    );
    return {
      text: [
        '## Current state',
        `The user asked ${requests.length} questions; ${tools.length} tool calls were made.`,
        "## User's current request",
        requests[requests.length - 1] ?? '(none)',
        '## Tool results',
        ...tools.slice(-8).map((tool) => `- ${tool}`),
      ].join('\n'),
      finishReason: 'STOP',
    };
  },
};

export interface DemoAgent {
  readonly agent: LlmAgent;
  readonly online: boolean;
  readonly window: number | undefined;
  readonly summarizer: Summarizer | undefined;
}

export function createDemoAgent(env: Readonly<Record<string, string | undefined>>): DemoAgent {
  const online = Boolean(env['GOOGLE_API_KEY'] || env['GEMINI_API_KEY']);
  const model: string | BaseLlm = online
    ? GEMINI_MODEL
    : new ScriptedLlm({
        model: 'scripted-demo',
        window: OFFLINE_WINDOW,
        countTokens: tokenizerTokenCounter(tiktokenTokenizer),
        script: offlineScript,
      });
  const agent = new LlmAgent({
    name: 'ops_assistant',
    model,
    instruction: 'You are an operations assistant. Use read_logs and get_order to answer; quote identifiers exactly.',
    tools: demoTools(),
  });
  return {
    agent,
    online,
    window: online ? undefined : OFFLINE_WINDOW,
    summarizer: online ? undefined : offlineSummarizer,
  };
}
