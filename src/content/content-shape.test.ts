import { describe, expect, it } from 'vitest';
import {
  contentOf,
  foreignContext,
  functionCall,
  functionResponse,
  modelText,
  modelThought,
  userText,
} from '../../test/support/builders.js';
import {
  contentText,
  hasFunctionCall,
  hasFunctionResponse,
  isUserRequest,
  isValidSplit,
  latestUserRequestIndex,
} from './content-shape.js';

describe('hasFunctionCall / hasFunctionResponse', () => {
  describe('missing contents', () => {
    it('should say no for undefined and for a content without parts', () => {
      expect(hasFunctionCall(undefined)).toBe(false);
      expect(hasFunctionResponse({ role: 'user' })).toBe(false);
    });
  });

  describe('tool parts', () => {
    it('should find a call or a response among the parts', () => {
      expect(hasFunctionCall(contentOf('model', { text: 'Let me look.' }, { functionCall: { name: 'search' } }))).toBe(
        true,
      );
      expect(hasFunctionResponse(functionResponse('search', { hits: 3 }))).toBe(true);
      expect(hasFunctionCall(functionResponse('search', { hits: 3 }))).toBe(false);
    });
  });
});

describe('contentText', () => {
  describe('contents without visible text', () => {
    it('should return an empty string for undefined, thoughts only, or tool parts only', () => {
      expect(contentText(undefined)).toBe('');
      expect(contentText(modelThought('secret plan'))).toBe('');
      expect(contentText(functionCall('search', { q: 'x' }))).toBe('');
    });
  });

  describe('visible text', () => {
    it('should join the visible text parts with newlines, leaving thoughts out', () => {
      const content = contentOf(
        'model',
        { text: 'One.' },
        { text: 'hidden', thought: true },
        { text: '' },
        { text: 'Two.' },
      );
      expect(contentText(content)).toBe('One.\nTwo.');
    });
  });
});

describe('isUserRequest', () => {
  describe('contents that are not a user request', () => {
    it('should reject a missing content, a model content and a tool result', () => {
      expect(isUserRequest(undefined)).toBe(false);
      expect(isUserRequest(modelText('Hello'))).toBe(false);
      expect(isUserRequest(functionResponse('search', { hits: 3 }))).toBe(false);
    });

    it("should reject blank text and another agent's events", () => {
      expect(isUserRequest(userText('  \n '))).toBe(false);
      expect(isUserRequest(foreignContext('[planner] said: done'))).toBe(false);
    });
  });

  describe('user requests', () => {
    it('should accept a user content with visible text', () => {
      expect(isUserRequest(userText('Summarize the logs.'))).toBe(true);
    });
  });

  describe('contents of several parts', () => {
    it('should answer as the joined visible text would, without joining every part', () => {
      const parts = (...texts: string[]) => ({ role: 'user', parts: texts.map((text) => ({ text })) });
      expect(isUserRequest(parts('', '  ', 'Hello'))).toBe(true);
      expect(isUserRequest(parts(' ', '\n'))).toBe(false);
      // ADK's rendering of another agent's events: a first part that is exactly the prefix.
      expect(isUserRequest(parts('For context:', '[planner] said: done'))).toBe(false);
      expect(isUserRequest(parts('For ', 'context: x'))).toBe(true);
      expect(
        isUserRequest({ role: 'user', parts: [{ text: 'For context:', thought: true }, { text: 'Do it.' }] }),
      ).toBe(true);
      for (const content of [parts('For', ' context:'), parts('', 'For context: x'), parts('x', 'For context:')])
        expect(isUserRequest(content)).toBe(true);
    });

    it('should accept a message the user typed that starts with "For context:"', () => {
      expect(isUserRequest(userText('For context: I use a Mac. How do I reset the router?'))).toBe(true);
    });
  });
});

describe('latestUserRequestIndex', () => {
  describe('histories without a request', () => {
    it('should return -1', () => {
      expect(latestUserRequestIndex([])).toBe(-1);
      expect(latestUserRequestIndex([modelText('hi'), foreignContext('x')])).toBe(-1);
    });
  });

  describe('histories with requests', () => {
    it('should return the index of the latest one', () => {
      const contents = [
        userText('first'),
        modelText('ok'),
        userText('second'),
        ...[functionCall('f'), functionResponse('f', {})],
      ];
      expect(latestUserRequestIndex(contents)).toBe(2);
    });
  });
});

describe('isValidSplit', () => {
  const contents = [
    userText('go'),
    functionCall('f'),
    functionResponse('f', { ok: true }),
    modelText('done'),
    userText('next'),
    functionCall('g'),
  ];

  describe('out-of-range splits', () => {
    it('should reject 0, negative and past-the-end splits', () => {
      expect(isValidSplit(contents, 0)).toBe(false);
      expect(isValidSplit(contents, -1)).toBe(false);
      expect(isValidSplit(contents, contents.length + 1)).toBe(false);
    });
  });

  describe('tool pairs', () => {
    it('should reject a split that keeps a response without its call', () => {
      expect(isValidSplit(contents, 2)).toBe(false);
    });

    it('should accept a split before a call or after a response', () => {
      expect(isValidSplit(contents, 1)).toBe(true);
      expect(isValidSplit(contents, 3)).toBe(true);
    });

    it('should reject cutting everything when the last content is a call waiting for its response', () => {
      expect(isValidSplit(contents, contents.length)).toBe(false);
      expect(isValidSplit(contents.slice(0, 4), 4)).toBe(true);
    });
  });
});
