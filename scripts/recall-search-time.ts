/**
 * Wall time of one `recall_history` search (`searchEvents`, the tool's ranking step) on sessions a real app
 * could hold: a text attachment of one repeated character searched for a run of it (every position matches),
 * and many large tool results. Each search runs twice: the first reads and lower-cases every event's text,
 * the second finds the searched text kept per content.
 *
 *   npx tsx scripts/recall-search-time.ts
 *
 * Run through `tsx`, the figures are higher than from the built package (esbuild's name keeping).
 */
import type { Content } from '@google/genai';
import { searchEvents, type SearchableEvent } from '../src/recall/search-events.js';
import { logText } from '../src/testing/index.js';

const MB = 1_000_000;

function attachment(text: string): SearchableEvent[] {
  const data = Buffer.from(text).toString('base64');
  const content: Content = { role: 'user', parts: [{ inlineData: { mimeType: 'text/plain', data } }] };
  return [{ id: 'attached', author: 'user', timestamp: 1, invocationId: 'i0', content }];
}

function toolResults(count: number, chars: number): SearchableEvent[] {
  return Array.from({ length: count }, (_, at) => ({
    id: `e${at}`,
    author: 'worker',
    timestamp: at,
    invocationId: `i${at}`,
    content: {
      role: 'user',
      parts: [{ functionResponse: { name: 'read_log', response: { lines: logText(chars, at).split('\n') } } }],
    },
  }));
}

const cases: Array<[string, SearchableEvent[], string]> = [
  ['20 MB attachment of "0", query "000"', attachment('0'.repeat(20 * MB)), '000'],
  ['5 MB attachment of "0", query "00 needle"', attachment('0'.repeat(5 * MB)), '00 needle'],
  ['2,000 tool results of 10 KB, query "timeout error"', toolResults(2_000, 10_000), 'timeout error'],
];

for (const [label, events, query] of cases) {
  const times = [0, 1].map(() => {
    const start = performance.now();
    searchEvents(events, query);
    return (performance.now() - start).toFixed(0);
  });
  console.log(`${label}: first ${times[0]} ms, again ${times[1]} ms`);
}
