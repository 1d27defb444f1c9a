/**
 * Deterministic payloads of a given size and shape: the text a tool returns,
 * the user's messages, the model's answers and the system prompt. Shapes
 * matter because a real tokenizer counts JSON, logs, code and prose very
 * differently; sizes are exact to the character so the seed's numbers hold.
 *
 * No braces appear in prose or system prompts: ADK substitutes `{name}` in an
 * agent's instruction from session state.
 */

import { imageBase64 } from './media.js';
import { SeededRandom } from './seeded-random.js';

/** What a tool's payload looks like; it changes how a real tokenizer counts it. */
export type PayloadShape = 'json' | 'logs' | 'code' | 'prose' | 'image' | 'tiny';

const WORDS = [
  'the',
  'service',
  'request',
  'latency',
  'deploy',
  'cluster',
  'customer',
  'order',
  'invoice',
  'cache',
  'region',
  'failover',
  'rollback',
  'metric',
  'threshold',
  'budget',
  'window',
  'summary',
  'incident',
  'owner',
  'migration',
  'schema',
  'index',
  'query',
  'review',
  'release',
  'branch',
  'test',
  'coverage',
  'alert',
  'queue',
  'worker',
  'shard',
  'replica',
  'backup',
  'policy',
  'a',
  'of',
  'and',
  'to',
  'in',
  'for',
  'with',
  'after',
  'before',
  'because',
  'while',
  'every',
  'most',
  'some',
];

/** Prose of exactly `chars` characters (sentences of common words). */
export function proseText(chars: number, seed: number): string {
  const random = new SeededRandom(seed);
  let out = '';
  while (out.length < chars) {
    const length = 6 + (random.next() % 14);
    const words: string[] = [];
    for (let i = 0; i < length; i++) words.push(random.pick(WORDS));
    const sentence = words.join(' ');
    out += `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}. `;
  }
  return out.slice(0, chars);
}

const LEVELS = ['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR'];
const PATHS = ['/api/v1/orders', '/api/v1/users', '/healthz', '/api/v2/search', '/api/v1/invoices/export', '/metrics'];

/** Server log lines, exactly `chars` characters. */
export function logText(chars: number, seed: number): string {
  const random = new SeededRandom(seed);
  const lines: string[] = [];
  let length = 0;
  let second = random.next() % 3_600;
  while (length < chars) {
    second += 1 + (random.next() % 3);
    const time = `2025-06-0${1 + (random.next() % 9)}T12:${String(Math.floor(second / 60) % 60).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}.${String(random.next() % 1000).padStart(3, '0')}Z`;
    const line = `${time} ${random.pick(LEVELS)} pod=api-${random.next() % 40} GET ${random.pick(PATHS)} status=${random.pick([200, 200, 200, 201, 404, 500, 503])} latency_ms=${random.next() % 2_000} trace=${(random.next() % 0xffffff).toString(16)}`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

/** TypeScript-like source code, exactly `chars` characters. */
export function codeText(chars: number, seed: number): string {
  const random = new SeededRandom(seed);
  const out: string[] = [];
  let length = 0;
  let fn = 0;
  while (length < chars) {
    fn++;
    const name = `${random.pick(['load', 'parse', 'merge', 'render', 'validate', 'schedule'])}${random.pick(['Order', 'Invoice', 'Window', 'Summary', 'Batch'])}${fn}`;
    const block = [
      `export async function ${name}(input: Record<string, unknown>, limit = ${random.next() % 500}): Promise<number> {`,
      `  const items = Array.isArray(input['items']) ? input['items'] : [];`,
      `  let total = 0;`,
      `  for (const item of items.slice(0, limit)) {`,
      `    if (typeof item === 'number' && item > ${random.next() % 100}) total += item * ${1 + (random.next() % 9)};`,
      `  }`,
      `  return total; // ${proseText(30 + (random.next() % 40), random.next())}`,
      `}`,
      '',
    ].join('\n');
    out.push(block);
    length += block.length;
  }
  return out.join('').slice(0, chars);
}

/** Records for a JSON payload; the caller trims to size. */
function jsonRecords(chars: number, seed: number): unknown[] {
  const random = new SeededRandom(seed);
  const items: unknown[] = [];
  let length = 2;
  while (length < chars) {
    const item = {
      id: `ord_${(random.next() % 1e9).toString(36)}`,
      customer: { id: random.next() % 100_000, tier: random.pick(['free', 'pro', 'enterprise']) },
      status: random.pick(['open', 'paid', 'refunded', 'shipped']),
      amount_cents: random.next() % 1_000_000,
      tags: [random.pick(WORDS), random.pick(WORDS)],
      updated_at: `2025-06-${String(1 + (random.next() % 28)).padStart(2, '0')}T10:00:00Z`,
    };
    items.push(item);
    length += JSON.stringify(item).length + 1;
  }
  return items;
}

/**
 * The result object a tool returns, whose JSON is `size` characters give or
 * take a few (ADK sends `functionResponse.response` as JSON).
 */
export function toolResult(shape: PayloadShape, size: number, seed: number): Record<string, unknown> {
  switch (shape) {
    case 'json': {
      const items = jsonRecords(Math.max(0, size - 20), seed);
      // Drop records until the JSON is at most `size` characters, then pad with a note.
      while (items.length > 0 && JSON.stringify({ items }).length > size) items.pop();
      const json = JSON.stringify({ items }).length;
      return { items, note: proseText(Math.max(0, size - json - 10), seed + 1) };
    }
    case 'logs':
      return { logs: logText(Math.max(0, size - 11), seed) };
    case 'code':
      return { path: `src/module_${seed % 97}.ts`, content: codeText(Math.max(0, size - 40), seed) };
    case 'prose':
      return { text: proseText(Math.max(0, size - 11), seed) };
    case 'image':
      // A tool that returns a screenshot as base64 inside JSON, as many do.
      return { mimeType: 'image/png', data: imageBase64(1_280, 800, Math.max(64, size - 40), seed) };
    case 'tiny':
      return { result: ['ok', 'done', 'empty', 'no rows', '0'][seed % 5] ?? 'ok' };
  }
}

/** A user message of about `chars` characters that is unique to its turn (so it can be found verbatim). */
export function userMessage(turn: number, chars: number, agentHint = ''): string {
  // Short messages ("ok") still carry the turn number, so each one is unique.
  if (chars < 24) return `ok #${turn}.`;
  const head = `Turn ${turn} request #${(turn * 7_919) % 10_007}${agentHint}: `;
  return head + proseText(Math.max(0, chars - head.length), turn * 31 + 7);
}

/** The model's final text answer of a turn. */
export function modelAnswer(turn: number, agent: string, chars: number): string {
  const head = `[${agent}] answer to turn ${turn}: `;
  return head + proseText(Math.max(0, chars - head.length), turn * 131 + agent.length);
}

/** A system prompt of exactly `chars` characters (no braces). */
export function systemPrompt(chars: number, agent: string): string {
  const head = `You are ${agent}, an operations assistant. Follow the runbook below exactly. `;
  return (head + proseText(Math.max(0, chars - head.length), 4_242 + agent.length)).slice(0, chars);
}
