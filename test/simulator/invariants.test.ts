/**
 * The invariant checks catch what they claim to catch: each is fed a request
 * that breaks it and one that does not.
 */
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  containsRequest,
  holdsContent,
  loopViolation,
  maxParallelResponses,
  orphanViolations,
  shrunkToolResults,
  type LoopFacts,
} from '../../simulator/invariants.js';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const calls = (...names: string[]): Content => ({
  role: 'model',
  parts: names.map((name) => ({ functionCall: { name, args: { size: 5_000 } } })),
});
const responses = (...names: string[]): Content => ({
  role: 'user',
  parts: names.map((name) => ({ functionResponse: { name, response: { logs: 'x'.repeat(4_990) } } })),
});

describe('orphanViolations', () => {
  it('should accept a call followed by its response, parallel calls included', () => {
    expect(
      orphanViolations([user('q'), calls('a', 'b'), responses('b', 'a'), { role: 'model', parts: [{ text: 'done' }] }]),
    ).toEqual([]);
  });

  it('should report a call whose response was cut away', () => {
    expect(orphanViolations([user('q'), calls('a'), user('next')])).toEqual([
      expect.stringContaining("orphaned function call 'a'"),
    ]);
  });

  it('should report a response whose call was cut away', () => {
    expect(orphanViolations([user('[summary]'), responses('a'), { role: 'model', parts: [{ text: 'ok' }] }])).toEqual([
      expect.stringContaining("orphaned function response 'a'"),
    ]);
  });

  it('should report one missing response among parallel ones', () => {
    expect(orphanViolations([calls('a', 'b'), responses('a')])).toEqual([
      expect.stringContaining("orphaned function call 'b'"),
    ]);
  });

  it('should match by id when both sides carry one', () => {
    const call: Content = { role: 'model', parts: [{ functionCall: { name: 'a', id: '1' } }] };
    const wrong: Content = { role: 'user', parts: [{ functionResponse: { name: 'a', id: '2', response: {} } }] };
    expect(orphanViolations([call, wrong])).toHaveLength(2);
  });
});

describe('holdsContent', () => {
  const message: Content = {
    role: 'user',
    parts: [{ text: 'fix the build' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
  };

  it('should find the message with every part verbatim', () => {
    expect(holdsContent([user('[summary]'), structuredClone(message), calls('a'), responses('a')], message)).toBe(true);
  });

  it('should not accept the message without its image, with its text cut, or restated in a summary', () => {
    expect(holdsContent([user('fix the build')], message)).toBe(false);
    expect(holdsContent([{ role: 'user', parts: [{ text: 'fix the bu…' }, message.parts![1]!] }], message)).toBe(false);
    expect(
      holdsContent([user('[context_guard summary] The user\'s current request is: "fix the build".')], message),
    ).toBe(false);
  });
});

describe('containsRequest', () => {
  it('should find the request verbatim in any text part, the summary included', () => {
    expect(
      containsRequest(
        [user('[context_guard summary] ... The user\'s current request is: "fix the build". ...')],
        'fix the build',
      ),
    ).toBe(true);
  });

  it('should not accept the request echoed by the model only', () => {
    expect(containsRequest([{ role: 'model', parts: [{ text: 'You asked: fix the build' }] }], 'fix the build')).toBe(
      false,
    );
  });

  it('should not accept a truncated restatement', () => {
    expect(containsRequest([user('The user\'s current request is: "fix the bu…"')], 'fix the build')).toBe(false);
  });
});

describe('shrunkToolResults and maxParallelResponses', () => {
  it('should count a response far shorter than the size its call asked for', () => {
    const shrunk: Content = {
      role: 'user',
      parts: [{ functionResponse: { name: 'a', response: { logs: 'x'.repeat(1_000) } } }],
    };
    expect(shrunkToolResults([calls('a'), shrunk])).toBe(1);
    expect(shrunkToolResults([calls('a'), responses('a')])).toBe(0);
  });

  it('should count merged parallel responses', () => {
    expect(maxParallelResponses([calls('a', 'b', 'c'), responses('a', 'b', 'c')])).toBe(3);
  });
});

describe('loopViolation', () => {
  const base: LoopFacts = {
    index: 5,
    compacted: true,
    rejected: false,
    promptTokens: 2_000,
    appendedTokens: 300,
    viewTokens: 6_900,
    watermarkBefore: 10,
    watermarkAfter: 14,
    hasWatermark: true,
  };

  it('should accept consecutive compactions when the request was large', () => {
    expect(loopViolation(base, { ...base, index: 4 }, 8_000)).toBeUndefined();
  });

  it('should report consecutive compactions of a small request (the seed bug: a stale factor pins the estimate high)', () => {
    expect(loopViolation({ ...base, viewTokens: 1_500 }, { ...base, index: 4 }, 8_000)).toMatch(
      /compaction loop: calls 4 and 5/,
    );
  });

  it('should report consecutive compactions with nothing appended, unless the previous call was rejected', () => {
    const current = { ...base, appendedTokens: 0 };
    expect(loopViolation(current, { ...base, index: 4 }, 8_000)).toMatch(/nothing was appended/);
    expect(loopViolation(current, { ...base, index: 4, rejected: true }, 8_000)).toBeUndefined();
  });

  it('should report a compaction whose watermark does not advance', () => {
    expect(loopViolation({ ...base, watermarkAfter: 10 }, undefined, 8_000)).toMatch(/did not advance/);
  });
});
