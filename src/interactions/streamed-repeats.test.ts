import { describe, expect, it } from 'vitest';
import { StreamedRepeats, type StreamedAnswer } from './streamed-repeats.js';

// ADK's answers of one interaction share part objects: a step's call is the object its aggregates hold.
const callPart = (id: string, q = 'a') => ({ functionCall: { id, name: 'lookup', args: { q } } });
const textPart = (text = 'Let me look that up.') => ({ text });
const thought = { thought: true, thoughtSignature: 'sig' };
const step = (...parts: unknown[]): StreamedAnswer => ({
  content: { parts },
  interactionId: 'ix-1',
  turnComplete: false,
});
const aggregate = (...parts: unknown[]): StreamedAnswer => ({ ...step(...parts), turnComplete: true });
const partial = (...parts: unknown[]): StreamedAnswer => ({ ...step(...parts), partial: true });

/** What a stream hands on, answer by answer, then at its end. */
function handedOn(answers: readonly StreamedAnswer[]): StreamedAnswer[] {
  const repeats = new StreamedRepeats<StreamedAnswer>();
  return [...answers.flatMap((answer) => repeats.take(answer)), ...repeats.end()];
}

describe('StreamedRepeats', () => {
  it("should hand on a streamed call once, as ADK's first aggregate brings it", () => {
    const call = callPart('c1');
    const first = aggregate(call);
    expect(handedOn([step(call), first, aggregate(call)])).toEqual([first]);
  });

  it('should hand on a thought or a text before a call with it, once (review 47: the call ran twice)', () => {
    for (const before of [textPart(), thought]) {
      const call = callPart('c1');
      const first = aggregate(before, call);
      const stream = [partial({ text: 'Let me' }), step(call), first, aggregate(before, call)];
      expect(handedOn(stream)).toEqual([partial({ text: 'Let me' }), first]);
    }
  });

  it('should hand on parallel calls once, and a final text once', () => {
    const [a, b] = [callPart('c1'), callPart('c2', 'b')];
    const both = aggregate(a, b);
    expect(handedOn([step(a), step(b), both, aggregate(a, b)])).toEqual([both]);
    const done = textPart('Done.');
    const answer = aggregate(done);
    expect(handedOn([partial({ text: 'Do' }), answer, aggregate(done)])).toEqual([partial({ text: 'Do' }), answer]);
  });

  it('should know a part by its object whatever was written into it, and a call by its id', () => {
    // Trial 56: ADK gave an id-less call one after it was handed on; a callback redacted a final text in place.
    const idless = {
      functionCall: { name: 'lookup', args: { q: 'a' } } as { name: string; args: object; id?: string },
    };
    const repeats = new StreamedRepeats<StreamedAnswer>();
    repeats.take(step(idless));
    const first = aggregate(idless);
    expect(repeats.take(first)).toEqual([first]);
    idless.functionCall.id = 'adk-1';
    expect(repeats.take(aggregate(idless))).toEqual([]);
    const said = textPart('Card 4111 1111 1111 1111 on file.');
    const final = aggregate(said);
    expect(repeats.take(final)).toEqual([final]);
    said.text = 'Card [redacted] on file.';
    expect(repeats.take(aggregate(said))).toEqual([]);
    // Two lines of equal text are two parts (trial 56: the second was lost).
    const [line1, line2] = [textPart('- ok'), textPart('- ok')];
    expect(handedOn([step(line1), step(line2)])).toEqual([step(line1), step(line2)]);
  });

  it('should never hand on a call again, whatever else a later answer holds, and keep its usage (review 48, trial 56)', () => {
    const said = textPart('Card 4111 1111 1111 1111 on file.');
    const call = callPart('c1');
    const usage = { promptTokenCount: 12 };
    const first = aggregate(said, call);
    const last: StreamedAnswer = {
      ...aggregate({ text: 'Card 4111 1111 1111 1111 on file.' }, call),
      usageMetadata: usage,
    };
    expect(handedOn([step(call), first, last])).toEqual([first, { ...last, content: undefined }]);
    // A failed interaction after a held call: the call is handed on before it, the aggregate after it dropped.
    const failed: StreamedAnswer = { errorCode: 'INTERNAL', interactionId: 'ix-1' };
    const other = callPart('c2');
    expect(handedOn([step(other), failed, aggregate(thought, other)])).toEqual([step(other), failed]);
  });

  it('should keep what came after a held call behind it, in order', () => {
    // Trial 56: a text after a held call was handed on first, and the turn ended there.
    const call = callPart('c1');
    const [image, after] = [
      step({ inlineData: { mimeType: 'image/png', data: 'AAAA' } }),
      step(textPart('Calling it.')),
    ];
    expect(handedOn([step(call), after])).toEqual([step(call), after]);
    const all = aggregate(call, image.content!.parts![0]);
    expect(handedOn([step(call), image, all])).toEqual([all]);
  });

  it('should hand on a call once when a model copies its answers, with an id or without (review 50)', () => {
    const copy = <T>(value: T): T => structuredClone(value);
    const call = callPart('c1');
    const first = aggregate(copy(thought), copy(call));
    expect(handedOn([step(copy(thought), copy(call)), first])).toEqual([first]);
    const idless = { functionCall: { name: 'lookup', args: { q: 'a' } } };
    const whole = aggregate(copy(idless));
    expect(handedOn([step(copy(idless)), whole])).toEqual([whole]);
    // What came after the held call follows the aggregate that takes its place (review 50: it went first).
    const after = step(textPart('Calling it.'));
    const only = aggregate(call);
    expect(handedOn([step(call), after, only])).toEqual([only, after]);
  });

  it("should pass every other model's answers as they come", () => {
    const plain: StreamedAnswer[] = [
      { content: { parts: [callPart('c1')] } },
      { content: { parts: [callPart('c1')] } },
      { content: { parts: [textPart()] }, turnComplete: true },
    ];
    expect(handedOn(plain)).toEqual(plain);
  });
});
