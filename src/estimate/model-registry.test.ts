import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_WINDOW, modelKey, normalizeModelName, resolveContextWindow } from './model-registry.js';

describe('normalizeModelName', () => {
  describe('names without decoration', () => {
    it('should leave an empty name empty', () => {
      expect(normalizeModelName('')).toBe('');
    });

    it('should lower-case and trim', () => {
      expect(normalizeModelName('  Gemini-2.5-Flash ')).toBe('gemini-2.5-flash');
    });
  });

  describe('prefixes and suffixes', () => {
    it('should remove the models/ prefix', () => {
      expect(normalizeModelName('models/gemini-2.5-pro')).toBe('gemini-2.5-pro');
    });

    it('should remove a Vertex AI resource path and an @version suffix', () => {
      expect(normalizeModelName('projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro@001')).toBe(
        'gemini-2.5-pro',
      );
    });

    it('should keep a leading @, which is not a version suffix', () => {
      expect(normalizeModelName('@local')).toBe('@local');
    });
  });
});

describe('resolveContextWindow', () => {
  describe('unknown models', () => {
    it('should fall back to the documented default of 128,000 tokens', () => {
      expect(DEFAULT_CONTEXT_WINDOW).toBe(128_000);
      expect(resolveContextWindow('my-local-llama')).toEqual({
        window: 128_000,
        source: 'default',
        model: 'my-local-llama',
      });
    });

    it('should use the configured default', () => {
      expect(resolveContextWindow('my-local-llama', { defaultWindow: 32_000 })).toMatchObject({
        window: 32_000,
        source: 'default',
      });
    });

    it('should treat a missing model name as unknown', () => {
      expect(resolveContextWindow(undefined)).toEqual({ window: 128_000, source: 'default', model: '' });
    });
  });

  describe('lookup order', () => {
    it('should let an override win over everything', () => {
      expect(
        resolveContextWindow('gemini-2.5-pro', { override: 9_000, table: { 'gemini-2.5-pro': 50_000 } }),
      ).toMatchObject({ window: 9_000, source: 'override' });
    });

    it('should let the application table win over the catalogue, by raw or normalised name', () => {
      expect(
        resolveContextWindow('models/gemini-2.5-pro', { table: { 'models/gemini-2.5-pro': 50_000 } }),
      ).toMatchObject({ window: 50_000, source: 'table' });
      expect(resolveContextWindow('models/gemini-2.5-pro', { table: { 'gemini-2.5-pro': 60_000 } })).toMatchObject({
        window: 60_000,
        source: 'table',
      });
    });

    it('should know current Gemini models from the catalogue (1,048,576 tokens)', () => {
      expect(resolveContextWindow('gemini-2.5-pro')).toEqual({
        window: 1_048_576,
        source: 'catalogue',
        model: 'gemini-2.5-pro',
      });
      expect(resolveContextWindow('models/gemini-2.5-flash')).toMatchObject({
        window: 1_048_576,
        model: 'gemini-2.5-flash',
      });
    });

    it('should know other providers from the catalogue', () => {
      expect(resolveContextWindow('gpt-4o')).toMatchObject({ window: 128_000, source: 'catalogue' });
    });

    it('should cover Gemini and Gemma releases the catalogue does not list yet by family', () => {
      expect(resolveContextWindow('gemini-9.9-ultra')).toEqual({
        window: 1_048_576,
        source: 'family',
        model: 'gemini-9.9-ultra',
      });
      expect(resolveContextWindow('gemini-9-flash-tts')).toMatchObject({ window: 32_768, source: 'family' });
      expect(resolveContextWindow('gemma-3-99b-custom')).toMatchObject({ window: 131_072, source: 'family' });
    });
  });
});

describe('resolveContextWindow on Bedrock ids', () => {
  it("should give a Claude model named by its Bedrock id Claude's window, not the unknown default", () => {
    for (const id of [
      'anthropic.claude-3-7-sonnet-20250219-v1:0',
      'bedrock/us.anthropic.claude-sonnet-4-20250514-v1:0',
    ])
      expect(resolveContextWindow(id).window).toBe(200_000);
    expect(resolveContextWindow('anthropic.claude-v2').window).toBe(100_000);
    expect(resolveContextWindow('anthropic.claude-instant-v1').window).toBe(100_000);
  });
});

describe('modelKey', () => {
  it("should drop Google's own paths and a version, and keep a provider's or router's prefix", () => {
    expect(modelKey('models/gemini-2.5-flash')).toBe('gemini-2.5-flash');
    expect(modelKey('projects/p/locations/us/publishers/google/models/gemini-2.5-pro')).toBe('gemini-2.5-pro');
    expect(modelKey('claude-opus-4-1@20250805')).toBe('claude-opus-4-1');
    expect(modelKey('Azure/Fast')).toBe('azure/fast');
    expect(modelKey('my-router/fast')).not.toBe(modelKey('azure/fast'));
  });
});
