import { describe, expect, it } from 'vitest';
import { isContextGuardConfigError } from '../errors.js';
import {
  resolveToolOutputLimits,
  TOOL_OUTPUT_DEFAULTS,
  validateToolOutputTruncation,
  type ToolOutputTruncation,
} from './policy.js';

/** The `option` field of the error `run` throws. */
function failingOption(run: () => void): string {
  try {
    run();
  } catch (error) {
    if (isContextGuardConfigError(error)) return error.option;
    throw error;
  }
  throw new Error('expected a ContextGuardConfigError');
}

describe('truncation-policy', () => {
  describe('validation', () => {
    it('should reject a value that is neither false nor an object', () => {
      expect(failingOption(() => validateToolOutputTruncation(true))).toBe('toolOutputTruncation');
      expect(failingOption(() => validateToolOutputTruncation([]))).toBe('toolOutputTruncation');
    });

    it('should name the field and the allowed range for an invalid limit', () => {
      expect(() => validateToolOutputTruncation({ maxBytes: 100 })).toThrow(
        "ContextGuard option 'toolOutputTruncation.maxBytes' must be an integer >= 256; received 100.",
      );
      expect(failingOption(() => validateToolOutputTruncation({ maxLines: 0 }))).toBe('toolOutputTruncation.maxLines');
      expect(failingOption(() => validateToolOutputTruncation({ headLines: -1 }))).toBe(
        'toolOutputTruncation.headLines',
      );
      expect(failingOption(() => validateToolOutputTruncation({ tailLines: 1.5 }))).toBe(
        'toolOutputTruncation.tailLines',
      );
      expect(failingOption(() => validateToolOutputTruncation({ maxBytes: '10k' }))).toBe(
        'toolOutputTruncation.maxBytes',
      );
    });

    it('should refuse a misspelt field, at the top or in a per-tool override, naming the closest', () => {
      expect(() => validateToolOutputTruncation({ maxByte: 4_096 })).toThrow(
        "ContextGuard option 'toolOutputTruncation.maxByte' is not a toolOutputTruncation field (did you mean 'maxBytes'?); received 4096.",
      );
      expect(failingOption(() => validateToolOutputTruncation({ headLine: 10 }))).toBe('toolOutputTruncation.headLine');
      expect(() => validateToolOutputTruncation({ tools: { fetch_logs: { maxLine: 50 } } })).toThrow(
        "ContextGuard option 'toolOutputTruncation.tools.fetch_logs.maxLine' is not a truncation limit (did you mean 'maxLines'?); received 50.",
      );
      // `tools` inside a tool's override is no limit; with no close name, the limits are listed.
      expect(() => validateToolOutputTruncation({ tools: { a: { tools: {} } } })).toThrow(
        /'toolOutputTruncation\.tools\.a\.tools' is not a truncation limit \(known: maxBytes, maxLines, headLines, tailLines\)/,
      );
      expect(
        failingOption(() => validateToolOutputTruncation({ maxByte: 4_096 }, 'agents.w.toolOutputTruncation')),
      ).toBe('agents.w.toolOutputTruncation.maxByte');
    });

    it('should accept every field it documents', () => {
      expect(() =>
        validateToolOutputTruncation({
          maxBytes: 4_096,
          maxLines: 100,
          headLines: 50,
          tailLines: 50,
          tools: { a: { maxBytes: 8_192, maxLines: 10, headLines: 5, tailLines: 5 }, b: false },
        }),
      ).not.toThrow();
    });

    it('should reject kept lines above maxLines, measured against the defaults', () => {
      // 200 + 128 (default tail) > 256 (default maxLines).
      expect(() => validateToolOutputTruncation({ headLines: 200 })).toThrow(
        /headLines \+ tailLines \(200 \+ 128\) <= maxLines \(256\)/,
      );
      expect(failingOption(() => validateToolOutputTruncation({ maxLines: 100 }))).toBe(
        'toolOutputTruncation.maxLines',
      );
    });

    it('should reject keeping no line at all', () => {
      expect(failingOption(() => validateToolOutputTruncation({ headLines: 0, tailLines: 0 }))).toBe(
        'toolOutputTruncation.headLines',
      );
    });

    it('should name the tool in per-tool errors, merged over the global limits', () => {
      expect(failingOption(() => validateToolOutputTruncation({ tools: { read_file: { maxBytes: 10 } } }))).toBe(
        'toolOutputTruncation.tools.read_file.maxBytes',
      );
      // Global maxLines 100 with the tool's 60 + 60 kept lines.
      expect(
        failingOption(() =>
          validateToolOutputTruncation({
            maxLines: 100,
            headLines: 50,
            tailLines: 50,
            tools: { grep: { headLines: 60, tailLines: 60 } },
          }),
        ),
      ).toBe('toolOutputTruncation.tools.grep.headLines');
      expect(failingOption(() => validateToolOutputTruncation({ tools: { grep: 3 } }))).toBe(
        'toolOutputTruncation.tools.grep',
      );
      expect(failingOption(() => validateToolOutputTruncation({ tools: 'all' }))).toBe('toolOutputTruncation.tools');
    });

    it('should use the given path, for per-agent policies', () => {
      expect(
        failingOption(() => validateToolOutputTruncation({ maxBytes: 1 }, 'agents.worker.toolOutputTruncation')),
      ).toBe('agents.worker.toolOutputTruncation.maxBytes');
    });

    it('should accept false, undefined, defaults and valid overrides', () => {
      expect(() => validateToolOutputTruncation(false)).not.toThrow();
      expect(() => validateToolOutputTruncation(undefined)).not.toThrow();
      expect(() => validateToolOutputTruncation({})).not.toThrow();
      expect(() =>
        validateToolOutputTruncation({
          maxLines: 10,
          headLines: 5,
          tailLines: 5,
          tools: { a: false, b: { maxBytes: 256 } },
        }),
      ).not.toThrow();
    });
  });

  describe('resolution', () => {
    it('should apply the defaults when no policy is given', () => {
      expect(resolveToolOutputLimits(undefined, 'any')).toEqual({
        maxBytes: 10_240,
        maxLines: 256,
        headLines: 128,
        tailLines: 128,
      });
      expect(resolveToolOutputLimits({}, 'any')).toEqual(TOOL_OUTPUT_DEFAULTS);
    });

    it('should turn truncation off globally or per tool', () => {
      expect(resolveToolOutputLimits(false, 'any')).toBeUndefined();
      const policy: ToolOutputTruncation = { tools: { secret: false } };
      expect(resolveToolOutputLimits(policy, 'secret')).toBeUndefined();
      expect(resolveToolOutputLimits(policy, 'other')).toEqual(TOOL_OUTPUT_DEFAULTS);
    });

    it('should merge the tool over the global limits over the defaults', () => {
      const policy: ToolOutputTruncation = {
        maxBytes: 4_096,
        maxLines: 100,
        headLines: 50,
        tailLines: 50,
        tools: { read_file: { maxBytes: 32_768, tailLines: 10 } },
      };
      expect(resolveToolOutputLimits(policy, 'read_file')).toEqual({
        maxBytes: 32_768,
        maxLines: 100,
        headLines: 50,
        tailLines: 10,
      });
      expect(resolveToolOutputLimits(policy, 'grep')).toEqual({
        maxBytes: 4_096,
        maxLines: 100,
        headLines: 50,
        tailLines: 50,
      });
    });

    it('should not mistake inherited object keys for tool overrides', () => {
      expect(resolveToolOutputLimits({ tools: {} }, 'constructor')).toEqual(TOOL_OUTPUT_DEFAULTS);
    });
  });
});
