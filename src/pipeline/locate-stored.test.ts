import { describe, expect, it } from 'vitest';
import { functionCall, functionResponse, modelText, summaryRecord, userText } from '../../test/support/builders.js';
import { answerKey } from '../content/answer-key.js';
import { fingerprintsOf } from '../../test/support/guard-input.js';
import { coveredContentsAt } from '../state/covered-contents.js';
import { anchorAt } from '../state/watermark.js';
import { locateStoredMask, locateStoredSummary } from './locate-stored.js';

const CONTENTS = [userText('one'), userText('two'), userText('three'), userText('four')];
const fingerprintAt = fingerprintsOf(CONTENTS);

describe('locateStoredSummary', () => {
  it('should cut at the call a summary that covers an answer the application sent and it never read', () => {
    // The twenty-first outside trial: a turn that loaded the session before the answer came stored a summary past the
    // call; ADK then places the answer right after its call, inside that summary, in every request.
    const final = { status: 'done', result: 'JOBDONE-q77' };
    const history = [
      userText('Start the job.'),
      functionCall('start_job'),
      functionResponse('start_job', final),
      modelText('Noted.'),
      userText('Check the logs.'),
      modelText('Logs read.'),
      userText('And now?'),
    ];
    const at = fingerprintsOf(history);
    const answers = [{ name: 'start_job', key: answerKey('start_job', final) ?? '' }];
    const inView = { contents: history, answers };
    const record = (read: readonly string[] | undefined) =>
      summaryRecord({ covered: 6, anchor: anchorAt(at, 6), contents: coveredContentsAt(at, 6), answers: read });
    const located = locateStoredSummary(at, history.length, record([]), false, inView);
    expect(located).toMatchObject({ coverage: { covered: 1 }, cutAtCall: { covered: 1, lateAnswer: true } });
    expect(located.summaryHeld).toMatch(/cut at the function call at content 1 .*never read/);
    // A summary that read it, or one of a version that did not say (applied as before), covers it.
    for (const read of [[answers[0]!.key], undefined])
      expect(locateStoredSummary(at, history.length, record(read), false, inView).coverage).toMatchObject({
        covered: 6,
      });
    // The answer after the watermark: sent whole already.
    expect(
      locateStoredSummary(
        at,
        history.length,
        summaryRecord({ covered: 1, anchor: anchorAt(at, 1), answers: [] }),
        false,
        inView,
      ).coverage,
    ).toMatchObject({ covered: 1 });
  });

  it('should cut at the call a summary whose unread answer came in before its watermark, however far back', () => {
    // Review 45: with the call further back than the last 24 covered contents the summary was dropped; with it
    // nearer, the covered prefix ended between the call and the answer, which went out without its call.
    const final = { status: 'done', result: 'JOBDONE-q77' };
    const answers = [{ name: 'start_job', key: answerKey('start_job', final) ?? '' }];
    for (const callAt of [2, 20, 28]) {
      const before = Array.from({ length: 40 }, (_, i) =>
        i === callAt ? functionCall('start_job') : i % 2 ? modelText(`reply ${i}`) : userText(`message ${i}`),
      );
      const was = fingerprintsOf(before);
      const record = summaryRecord({
        covered: 30,
        anchor: anchorAt(was, 30),
        contents: coveredContentsAt(was, 30),
        answers: [],
      });
      const live = [...before.slice(0, callAt + 1), functionResponse('start_job', final), ...before.slice(callAt + 1)];
      const located = locateStoredSummary(fingerprintsOf(live), live.length, record, false, {
        contents: live,
        answers,
      });
      expect(located).toMatchObject({
        coverage: { covered: callAt },
        cutAtCall: { covered: callAt, lateAnswer: true },
      });
    }
  });

  it('should strip neither of two equal answers when it read one and the other came in before its watermark', () => {
    // Review 46: two approvals; the later call's answer came first and was read, the earlier's came after the summary
    // and ADK put it right after its call, deep in what the summary covers.
    const ok = { approved: true };
    const key = answerKey('approve', ok) ?? '';
    const before = Array.from({ length: 40 }, (_, i) =>
      i === 4 || i === 10
        ? functionCall('approve')
        : i === 11
          ? functionResponse('approve', ok)
          : i % 2
            ? modelText(`reply ${i}`)
            : userText(`message ${i}`),
    );
    const was = fingerprintsOf(before);
    const record = summaryRecord({
      covered: 30,
      anchor: anchorAt(was, 30),
      contents: coveredContentsAt(was, 30),
      answers: [key],
    });
    const live = [...before.slice(0, 5), functionResponse('approve', ok), ...before.slice(5)];
    const answers = [
      { name: 'approve', key },
      { name: 'approve', key },
    ];
    const located = locateStoredSummary(fingerprintsOf(live), live.length, record, false, { contents: live, answers });
    expect(located.coverage).toEqual({ covered: 4 });
  });

  it('should not end a summary between a call it covers and the response that came after it', () => {
    // A call still pending when the summary was made, its last covered content; ADK puts the response right after.
    const before = [...CONTENTS, functionCall('poll_job')];
    const was = fingerprintsOf(before);
    const record = summaryRecord({ covered: 5, anchor: anchorAt(was, 5), contents: coveredContentsAt(was, 5) });
    const live = [...before, functionResponse('poll_job', { status: 'running' }), userText('next')];
    const inView = { contents: live, answers: [] };
    expect(locateStoredSummary(fingerprintsOf(live), live.length, record, false, inView).coverage).toEqual({
      covered: 4,
    });
  });

  it('should cover nothing without a stored summary', () => {
    expect(locateStoredSummary(fingerprintAt, 4, undefined)).toEqual({ summary: undefined, coverage: { covered: 0 } });
  });

  it('should find a summary whose anchor matches', () => {
    const stored = summaryRecord({ covered: 2, anchor: anchorAt(fingerprintAt, 2) });
    const located = locateStoredSummary(fingerprintAt, 4, stored);
    expect(located.summary).toBe(stored);
    expect(located.coverage.covered).toBe(2);
    expect(located.summaryDiscarded).toBeUndefined();
  });

  it('should discard a summary whose anchor no longer matches, saying why', () => {
    const located = locateStoredSummary(fingerprintAt, 4, summaryRecord({ covered: 2, anchor: 'elsewhere' }));
    expect(located.summary).toBeUndefined();
    expect(located.coverage).toEqual({ covered: 0 });
    expect(located.summaryDiscarded).toMatch(/no longer matches/);
  });

  it("should cut a summary past the end of a late answer's view at the call, to apply and store", () => {
    // The view: [user, ..., the call at 2, the response at 3]; the summary covered 9 contents of the whole history.
    const stored = summaryRecord({ covered: 9, anchor: 'x|y' });
    const located = locateStoredSummary(fingerprintAt, 4, stored, true);
    const cut = { ...stored, covered: 2, anchor: anchorAt(fingerprintAt, 2), kept: undefined };
    expect(located).toMatchObject({ summary: cut, coverage: { covered: 2 }, cutAtCall: cut });
    expect(located.cutAtCall?.contents).toEqual(coveredContentsAt(fingerprintAt, 2));
    expect(located.summaryDiscarded).toBeUndefined();
    expect(located.summaryHeld).toMatch(/cut at the function call at content 2 \(its watermark was at 9\)/);
  });

  it.each([3, 4])(
    "should cut a summary found past a late answer's call (covering %i of its 4 contents) at the call",
    (covered) => {
      const stored = summaryRecord({ covered, anchor: anchorAt(fingerprintAt, covered) });
      const located = locateStoredSummary(fingerprintAt, 4, stored, true);
      expect(located.coverage).toEqual({ covered: 2 });
      expect(located.cutAtCall).toMatchObject({ covered: 2, anchor: anchorAt(fingerprintAt, 2) });
    },
  );

  it("should apply a summary that ends before a late answer's call as it is", () => {
    const stored = summaryRecord({ covered: 2, anchor: anchorAt(fingerprintAt, 2) });
    const located = locateStoredSummary(fingerprintAt, 4, stored, true);
    expect(located).toMatchObject({ summary: stored, coverage: { covered: 2 } });
    expect(located.cutAtCall).toBeUndefined();
    expect(located.summaryHeld).toBeUndefined();
  });

  it("should hold, not apply, a summary whose kept message is not in the late answer's view", () => {
    const stored = summaryRecord({ covered: 9, anchor: 'x|y', kept: { at: 1, fingerprint: 'another message' } });
    const located = locateStoredSummary(fingerprintAt, 4, stored, true);
    expect(located).toMatchObject({ summary: undefined, coverage: { covered: 0 } });
    expect(located.summaryHeld).toMatch(/not applied \(watermark at 9 of 4 contents/);
  });
});

describe('locateStoredMask', () => {
  const mask = { upTo: 3, anchor: anchorAt(fingerprintAt, 3), maskings: 1, createdAt: 0 };

  it('should find a mask whose anchor matches', () => {
    expect(locateStoredMask(fingerprintAt, 4, mask, 2)).toEqual({
      maskedUpTo: 3,
      maskedFrom: 0,
      maskUpdate: undefined,
    });
  });

  it('should clear a mask whose anchor no longer matches', () => {
    expect(locateStoredMask(fingerprintAt, 4, { ...mask, anchor: 'elsewhere' }, 2)).toEqual({
      maskedUpTo: 0,
      maskedFrom: 0,
      maskUpdate: null,
    });
  });

  it("should cut a mask past the end of a late answer's view at the call, to apply and store", () => {
    const located = locateStoredMask(fingerprintAt, 4, { ...mask, upTo: 9, anchor: 'elsewhere' }, 2, true);
    expect(located).toMatchObject({ maskedUpTo: 2, maskedFrom: 0, maskUpdate: undefined });
    expect(located.cutAtCall).toMatchObject({ upTo: 2, anchor: anchorAt(fingerprintAt, 2), maskings: 1 });
    expect(located.cutAtCall?.contents).toEqual(coveredContentsAt(fingerprintAt, 2));
  });

  it("should cut a mask found past a late answer's call, and clear one that starts at or after it", () => {
    expect(locateStoredMask(fingerprintAt, 4, mask, 2, true)).toMatchObject({ maskedUpTo: 2, cutAtCall: { upTo: 2 } });
    expect(locateStoredMask(fingerprintAt, 4, { ...mask, start: 2 }, 2, true)).toEqual({
      maskedUpTo: 0,
      maskedFrom: 0,
      maskUpdate: undefined,
      cutAtCall: null,
    });
  });

  it("should leave a mask that ends before a late answer's call, or is not found in its view", () => {
    const early = { ...mask, upTo: 2, anchor: anchorAt(fingerprintAt, 2) };
    expect(locateStoredMask(fingerprintAt, 4, early, 2, true)).toEqual({
      maskedUpTo: 2,
      maskedFrom: 0,
      maskUpdate: undefined,
    });
    expect(locateStoredMask(fingerprintAt, 4, { ...early, anchor: 'elsewhere' }, 2, true)).toEqual({
      maskedUpTo: 0,
      maskedFrom: 0,
      maskUpdate: undefined,
    });
  });

  it("should give a mask's start, never past where its watermark is found", () => {
    expect(locateStoredMask(fingerprintAt, 4, { ...mask, start: 2 }, 2)).toMatchObject({
      maskedUpTo: 3,
      maskedFrom: 2,
    });
  });

  it('should keep masking the same contents when contents before its start are gone', () => {
    const history = ['a', 'b', 'c', 'd', 'e', 'f'].map((text) => userText(text));
    // Masked [3, 5): d and e. The first two contents are gone: d and e are now at 1 and 2.
    const stored = { upTo: 5, start: 3, anchor: anchorAt(fingerprintsOf(history), 5), maskings: 1, createdAt: 0 };
    const live = history.slice(2);
    expect(locateStoredMask(fingerprintsOf(live), live.length, stored, 2)).toMatchObject({
      maskedUpTo: 3,
      maskedFrom: 1,
    });
  });

  it('should ignore a stored mask when masking is off', () => {
    expect(locateStoredMask(fingerprintAt, 4, mask, 0)).toEqual({
      maskedUpTo: 0,
      maskedFrom: 0,
      maskUpdate: undefined,
    });
  });
});
