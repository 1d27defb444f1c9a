import { describe, expect, it } from 'vitest';
import { contextRecallTool } from '../adk/tools/recall-tool.js';
import { withArtifactOffload } from '../adk/tools/offload-tool-output.js';
import { createToolOutputTruncator } from '../adk/tools/tool-output-callback.js';
import { ContextGuardConfigError } from '../errors.js';
import { AgentsMdInstructionsPlugin } from '../instructions/agents-md-plugin.js';
import { agentsMdInstruction } from '../instructions/agents-md-instruction.js';
import { loadInstructions } from '../instructions/load-instructions.js';
import { truncateToolOutput } from '../truncation/truncate-tool-output.js';
import { checkFactoryOptions } from './factory-options.js';
import { ContextGuard } from '../context-guard.js';
import { pinContextTool } from '../adk/tools/pin-tool.js';

/** The error `make` throws, for its fields to be read. */
function refusal(make: () => unknown): ContextGuardConfigError {
  try {
    make();
  } catch (error) {
    if (error instanceof ContextGuardConfigError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('checkFactoryOptions', () => {
  it('should name the factory and the field, and say what is accepted', () => {
    const error = refusal(() => checkFactoryOptions('tool()', { size: 0 }, { size: { type: 'integer', min: 1 } }));
    expect(error.option).toBe('size');
    expect(error.message).toBe("tool() option 'size' must be an integer >= 1; received 0.");
  });

  it('should refuse a key that is no option, with the closest name', () => {
    expect(() => checkFactoryOptions('tool()', { sizes: 3 }, { size: 'any' })).toThrow(
      /'sizes' is not an option \(did you mean 'size'\?\)/,
    );
  });

  it('should accept missing options and undefined fields, and refuse options that are not an object', () => {
    expect(() => checkFactoryOptions('tool()', undefined, { size: 'text' })).not.toThrow();
    expect(() => checkFactoryOptions('tool()', { size: undefined }, { size: 'text' })).not.toThrow();
    expect(() => checkFactoryOptions('tool()', 'big', { size: 'text' })).toThrow(ContextGuardConfigError);
  });

  it('should check texts, lists of texts, functions and loggers', () => {
    const fields = { name: 'text', markers: 'texts', hook: 'function', logger: 'logger' } as const;
    expect(() => checkFactoryOptions('f()', { name: ' ' }, fields)).toThrow(/non-empty string/);
    expect(() => checkFactoryOptions('f()', { markers: ['.git', ''] }, fields)).toThrow(/array of non-empty strings/);
    expect(() => checkFactoryOptions('f()', { hook: 'x' }, fields)).toThrow(/must be a function/);
    expect(() => checkFactoryOptions('f()', { logger: { warn: () => 0 } }, fields)).toThrow(/debug and warn/);
    const logger = { debug: () => 0, warn: () => 0 };
    expect(() =>
      checkFactoryOptions('f()', { name: 'a', markers: ['.git'], hook: () => 0, logger }, fields),
    ).not.toThrow();
  });
});

describe("the public factories' options", () => {
  it('should refuse recall tool limits that would make every answer empty or meaningless', () => {
    for (const maxHits of [0, -1, Number.NaN, 2.5, 101])
      expect(refusal(() => contextRecallTool({ maxHits })).option).toBe('maxHits');
    expect(refusal(() => contextRecallTool({ snippetChars: -5 })).option).toBe('snippetChars');
    expect(refusal(() => contextRecallTool({ maxExcerptChars: '5' as never })).option).toBe('maxExcerptChars');
    expect(refusal(() => contextRecallTool({ maxHit: 3 } as never)).message).toContain("did you mean 'maxHits'");
    expect(refusal(() => contextRecallTool({ artifactTimeoutMs: 0 })).message).toMatch(/^contextRecallTool\(\) option/);
    expect(() => contextRecallTool({ maxHits: 1, snippetChars: 20, maxExcerptChars: 100 })).not.toThrow();
  });

  it('should refuse truncation limits given whole that are out of range, missing or crossed', () => {
    const result = { output: 'x'.repeat(20_000) };
    const tool = 'read_file';
    const limits = { maxBytes: 1_024, maxLines: 10, headLines: 5, tailLines: 5 };
    expect(truncateToolOutput({ tool, result, limits })).toBeDefined();
    expect(refusal(() => truncateToolOutput({ tool, result, limits: { ...limits, maxBytes: -1 } })).option).toBe(
      'limits.maxBytes',
    );
    expect(
      refusal(() => truncateToolOutput({ tool, result, limits: { ...limits, maxBytes: Number.NaN } })).option,
    ).toBe('limits.maxBytes');
    expect(refusal(() => truncateToolOutput({ tool, result, limits: { ...limits, headLines: 8 } })).message).toMatch(
      /^truncateToolOutput\(\) option 'limits.headLines' must keep headLines \+ tailLines/,
    );
    const { tailLines: _unset, ...partial } = limits;
    expect(refusal(() => truncateToolOutput({ tool, result, limits: partial as never })).option).toBe(
      'limits.tailLines',
    );
  });

  it("should refuse an offload wait the guard's own option would refuse", () => {
    const error = refusal(() => withArtifactOffload(createToolOutputTruncator(), undefined, { artifactTimeoutMs: 0 }));
    expect(error.option).toBe('artifactTimeoutMs');
    expect(error.message).toMatch(/^withArtifactOffload\(\) option 'artifactTimeoutMs'/);
  });

  it("should refuse the instructions loaders' misspelt keys and sizes out of range", async () => {
    await expect(loadInstructions({ maxByte: 5 } as never)).rejects.toThrow(/did you mean 'maxBytes'/);
    await expect(loadInstructions({ maxBytes: -1 })).rejects.toThrow(ContextGuardConfigError);
    expect(refusal(() => new AgentsMdInstructionsPlugin({ maxBytes: -1 })).message).toMatch(
      /^AgentsMdInstructionsPlugin option 'maxBytes'/,
    );
    expect(refusal(() => agentsMdInstruction({ cache: 'yes' as never })).option).toBe('cache');
    expect(() => new AgentsMdInstructionsPlugin({ cache: false, name: 'rules' })).not.toThrow();
  });

  it('should refuse a pin tool without a guard and an onCompaction listener that is not a function', () => {
    expect(() => pinContextTool({} as never)).toThrow(/pinContextTool\(\) expects the guard/);
    expect(() => pinContextTool(new ContextGuard(), { nme: 'pin' } as never)).toThrow(/did you mean 'name'/);
    expect(() => new ContextGuard().onCompaction(5 as never)).toThrow(/onCompaction\(\) expects a function/);
  });
});

describe('window options and keys that name nothing', () => {
  it('should refuse a window above any plausible count, an empty agent or model key, and a blank name', () => {
    expect(() => new ContextGuard({ contextWindow: 1e308 })).toThrow(
      /contextWindow' must be an integer in \[1024, 100000000\]/,
    );
    expect(() => new ContextGuard({ modelWindows: { 'gemini-2.5-flash': 2 ** 53 } })).toThrow(ContextGuardConfigError);
    expect(() => new ContextGuard({ modelWindows: { '': 8_000 } })).toThrow(
      /modelWindows\[''\]' must not have a blank key/,
    );
    expect(() => new ContextGuard({ agents: { '': { contextWindow: 8_000 } } })).toThrow(/it names no agent/);
    expect(() => new ContextGuard({ agents: { ' ': {} } })).toThrow(/must not have a blank key/);
    expect(() => contextRecallTool({ name: 'has space' })).toThrow(/must be a tool name/);
    expect(() => pinContextTool(new ContextGuard(), { name: '1pin' })).toThrow(/must be a tool name/);
    expect(() => contextRecallTool({ name: 'recall_v2.history' })).not.toThrow();
    expect(() => contextRecallTool({ name: `ns:${'r'.repeat(120)}` })).not.toThrow();
    expect(() => contextRecallTool({ name: 'r'.repeat(129) })).toThrow(/must be a tool name/);
    expect(() => new ContextGuard({ name: ' ' })).toThrow(/'name' must be a non-empty string/);
    expect(() => new ContextGuard({ contextWindow: 100_000_000, modelWindows: { m: 1_024 } })).not.toThrow();
  });
});
