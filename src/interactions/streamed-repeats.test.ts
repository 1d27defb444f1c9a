import { describe, expect, it } from 'vitest';
import { StreamedRepeats, type StreamedAnswer } from './streamed-repeats.js';

const callPart = (id: string, q = 'a') => ({ functionCall: { id, name: 'lookup', args: { q } } });
const text = { text: 'Let me look that up.' };
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
    const first = aggregate(callPart('c1'));
    expect(handedOn([step(callPart('c1')), first, aggregate(callPart('c1'))])).toEqual([first]);
  });

  it('should hand on a thought or a text before a call with it, once (review 47: the call ran twice)', () => {
    for (const before of [text, thought]) {
      const first = aggregate(before, callPart('c1'));
      const stream = [partial(before), step(callPart('c1')), first, aggregate(before, callPart('c1'))];
      expect(handedOn(stream)).toEqual([partial(before), first]);
    }
  });

  it('should hand on parallel calls once, and a final text once', () => {
    const both = aggregate(callPart('c1'), callPart('c2', 'b'));
    expect(handedOn([step(callPart('c1')), step(callPart('c2', 'b')), both, both])).toEqual([both]);
    const answer = aggregate({ text: 'Done.' });
    expect(handedOn([partial({ text: 'Do' }), answer, aggregate({ text: 'Done.' })])).toEqual([
      partial({ text: 'Do' }),
      answer,
    ]);
  });

  it('should know a call by its id after a callback edited its arguments', () => {
    const edited = callPart('c1');
    const first = aggregate(edited);
    const repeats = new StreamedRepeats<StreamedAnswer>();
    repeats.take(step(edited));
    expect(repeats.take(first)).toEqual([first]);
    edited.functionCall.args.q = 'a!';
    expect(repeats.take(aggregate(edited))).toEqual([]);
  });

  it('should hand on a held call when no aggregate comes, and before an error or a usage', () => {
    const held = step(callPart('c1'));
    expect(handedOn([held])).toEqual([held]);
    const failed: StreamedAnswer = { errorCode: 'INVALID_ARGUMENT', interactionId: 'ix-1' };
    expect(handedOn([held, failed])).toEqual([held, failed]);
  });

  it('should never hand on a call again, whatever else a later answer holds (review 48)', () => {
    // A callback redacted the first aggregate's text in place: the post-loop aggregate's text reads as new.
    const said = { text: 'Card 4111 1111 1111 1111 on file.' };
    const repeats = new StreamedRepeats<StreamedAnswer>();
    repeats.take(step(callPart('c1')));
    const first = aggregate(said, callPart('c1'));
    expect(repeats.take(first)).toEqual([first]);
    said.text = 'Card [redacted] on file.';
    expect(repeats.take(aggregate({ text: 'Card 4111 1111 1111 1111 on file.' }, callPart('c1')))).toEqual([]);
    // A failed interaction after a held call: the call is handed on before it, the aggregate after it dropped.
    const failed: StreamedAnswer = { errorCode: 'INTERNAL', interactionId: 'ix-1' };
    const held = step(callPart('c2'));
    expect(handedOn([held, failed, aggregate(thought, callPart('c2'))])).toEqual([held, failed]);
  });

  it("should let a step's image go on while its calls wait for the aggregate", () => {
    const image = step({ inlineData: { mimeType: 'image/png', data: 'AAAA' } });
    const all = aggregate(text, callPart('c1'), { inlineData: { mimeType: 'image/png', data: 'AAAA' } });
    expect(handedOn([step(callPart('c1')), image, all, all])).toEqual([image, all]);
  });

  it("should pass every other model's answers as they come", () => {
    const plain: StreamedAnswer[] = [
      { content: { parts: [callPart('c1')] } },
      { content: { parts: [callPart('c1')] } },
      { content: { parts: [text] }, turnComplete: true },
    ];
    expect(handedOn(plain)).toEqual(plain);
  });
});
