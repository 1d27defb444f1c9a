import { describe, expect, it } from 'vitest';
import { unmatchedWindows } from './unmatched-windows.js';

describe('unmatchedWindows', () => {
  it('should name a key that gives no model its window, with the model it likely meant', () => {
    const [found, ...rest] = unmatchedWindows(['gemini-2.5-flsh'], ['gemini-2.5-flash', 'gemini-2.5-pro']);
    expect(rest).toEqual([]);
    expect(found?.key).toBe('gemini-2.5-flsh');
    expect(found?.message).toContain("modelWindows['gemini-2.5-flsh'] names no model this app uses");
    expect(found?.message).toContain("Did you mean 'gemini-2.5-flash'?");
  });

  it('should match a key as the window lookup does: the exact name, or the normalised one', () => {
    const models = ['models/gemini-2.5-flash', 'My-Model@001'];
    expect(unmatchedWindows(['models/gemini-2.5-flash', 'gemini-2.5-flash', 'my-model'], models)).toEqual([]);
    // The lookup never shortens a key, so a key longer than the model's name is missed.
    expect(unmatchedWindows(['gemini-2.5'], models).map((entry) => entry.key)).toEqual(['gemini-2.5']);
  });

  it('should say nothing when the app has no model to compare with', () => {
    expect(unmatchedWindows(['anything'], [])).toEqual([]);
  });
});
