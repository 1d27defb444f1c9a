import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { modelText, summaryRecord, userText } from '../../test/support/builders.js';
import { fingerprintsOf, guardInput } from '../../test/support/guard-input.js';
import { coveredContentsAt } from '../state/covered-contents.js';
import { anchorAt, locateWatermark } from '../state/watermark.js';
import type { PreparedHandle } from '../preparation/prepared-summary.js';
import { summaryIdentity } from '../preparation/prepared-record.js';
import { guardRequest } from './guard-request.js';

/** A finished dialogue of `count` contents of about 200 tokens each (one token per character). */
function dialogue(count: number, label: string): Content[] {
  return Array.from({ length: count }, (_, index) =>
    (index % 2 === 0 ? userText : modelText)(`${label} ${index} `.padEnd(193, 'x')),
  );
}

/** A summary prepared in the background over `contents[0, covered)`, ready to be taken. */
function preparedOver(contents: readonly Content[], covered: number): PreparedHandle {
  const fingerprintAt = fingerprintsOf(contents);
  const watermark = {
    covered,
    anchor: anchorAt(fingerprintAt, covered),
    contents: coveredContentsAt(fingerprintAt, covered),
  };
  const record = summaryRecord({ ...watermark, text: 'The prepared summary of the older turns.' });
  return {
    previous: summaryIdentity(undefined),
    watermark,
    take: () =>
      Promise.resolve({
        prepared: {
          record,
          outcome: { ok: true, text: record.text, truncated: false },
          droppedContents: 0,
          droppedFacts: [],
          droppedFactCount: 0,
        },
        waitedMs: 0,
      }),
  };
}

describe('a prepared summary applied where its watermark moved', () => {
  it('should store it anchored where it was applied, so the next call finds it there as it is', async () => {
    const prepared = dialogue(40, 'turn');
    // Another turn's message came in before the watermark while the summary was prepared (two turns at once).
    const live = [...prepared.slice(0, 29), userText('another turn, run at the same time'), ...prepared.slice(29)];
    const result = await guardRequest(
      guardInput({ contents: live, prepared: preparedOver(prepared, 30), summarizerWindow: 100_000 }),
    );
    expect(result.compaction).toMatchObject({ prepared: true });
    // The covered contents are a prefix of 29 there: the new message is not stripped.
    expect(result.newSummary?.covered).toBe(29);
    const fingerprintAt = fingerprintsOf(live);
    expect(result.newSummary?.anchor).toBe(anchorAt(fingerprintAt, 29));
    expect(result.newSummary?.contents).toEqual(coveredContentsAt(fingerprintAt, 29));
    const next = [...live, userText('the next message')];
    const stored = result.newSummary;
    expect(
      stored && locateWatermark(fingerprintsOf(next), next.length, stored.covered, stored.anchor, stored.contents),
    ).toEqual({ kind: 'exact', covered: 29 });
  });
});
