import { describe, expect, it } from 'vitest';
import { testPolicy } from '../../../test/support/builders.js';
import type { Summarizer, SummaryClock } from '../../summary/summarizer.js';
import { summarizeWith } from './call-summarizer.js';

/** A summarizer that answers after `ms`. */
const slow = (ms: number): Summarizer => ({
  name: 'slow',
  summarize: () => new Promise((resolve) => setTimeout(() => resolve({ text: 'Summary.' }), ms)),
});

describe('summarizeWith', () => {
  it("should give one summary's calls the summarizer's timeout between them, not each", async () => {
    const summarize = summarizeWith(slow(150), testPolicy({ summarizerTimeoutMs: 250 }));
    const request = { prompt: 'p', systemInstruction: 's', maxOutputTokens: 10 };
    const clock: SummaryClock = {};
    expect((await summarize(request, 100, clock)).ok).toBe(true);
    // 100 ms left of 250: the second call of the same summary times out.
    expect(await summarize(request, 100, clock)).toMatchObject({ ok: false, kind: 'timeout' });
    // Another summary has its own clock.
    expect((await summarize(request, 100, {})).ok).toBe(true);
  });
});
