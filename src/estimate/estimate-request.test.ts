import { describe, expect, it } from 'vitest';
import type { Tool } from '@google/genai';
import { modelText, userText } from '../../test/support/builders.js';
import { characterTokenizer, recordingTokenizer } from '../../test/support/tokenizers.js';
import { estimateContentsTokens, estimateFixedTokens, systemInstructionText, TokenMemo } from './estimate-request.js';

// '{"functionDeclarations":[{"name":"f"}]}' is 1 + 22 + 1 + 1 + 1 + 6 + 1 + 3 + 1 + 1 + 1 = 39 characters.
const TOOL: Tool = { functionDeclarations: [{ name: 'f' }] };
const TOOL_JSON_CHARS = 39;

describe('systemInstructionText', () => {
  describe('absent instructions', () => {
    it('should return an empty string for undefined', () => {
      expect(systemInstructionText(undefined)).toBe('');
    });
  });

  describe('the shapes ADK may set', () => {
    it('should return a string as is', () => {
      expect(systemInstructionText('You are helpful.')).toBe('You are helpful.');
    });

    it('should return the text of a part', () => {
      expect(systemInstructionText({ text: 'Be brief.' })).toBe('Be brief.');
    });

    it('should join the parts of a content with newlines', () => {
      expect(systemInstructionText({ role: 'system', parts: [{ text: 'One.' }, { text: 'Two.' }] })).toBe('One.\nTwo.');
    });

    it('should join a list of strings and parts with newlines', () => {
      expect(systemInstructionText(['One.', { text: 'Two.' }])).toBe('One.\nTwo.');
    });

    it('should serialise a part that has no text, so that it is still counted', () => {
      expect(systemInstructionText({ parts: [{ fileData: { fileUri: 'gs://b/x' } }] })).toBe(
        '{"fileData":{"fileUri":"gs://b/x"}}',
      );
    });
  });
});

describe('estimateFixedTokens', () => {
  describe('requests without instruction or tools', () => {
    it('should cost nothing', () => {
      expect(estimateFixedTokens(undefined, undefined, characterTokenizer)).toEqual({
        systemTokens: 0,
        toolTokens: 0,
        framingTokens: 0,
      });
      expect(estimateFixedTokens('', [], characterTokenizer)).toEqual({
        systemTokens: 0,
        toolTokens: 0,
        framingTokens: 0,
      });
    });
  });

  describe('instruction and tools', () => {
    it('should count the instruction plus 4 tokens of framing', () => {
      // 'You are helpful.' (16) + 4 = 20
      expect(estimateFixedTokens('You are helpful.', undefined, characterTokenizer).systemTokens).toBe(20);
    });

    it('should count every tool declaration as JSON plus 4 tokens of framing', () => {
      // 2 × (39 + 4) = 86
      expect(estimateFixedTokens(undefined, [TOOL, TOOL], characterTokenizer).toolTokens).toBe(
        2 * (TOOL_JSON_CHARS + 4),
      );
    });

    it('should say which of those tokens are framing: 4 for the instruction and 4 per entry of tools', () => {
      expect(estimateFixedTokens('You are helpful.', [TOOL, TOOL], characterTokenizer).framingTokens).toBe(12);
    });
  });

  describe('memoisation', () => {
    it('should tokenize an unchanged instruction and tools once across calls sharing a memo', () => {
      const tokenizer = recordingTokenizer();
      const memo = new TokenMemo();
      estimateFixedTokens('You are helpful.', [TOOL], tokenizer, memo);
      estimateFixedTokens('You are helpful.', [TOOL], tokenizer, memo);
      expect(tokenizer.counted).toEqual(['You are helpful.', '{"functionDeclarations":[{"name":"f"}]}']);
    });
  });
});

describe('TokenMemo', () => {
  describe('capacity', () => {
    it('should forget the oldest text once full', () => {
      const tokenizer = recordingTokenizer();
      const memo = new TokenMemo(2);
      memo.count('a', tokenizer);
      memo.count('b', tokenizer);
      memo.count('c', tokenizer); // evicts 'a'
      memo.count('b', tokenizer); // still known
      memo.count('a', tokenizer); // counted again
      expect(tokenizer.counted).toEqual(['a', 'b', 'c', 'a']);
    });
  });
});

describe('estimateContentsTokens', () => {
  describe('lists', () => {
    it('should count an empty list as 0', () => {
      expect(estimateContentsTokens([], characterTokenizer)).toBe(0);
    });

    it('should add the estimate of every content', () => {
      // (4 + 3 + 'hi' 2) + (4 + 3 + 'yo!' 3) = 9 + 10 = 19
      expect(estimateContentsTokens([userText('hi'), modelText('yo!')], characterTokenizer)).toBe(19);
    });
  });
});
