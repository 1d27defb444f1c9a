import { describe, expect, it } from 'vitest';
import { summarizerWindowFor } from './summarizer-window.js';

describe('summarizerWindowFor', () => {
  it('should use a declared window as it is, even above the agent window', () => {
    expect(summarizerWindowFor(500_000, 1_000_000, 100_000)).toBe(500_000);
  });

  it('should not take an undeclared summarizer window above the agent window', () => {
    expect(summarizerWindowFor(undefined, 1_000_000, 100_000)).toBe(100_000);
    expect(summarizerWindowFor(undefined, 30_000, 100_000)).toBe(30_000);
  });

  it('should share the agent window when the summarizer has none', () => {
    expect(summarizerWindowFor(undefined, undefined, 100_000)).toBe(100_000);
  });
});
