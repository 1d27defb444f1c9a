import type { ContentUnion } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { prependSystemInstruction } from './prepend-system-instruction.js';

describe('prependSystemInstruction', () => {
  describe('forms', () => {
    it('should use the text alone when there is no instruction yet', () => {
      expect(prependSystemInstruction(undefined, 'rules')).toBe('rules');
      expect(prependSystemInstruction('', 'rules')).toBe('rules');
      expect(prependSystemInstruction([], 'rules')).toBe('rules');
    });

    it('should put the text before a string instruction, separated as ADK joins instructions', () => {
      expect(prependSystemInstruction('You are a worker.', 'rules')).toBe('rules\n\nYou are a worker.');
    });

    it('should make the text the first part of a Content, keeping its role and parts', () => {
      const existing: ContentUnion = { role: 'system', parts: [{ text: 'a' }, { text: 'b' }] };
      expect(prependSystemInstruction(existing, 'rules')).toEqual({
        role: 'system',
        parts: [{ text: 'rules' }, { text: 'a' }, { text: 'b' }],
      });
      expect(existing.parts).toHaveLength(2);
    });

    it('should put the text first in a list of parts, or before a single part', () => {
      expect(prependSystemInstruction(['a', { text: 'b' }], 'rules')).toEqual(['rules', 'a', { text: 'b' }]);
      expect(prependSystemInstruction({ text: 'a' }, 'rules')).toEqual(['rules', { text: 'a' }]);
    });

    it('should leave the instruction as it is when the text is empty', () => {
      const existing: ContentUnion = { role: 'system', parts: [{ text: 'a' }] };
      expect(prependSystemInstruction(existing, '')).toBe(existing);
    });
  });
});
