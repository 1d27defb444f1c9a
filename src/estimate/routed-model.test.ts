import { describe, expect, it } from 'vitest';
import { normalizeModelName, resolveContextWindow } from './model-registry.js';
import { routedMembers } from './routed-model.js';

describe('routedMembers', () => {
  it("should read the models of ADK's RoutedLlm name, in order", () => {
    expect(routedMembers('RoutedLlm[small (gemini-2.0-flash), large (gemini-2.5-flash)]')).toEqual([
      'gemini-2.0-flash',
      'gemini-2.5-flash',
    ]);
    expect(routedMembers('RoutedLlm[pro (models/gemini-2.5-pro)]')).toEqual(['models/gemini-2.5-pro']);
    // Keys are the user's: one may hold a comma.
    expect(routedMembers('RoutedLlm[a, b (m1), c (m2)]')).toEqual(['m1', 'm2']);
  });

  it('should read the models of a RoutedLlm inside another, flattened', () => {
    const inner = 'RoutedLlm[small (gemini-2.0-flash), large (gemini-2.5-flash)]';
    expect(routedMembers(`RoutedLlm[inner (${inner}), big (gemini-2.5-pro)]`)).toEqual([
      'gemini-2.0-flash',
      'gemini-2.5-flash',
      'gemini-2.5-pro',
    ]);
    // One it cannot read stays a model of that name (an unknown one: the default window, with a warning).
    expect(routedMembers('RoutedLlm[a (x), b (RoutedLlm[])]')).toEqual(['x', 'RoutedLlm[]']);
    // Its models' windows count (review 11).
    expect(
      resolveContextWindow(`RoutedLlm[inner (${inner}), big (gemini-2.5-pro)]`, {
        table: { 'gemini-2.5-flash': 9_000 },
      }),
    ).toEqual({ window: 9_000, source: 'table', model: 'gemini-2.5-flash' });
  });

  it('should read nothing of a name that is not such a list to its end', () => {
    const unread = ['gemini-2.5-flash', 'RoutedLlm[]', 'RoutedLlm[x y]', 'RoutedLlm[a (m1), b]', 'RoutedLlm[a (m1))]'];
    // Review 11: a trailing comma, an empty model, parentheses that do not pair.
    unread.push('RoutedLlm[a (m1), ]', 'RoutedLlm[a ()]', 'RoutedLlm[a (m(1)]');
    for (const name of [...unread, 'my-router', `RoutedLlm[a (${'m'.repeat(5_000)})]`])
      expect(routedMembers(name)).toBeUndefined();
  });
});

describe('resolveContextWindow of a RoutedLlm', () => {
  const name = 'RoutedLlm[small (gemini-2.0-flash), large (gemini-2.5-pro)]';

  it("should take the smallest of its models' windows, from the table first", () => {
    const resolved = resolveContextWindow(name, { table: { 'gemini-2.0-flash': 8_000 } });
    expect(resolved).toEqual({ window: 8_000, source: 'table', model: 'gemini-2.0-flash' });
  });

  it('should name an unknown model among them, so that its warning says which', () => {
    const resolved = resolveContextWindow('RoutedLlm[a (gemini-2.5-pro), b (acme-7b)]', { defaultWindow: 32_000 });
    expect(resolved).toEqual({ window: 32_000, source: 'default', model: 'acme-7b' });
  });

  it('should let the whole name in the table, or an override, win', () => {
    expect(resolveContextWindow(name, { table: { [name]: 7_000, 'gemini-2.0-flash': 8_000 } }).window).toBe(7_000);
    expect(resolveContextWindow(name, { override: 6_000 }).window).toBe(6_000);
  });

  it('should keep the whole name as its normalised name, paths of its models included', () => {
    const withPath = 'RoutedLlm[a (models/gemini-2.5-pro), b (gemini-2.0-flash)]';
    expect(normalizeModelName(withPath)).toBe(withPath.toLowerCase());
  });
});
