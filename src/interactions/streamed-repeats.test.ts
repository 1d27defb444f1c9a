import { describe, expect, it } from 'vitest';
import { streamedRepeats, type StreamedAnswer } from './streamed-repeats.js';

const call = { functionCall: { id: 'call-1', name: 'fetch_logs', args: { size: 10 } } };
const text = { text: 'Analysis done.' };
const answer = (parts: unknown[], more: Partial<StreamedAnswer> = {}): StreamedAnswer => ({
  content: { parts },
  interactionId: 'ix-1',
  ...more,
});

describe('streamedRepeats', () => {
  it("should take ADK's second and third copies of a streamed call, and a final text's second, as repeats", () => {
    const isRepeat = streamedRepeats();
    expect(isRepeat(answer([call], { partial: false }))).toBe(false);
    expect(isRepeat(answer([call]))).toBe(true);
    expect(isRepeat(answer([call]))).toBe(true);
    expect(isRepeat(answer([text], { partial: true }))).toBe(false);
    expect(isRepeat(answer([text]))).toBe(false);
    expect(isRepeat(answer([text]))).toBe(true);
  });

  it('should keep an answer that brings one new part, even beside a repeated one', () => {
    const isRepeat = streamedRepeats();
    expect(isRepeat(answer([call]))).toBe(false);
    expect(isRepeat(answer([text, call]))).toBe(false);
    expect(isRepeat(answer([text, call]))).toBe(true);
  });

  it('should keep a repeat that carries an error, a usage, another interaction or only partial copies before it', () => {
    const isRepeat = streamedRepeats();
    expect(isRepeat(answer([call], { partial: true }))).toBe(false);
    expect(isRepeat(answer([call]))).toBe(false);
    expect(isRepeat(answer([call], { usageMetadata: { promptTokenCount: 5 } }))).toBe(false);
    expect(isRepeat(answer([call], { errorCode: 'X' }))).toBe(false);
    expect(isRepeat(answer([call], { interactionId: 'ix-2' }))).toBe(false);
    expect(isRepeat(answer([call], { interactionId: 'ix-2' }))).toBe(true);
    expect(isRepeat({ interactionId: 'ix-2' })).toBe(false);
  });

  it('should tell the same call with other arguments from a repeat', () => {
    const isRepeat = streamedRepeats();
    expect(isRepeat(answer([call]))).toBe(false);
    expect(isRepeat(answer([{ functionCall: { ...call.functionCall, args: { size: 11 } } }]))).toBe(false);
  });
});
