/**
 * The last-resort shrinking through a real Runner (issue 13, points 2 and 4):
 * a user message larger than the window is cut head and tail to what fits,
 * whatever its characters cost once escaped as JSON, and a message of many
 * small parts is measured like its text and fits without stalling.
 */
import { LogLevel, setLogLevel } from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { faultHarness } from '../support/fault-harness.js';
import { payloadText } from '../support/payloads.js';

setLogLevel(LogLevel.ERROR);

/** Pasted JSON: every key and value quoted, nested quotes escaped. */
function pastedJson(chars: number): string {
  const rows: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const row = JSON.stringify({ id: i, name: `item "${i}"`, note: `said \\"ok\\" at ${i}` });
    rows.push(row);
    length += row.length + 2;
  }
  return `[${rows.join(',\n')}]`;
}

/** A list of Windows paths: a backslash every few characters. */
function windowsPaths(chars: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const line = `C:\\Users\\dev\\src\\app\\module${i}\\file${i}.ts`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}

/** An ANSI-coloured log: an escape character (six bytes in JSON) every few characters. */
function ansiLog(chars: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const line = `\u001b[32mINFO\u001b[0m \u001b[36mworker-${i % 7}\u001b[0m step ${i} \u001b[1mdone\u001b[0m`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}

/** Text with lone surrogates (six bytes each in JSON), as a broken paste can hold. */
function loneSurrogates(chars: number): string {
  return payloadText('prose', chars, 4).replace(/ /g, '\ud800 ');
}

/** The text the model received for the user content that starts with `head`. */
function sentMessage(requests: readonly { contents: readonly Content[] }[], head: string): string | undefined {
  for (const request of requests) {
    for (const content of request.contents) {
      const text = content.parts?.map((part) => part.text ?? '').join('') ?? '';
      if (content.role === 'user' && text.startsWith(head)) return text;
    }
  }
  return undefined;
}

describe('a user message larger than the window', () => {
  it.each([
    ['prose', () => payloadText('prose', 120_000, 9)],
    ['pasted JSON', () => pastedJson(120_000)],
    ['Windows paths', () => windowsPaths(120_000)],
    ['an ANSI-coloured log', () => ansiLog(120_000)],
    ['lone surrogates', () => loneSurrogates(120_000)],
  ])('should cut %s head and tail to what fits the window, not to a floor', async (_label, make) => {
    const body = make();
    const message = `Please review: ${body}`;
    const window = 16_000;
    const h = await faultHarness({ window, toolChars: 0 });
    const outcome = await h.turn(message);
    expect(outcome.thrown).toBeUndefined();
    expect(outcome.errorCodes).toEqual([]);
    const request = h.model.requests[0]!;
    // Fits the window, and uses a good part of it: the message was cut to what fits, not to 200 characters.
    expect(request.promptTokens).toBeLessThanOrEqual(window);
    expect(request.promptTokens).toBeGreaterThan(window * 0.4);
    const sent = sentMessage(h.model.requests, 'Please review: ')!;
    expect(sent).toBeDefined();
    expect(sent.length).toBeLessThan(message.length);
    // Head and tail kept.
    expect(sent.startsWith(message.slice(0, 2_000))).toBe(true);
    expect(sent.endsWith(message.slice(-1_000))).toBe(true);
    expect(h.shapeProblems()).toEqual([]);
    expect(h.logger.atOrAbove('error')).toEqual([]);
  });
});

describe('a user message of many parts', () => {
  it('should measure 20,000 text parts like their text and cut the message to fit the window', async () => {
    const window = 32_000;
    const parts = Array.from({ length: 20_000 }, (_, i) => ({ text: `row ${i}: ok\n` }));
    const h = await faultHarness({ window, toolChars: 0 });
    const outcome = await h.turn({ role: 'user', parts });
    expect(outcome.thrown).toBeUndefined();
    expect(outcome.errorCodes).toEqual([]);
    const request = h.model.requests[0]!;
    expect(request.promptTokens).toBeLessThanOrEqual(window);
    // Cut to what fits, not to nothing: the first and last rows are still there.
    const texts = request.contents.flatMap((content) => content.parts ?? []).map((part) => part.text ?? '');
    expect(texts[0]).toBe('row 0: ok\n');
    expect(texts[texts.length - 1]).toBe('row 19999: ok\n');
    expect(request.promptTokens).toBeGreaterThan(window * 0.25);
    // The provider counts each text (proportional-counter.ts, 1.3 real tokens per estimated token), with no cost
    // per part: the guard's estimate of what it sent must show the same ratio, not a per-part framing on top.
    const estimate = (await h.usage()).sentEstimate ?? Number.NaN;
    expect(request.promptTokens / estimate).toBeGreaterThan(1.3 * 0.85);
    expect(request.promptTokens / estimate).toBeLessThan(1.3 * 1.15);
    expect(h.logger.atOrAbove('error')).toEqual([]);
  });
});
