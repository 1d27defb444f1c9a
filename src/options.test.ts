import { describe, expect, it } from 'vitest';
import { untypedOptions } from '../test/support/builders.js';
import { characterTokenizer } from '../test/support/tokenizers.js';
import type { Summarizer } from './summary/summarizer.js';
import { ContextGuardConfigError, isContextGuardConfigError } from './errors.js';
import { POLICY_DEFAULTS } from './options.js';
import { resolvePolicy } from './policy/resolve-policy.js';
import { validateOptions } from './validation/validate-options.js';

const SUMMARIZER: Summarizer = { name: 'test', summarize: () => Promise.resolve({ text: 'summary' }) };

/** The error `validateOptions` throws for `options`, or undefined when it accepts them. */
function rejection(options: unknown): ContextGuardConfigError | undefined {
  try {
    validateOptions(untypedOptions(options));
    return undefined;
  } catch (error) {
    if (error instanceof ContextGuardConfigError) return error;
    throw error;
  }
}

/** [the field the error must name, options with that field invalid] */
const INVALID: ReadonlyArray<readonly [string, unknown]> = [
  ['options', null],
  ['options', 'threshold'],
  ['contextWindow', { contextWindow: -1 }],
  ['contextWindow', { contextWindow: 0 }],
  ['contextWindow', { contextWindow: 1_023 }],
  ['contextWindow', { contextWindow: 8_000.5 }],
  ['contextWindow', { contextWindow: Number.NaN }],
  ['contextWindow', { contextWindow: Number.POSITIVE_INFINITY }],
  ['contextWindow', { contextWindow: '8000' }],
  ['enabled', { enabled: 'yes' }],
  ['strategy', { strategy: 'drop-everything' }],
  ['bufferTokens', { bufferTokens: -1 }],
  ['bufferTokens', { contextWindow: 8_000, bufferTokens: 8_000 }],
  // More than half the window: written for a larger window (the budget would use the default buffer).
  ['bufferTokens', { contextWindow: 8_000, bufferTokens: 4_001 }],
  ['agents.worker.bufferTokens', { contextWindow: 32_000, agents: { worker: { bufferTokens: 50_000 } } }],
  // A hard limit below the threshold the buffer sets: one of the two is not meant.
  ['hardLimitRatio', { contextWindow: 8_000, bufferTokens: 100, hardLimitRatio: 0.6 }],
  [
    'agents.worker.hardLimitRatio',
    { hardLimitRatio: 0.6, agents: { worker: { contextWindow: 8_000, bufferTokens: 100 } } },
  ],
  ['bufferRatio', { bufferRatio: 0 }],
  ['bufferRatio', { bufferRatio: 0.95 }],
  ['bufferRatio', { bufferRatio: Number.NaN }],
  ['reserveOutputTokens', { reserveOutputTokens: -5 }],
  ['reserveOutputTokens', { contextWindow: 8_000, reserveOutputTokens: 8_000 }],
  ['uncalibratedThresholdRatio', { uncalibratedThresholdRatio: 0.1 }],
  ['uncalibratedThresholdRatio', { uncalibratedThresholdRatio: 1.5 }],
  ['defaultCorrection', { defaultCorrection: 0.5 }],
  ['defaultCorrection', { defaultCorrection: 6 }],
  ['defaultCorrection', { defaultCorrection: Number.NaN }],
  ['defaultCorrection', { defaultCorrection: '2' }],
  ['hardLimitRatio', { hardLimitRatio: 0.5 }],
  ['hardLimitRatio', { hardLimitRatio: 1.01 }],
  ['compactTargetRatio', { compactTargetRatio: 0.96 }],
  ['summarizer', { summarizer: {} }],
  ['summarizer', { summarizer: 'gemini-2.5-flash' }],
  ['summarizer', { summarizer: () => 'summary' }],
  ['summarizerContextWindow', { summarizerContextWindow: 100 }],
  ['summarizerTimeoutMs', { summarizerTimeoutMs: 0 }],
  ['summarizerTimeoutMs', { summarizerTimeoutMs: 1.5 }],
  // A timer of 2^31 ms or more fires after 1 ms: every summary would fall back.
  ['summarizerTimeoutMs', { summarizerTimeoutMs: 2 ** 31 }],
  ['summarizerTimeoutMs', { summarizerTimeoutMs: Number.POSITIVE_INFINITY }],
  ['summarizer.contextWindow', { summarizer: { ...SUMMARIZER, contextWindow: 100 } }],
  [
    'agents.worker.summarizer.contextWindow',
    { agents: { worker: { summarizer: { ...SUMMARIZER, contextWindow: Number.NaN } } } },
  ],
  // Keys no option has, and global-only options set per agent.
  ['contextWindowTokens', { contextWindowTokens: 8_000 }],
  ['agents.worker.buferTokens', { agents: { worker: { buferTokens: 2_000 } } }],
  ['agents.worker.logger', { agents: { worker: { logger: console } } }],
  ['agents.worker.agents', { agents: { worker: { agents: {} } } }],
  ['debugSummarizerErrorText', { debugSummarizerErrorText: 'yes' }],
  ['summaryMaxTokens', { summaryMaxTokens: 31 }],
  ['summarizerInputRatio', { summarizerInputRatio: 0.99 }],
  ['name', { name: '' }],
  ['name', { name: 5 }],
  ['defaultContextWindow', { defaultContextWindow: 0 }],
  ['modelWindows.my-model', { modelWindows: { 'my-model': 10 } }],
  ['tokenizer', { tokenizer: {} }],
  ['tokenizer', { tokenizer: { name: 'x', count: 'not a function' } }],
  ['tokenizer.name', { tokenizer: { count: () => 1 } }],
  ['tokenizer.name', { tokenizer: { name: '', count: () => 1 } }],
  ['onCompaction', { onCompaction: 'log it' }],
  ['agents', { agents: 'worker' }],
  ['agents', { agents: null }],
  ['agents', { agents: [{ bufferTokens: 4_000 }] }],
  ['agents.worker', { agents: { worker: null } }],
  ['agents.worker', { agents: { worker: 8_000 } }],
  ['agents.worker.contextWindow', { agents: { worker: { contextWindow: -5 } } }],
  ['agents.worker.strategy', { agents: { worker: { strategy: 'sliding' } } }],
  ['agents.worker.summarizer', { agents: { worker: { summarizer: { model: 'gemini' } } } }],
  // Cross-field rules between the global options and an agent's own.
  ['agents.worker.bufferTokens', { contextWindow: 8_000, agents: { worker: { bufferTokens: 9_000 } } }],
  ['agents.worker.bufferTokens', { bufferTokens: 9_000, agents: { worker: { contextWindow: 8_000 } } }],
];

describe('validateOptions', () => {
  describe('invalid options', () => {
    it.each(INVALID)('should throw a ContextGuardConfigError naming %s', (option, options) => {
      const error = rejection(options);
      expect(error).toBeInstanceOf(ContextGuardConfigError);
      expect(error?.option).toBe(option);
      expect(error?.message).toContain(`'${option}'`);
    });

    it('should say what was expected and what was received', () => {
      expect(rejection({ agents: { worker: { contextWindow: -5 } } })?.message).toBe(
        "ContextGuard option 'agents.worker.contextWindow' must be an integer in [1024, 100000000]; received -5.",
      );
      expect(rejection({ bufferRatio: 2 })?.message).toBe(
        "ContextGuard option 'bufferRatio' must be a number in (0, 0.9]; received 2.",
      );
      expect(rejection({ strategy: 'drop-everything' })?.message).toMatch(/must be one of 'threshold'/);
    });

    it('should say how far a buffer or a hard limit is from fitting the window', () => {
      expect(rejection({ contextWindow: 32_000, bufferTokens: 50_000 })?.message).toBe(
        "ContextGuard option 'bufferTokens' must be at most 50% of the context window (32000); a smaller threshold on purpose is a smaller contextWindow; received 50000.",
      );
      expect(rejection({ contextWindow: 8_000, bufferTokens: 100, hardLimitRatio: 0.6 })?.message).toBe(
        "ContextGuard option 'hardLimitRatio' caps requests at 4800 tokens of the context window (8000), below the threshold bufferTokens 100 sets (7900): raise hardLimitRatio to 0.988 or more, or raise bufferTokens; received 0.6.",
      );
      // Half the window is a buffer; a hard limit alone caps the default threshold.
      expect(rejection({ contextWindow: 8_000, bufferTokens: 4_000 })).toBeUndefined();
      expect(rejection({ contextWindow: 8_000, hardLimitRatio: 0.6 })).toBeUndefined();
      expect(rejection({ contextWindow: 8_000, bufferTokens: 3_200, hardLimitRatio: 0.6 })).toBeUndefined();
      // The output reserve sets the threshold (6,000) and the hard limit (min(7,200, 6,000)): nothing is lowered.
      const reserved = { contextWindow: 8_000, bufferTokens: 100, reserveOutputTokens: 2_000, hardLimitRatio: 0.9 };
      expect(rejection(reserved)).toBeUndefined();
      expect(rejection({ ...reserved, reserveOutputTokens: 1_000, hardLimitRatio: 0.8 })?.message).toBe(
        "ContextGuard option 'hardLimitRatio' caps requests at 6400 tokens of the context window (8000), below the threshold reserveOutputTokens 1000 sets (7000): raise hardLimitRatio to 0.875 or more, or raise bufferTokens; received 0.8.",
      );
    });

    it('should name the closest valid key of a misspelt one, and say when none is close', () => {
      expect(rejection({ agents: { worker: { buferTokens: 2_000 } } })?.message).toBe(
        "ContextGuard option 'agents.worker.buferTokens' is not a ContextGuard option (did you mean 'bufferTokens'?); received 2000.",
      );
      expect(rejection({ contextWindowTokens: 8_000 })?.message).toContain("did you mean 'contextWindow'?");
      expect(rejection({ temperature: 0.2 })?.message).toContain(
        'is not a ContextGuard option (see docs/configuration.md)',
      );
    });

    it('should refuse a tool declaration that is not an object of known fields, naming the closest field', () => {
      expect(rejection({ tools: { search: { readonly: true } } })?.message).toBe(
        "ContextGuard option 'tools.search.readonly' is not a tool declaration (did you mean 'readOnly'?); received true.",
      );
      expect(rejection({ agents: { worker: { tools: { search: { sideEffects: false } } } } })?.option).toBe(
        'agents.worker.tools.search.sideEffects',
      );
      expect(rejection({ tools: { search: { readOnly: 'yes' } } })?.message).toBe(
        'ContextGuard option \'tools.search.readOnly\' must be a boolean; received "yes".',
      );
      expect(rejection({ tools: { search: true } })?.option).toBe('tools.search');
      expect(rejection({ tools: ['search'] })?.option).toBe('tools');
      expect(rejection({ tools: { search: { readOnly: true } }, agents: { w: { tools: {} } } })).toBeUndefined();
    });

    it('should refuse a misspelt toolOutputTruncation field, global or per agent, naming the closest', () => {
      expect(rejection({ toolOutputTruncation: { maxByte: 4_096 } })?.message).toContain(
        "'toolOutputTruncation.maxByte' is not a toolOutputTruncation field (did you mean 'maxBytes'?)",
      );
      expect(rejection({ agents: { worker: { toolOutputTruncation: { headLine: 10 } } } })?.option).toBe(
        'agents.worker.toolOutputTruncation.headLine',
      );
      const perTool = rejection({
        agents: { worker: { toolOutputTruncation: { tools: { fetch_logs: { maxLine: 9 } } } } },
      });
      expect(perTool?.option).toBe('agents.worker.toolOutputTruncation.tools.fetch_logs.maxLine');
      expect(perTool?.message).toContain("did you mean 'maxLines'?");
    });

    it('should say that a global-only option belongs at the top level', () => {
      expect(rejection({ agents: { worker: { defaultContextWindow: 8_000 } } })?.message).toMatch(
        /is a global option: set it at the top level/,
      );
    });

    it('should give the range of an integer with an upper bound', () => {
      expect(rejection({ summarizerTimeoutMs: 2 ** 31 })?.message).toContain('must be an integer in [1, 2147483647]');
    });

    it('should carry the received value', () => {
      expect(rejection({ contextWindow: -1 })?.value).toBe(-1);
    });

    it('should reject a logger without the logging methods', () => {
      // The plugin's fail-open catch calls logger.error: a logger without it would throw from the hook.
      expect(rejection({ logger: {} })?.option).toBe('logger');
    });

    it('should reject modelWindows that is not an object', () => {
      // Object.entries(5) is empty: without the check a number would pass and the table be ignored.
      expect(rejection({ modelWindows: 5 })?.option).toBe('modelWindows');
    });

    it("should reject an agent's output reserve not smaller than the global window", () => {
      // Like bufferTokens, the reserve is checked against the window from either level.
      expect(rejection({ contextWindow: 8_000, agents: { worker: { reserveOutputTokens: 9_000 } } })?.option).toBe(
        'agents.worker.reserveOutputTokens',
      );
    });
  });

  describe('valid options', () => {
    it('should accept no options at all', () => {
      expect(rejection({})).toBeUndefined();
    });

    it('should accept every field at a valid value', () => {
      const options = {
        name: 'guard',
        contextWindow: 8_000,
        strategy: 'threshold',
        bufferTokens: 1_000,
        bufferRatio: 0.9,
        reserveOutputTokens: 500,
        uncalibratedThresholdRatio: 1,
        defaultCorrection: 1,
        hardLimitRatio: 1,
        compactTargetRatio: 0.95,
        summarizer: SUMMARIZER,
        summarizerContextWindow: 1_024,
        summarizerTimeoutMs: 1,
        summaryMaxTokens: 32,
        summarizerInputRatio: 0.95,
        defaultContextWindow: 1_024,
        modelWindows: { 'my-model': 32_000 },
        tokenizer: characterTokenizer,
        agents: { worker: { contextWindow: 32_000, bufferTokens: 2_000, enabled: false }, planner: {} },
      };
      expect(rejection(options)).toBeUndefined();
    });

    it('should accept the largest timeout a timer honours', () => {
      expect(rejection({ summarizerTimeoutMs: 2 ** 31 - 1 })).toBeUndefined();
    });

    it("should accept a Summarizer's declared contextWindow", () => {
      expect(rejection({ summarizer: { ...SUMMARIZER, contextWindow: 32_000 } })).toBeUndefined();
    });

    it('should accept a key set to undefined when it names an option', () => {
      expect(rejection({ contextWindow: undefined, agents: { worker: { bufferTokens: undefined } } })).toBeUndefined();
    });

    it('should neither validate nor reject an agents entry inherited through the prototype chain', () => {
      expect(rejection({ agents: Object.create({ worker: { contextWindow: -5, buferTokens: 1 } }) })).toBeUndefined();
    });

    it('should accept an ADK model as the summarizer (checked by shape)', () => {
      expect(
        rejection({ summarizer: { model: 'gemini-2.5-flash', generateContentAsync: () => undefined } }),
      ).toBeUndefined();
    });
  });
});

describe('resolvePolicy', () => {
  describe('defaults', () => {
    it('should apply every default for an agent nobody configured', () => {
      expect(resolvePolicy({}, 'worker')).toMatchObject({
        ...POLICY_DEFAULTS,
        contextWindow: undefined,
        bufferTokens: undefined,
        summarizer: undefined,
      });
    });

    it('should default to a 20% buffer ratio, a 1.5 correction and the threshold strategy', () => {
      expect(resolvePolicy({}, 'worker')).toMatchObject({
        bufferRatio: 0.2,
        defaultCorrection: 1.5,
        strategy: 'threshold',
        enabled: true,
      });
    });
  });

  describe('layering', () => {
    const options = {
      contextWindow: 32_000,
      bufferRatio: 0.3,
      agents: { worker: { contextWindow: 8_000, summarizer: SUMMARIZER }, planner: { enabled: false } },
    };

    it("should let an agent's own policy win over the global options", () => {
      expect(resolvePolicy(options, 'worker')).toMatchObject({
        contextWindow: 8_000,
        bufferRatio: 0.3,
        summarizer: SUMMARIZER,
      });
    });

    it('should give an agent not listed the global options', () => {
      expect(resolvePolicy(options, 'other')).toMatchObject({ contextWindow: 32_000, bufferRatio: 0.3, enabled: true });
    });

    it('should ignore an agents entry inherited through the prototype chain', () => {
      const inherited = { agents: Object.create({ worker: { enabled: false } }) as Record<string, never> };
      expect(resolvePolicy(inherited, 'worker').enabled).toBe(true);
    });

    it('should ignore a non-enumerable agents entry, as validation does', () => {
      const agents: Record<string, { enabled: boolean }> = {};
      Object.defineProperty(agents, 'worker', { value: { enabled: false }, enumerable: false });
      expect(resolvePolicy({ agents }, 'worker').enabled).toBe(true);
    });

    it('should give an agent named like an Object method (constructor, toString) the global policy', () => {
      expect(resolvePolicy({ contextWindow: 32_000, agents: {} }, 'constructor')).toMatchObject({
        ...POLICY_DEFAULTS,
        contextWindow: 32_000,
      });
      expect(resolvePolicy({ agents: {} }, 'toString').enabled).toBe(true);
    });

    it("should merge an agent's tool declarations over the global ones, tool by tool", () => {
      const tools = {
        tools: { search: { readOnly: true }, create_order: { readOnly: false } },
        agents: {
          // An own `__proto__` key, as JSON gives it: a tool name, not a prototype.
          worker: {
            tools: JSON.parse('{"create_order":{"readOnly":true},"__proto__":{"readOnly":true}}') as Record<
              string,
              { readOnly: boolean }
            >,
          },
        },
      };
      const worker = resolvePolicy(tools, 'worker').tools;
      expect(Object.getPrototypeOf(worker)).toBe(Object.prototype);
      expect(Object.entries(worker)).toEqual([
        ['search', { readOnly: true }],
        ['create_order', { readOnly: true }],
        ['__proto__', { readOnly: true }],
      ]);
      expect(resolvePolicy(tools, 'other').tools).toEqual({
        search: { readOnly: true },
        create_order: { readOnly: false },
      });
      expect(resolvePolicy({}, 'other').tools).toEqual({});
    });

    it("should keep each agent's policy separate", () => {
      expect(resolvePolicy(options, 'planner')).toMatchObject({ enabled: false, contextWindow: 32_000 });
      expect(resolvePolicy(options, 'worker').enabled).toBe(true);
    });
  });
});

describe('ContextGuardConfigError', () => {
  describe('identity', () => {
    it('should be an Error named ContextGuardConfigError', () => {
      const error = new ContextGuardConfigError('contextWindow', -1, 'must be positive');
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe('ContextGuardConfigError');
    });

    it('should be recognised across copies of the package by its brand, and nothing else should', () => {
      expect(isContextGuardConfigError(new ContextGuardConfigError('a', 1, 'b'))).toBe(true);
      expect(isContextGuardConfigError({ [Symbol.for('adk-context-guard.ContextGuardConfigError')]: true })).toBe(true);
      expect(isContextGuardConfigError(new Error('contextWindow'))).toBe(false);
      expect(isContextGuardConfigError(null)).toBe(false);
    });
  });

  describe('received values in the message', () => {
    it('should quote strings, cut long ones and name the type of objects', () => {
      expect(new ContextGuardConfigError('name', 'x'.repeat(100), 'is bad').message).toBe(
        `ContextGuard option 'name' is bad; received "${'x'.repeat(60)}…".`,
      );
      expect(new ContextGuardConfigError('agents', [1], 'is bad').message).toMatch(/received \[object Array\]\.$/);
      expect(new ContextGuardConfigError('enabled', undefined, 'is bad').message).toMatch(/received undefined\.$/);
    });
  });
});
