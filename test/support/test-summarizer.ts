/** A summarizer for tests that counts its calls and can be told to fail. */
import type { Summarizer } from '../../src/index.js';
import type { SummarizeRequest, SummarizeResult } from '../../src/internal.js';

export interface CountingSummarizer extends Summarizer {
  readonly requests: SummarizeRequest[];
}

export function countingSummarizer(behaviour: 'ok' | 'throw' | 'empty' = 'ok'): CountingSummarizer {
  const requests: SummarizeRequest[] = [];
  return {
    name: `test-summarizer-${behaviour}`,
    requests,
    async summarize(request: SummarizeRequest): Promise<SummarizeResult> {
      requests.push(request);
      if (behaviour === 'throw') throw new Error('summarizer 503: backend unavailable');
      if (behaviour === 'empty') return { text: '' };
      return { text: `## Current state\nSummary number ${requests.length} of the work so far.`, finishReason: 'STOP' };
    },
  };
}
