/**
 * Options that used to pass and then misbehave at run time, through a real
 * Runner: timeouts past what timers allow, tokenizers that return NaN,
 * inherited `agents` entries, misspelt keys, a status for an agent the guard
 * never saw, a custom summarizer's window, and summarizer error text that
 * could quote the conversation.
 */
import { InMemorySessionService, LlmAgent, LogLevel, Runner, setLogLevel } from '@google/adk';
import { describe, expect, it } from 'vitest';
import {
  ContextGuard,
  ContextGuardConfigError,
  tiktokenTokenizer,
  type ContextGuardOptions,
  type SummarizeRequest,
  type Summarizer,
  type Tokenizer,
} from '../../src/index.js';
import { COMPACTION_METADATA_KEY, stateKeysFor } from '../../src/internal.js';
import { untypedOptions } from '../support/builders.js';
import { FAULT_APP, FAULT_USER, faultHarness } from '../support/fault-harness.js';

setLogLevel(LogLevel.ERROR);

/** The error thrown when a Runner is built with a guard made from `options`, or undefined. */
function configError(options: unknown): ContextGuardConfigError | undefined {
  try {
    const agent = new LlmAgent({ name: 'worker', model: 'gemini-2.5-flash', instruction: 'Help.' });
    new Runner({
      appName: FAULT_APP,
      agent,
      sessionService: new InMemorySessionService(),
      plugins: [new ContextGuard(untypedOptions(options))],
    });
    return undefined;
  } catch (error) {
    if (error instanceof ContextGuardConfigError) return error;
    throw error;
  }
}

describe('options that timers cannot honour', () => {
  it('should refuse a summarizerTimeoutMs of 2^31 ms or more, which Node turns into a 1 ms timer', () => {
    expect(configError({ summarizerTimeoutMs: 2 ** 31 })?.option).toBe('summarizerTimeoutMs');
    expect(configError({ agents: { worker: { summarizerTimeoutMs: 2 ** 40 } } })?.option).toBe(
      'agents.worker.summarizerTimeoutMs',
    );
  });

  it('should summarize with the model (no fallback) at the largest timeout a timer allows', async () => {
    const h = await faultHarness({ guard: { summarizerTimeoutMs: 2 ** 31 - 1 } });
    await h.turnsUntilCompaction();
    expect(h.records[0]?.fallback).toBe(false);
  });
});

describe('a tokenizer that returns no usable count', () => {
  it.each<[string, number]>([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a negative count', -5],
  ])(
    'should still compact and keep every request in the window when it returns %s, with one warning',
    async (_label, bad) => {
      const tokenizer: Tokenizer = { name: 'broken', count: () => bad };
      const h = await faultHarness({ guard: { tokenizer } });
      const turns = await h.turnsUntilCompaction(20);
      expect(h.records.length, `no compaction in ${turns} turns`).toBeGreaterThan(0);
      expect(h.overWindow()).toEqual([]);
      expect(h.model.rejectedRequests).toEqual([]);
      expect(h.logger.matching(/tokenizer 'broken'/)).toHaveLength(1);
    },
  );
});

describe('inherited agents entries', () => {
  it('should ignore an agents entry inherited through the prototype chain (neither validated nor used)', async () => {
    const agents = Object.create({ worker: { enabled: false, contextWindow: -5 } }) as Record<string, never>;
    const h = await faultHarness({ guard: { agents } });
    await h.turn('Fetch the document, please.');
    // The inherited `enabled: false` is not applied: the worker is guarded.
    expect((await h.usage()).modelCalls).toBeGreaterThan(0);
  });
});

describe('misspelt options', () => {
  it('should name an unknown top-level key and the closest valid one', () => {
    const error = configError({ contextWindowTokens: 8_000 });
    expect(error?.option).toBe('contextWindowTokens');
    expect(error?.message).toContain("did you mean 'contextWindow'?");
  });

  it('should name an unknown per-agent key and the closest valid one', () => {
    const error = configError({ agents: { worker: { buferTokens: 2_000 } } });
    expect(error?.option).toBe('agents.worker.buferTokens');
    expect(error?.message).toContain("did you mean 'bufferTokens'?");
  });

  it('should name a misspelt toolOutputTruncation field, global, per tool and per agent, and the closest valid one', () => {
    const cases: [unknown, string, string][] = [
      [{ toolOutputTruncation: { maxByte: 4_096 } }, 'toolOutputTruncation.maxByte', 'maxBytes'],
      [{ toolOutputTruncation: { headLine: 10 } }, 'toolOutputTruncation.headLine', 'headLines'],
      [
        { toolOutputTruncation: { tools: { fetch_logs: { maxLine: 40 } } } },
        'toolOutputTruncation.tools.fetch_logs.maxLine',
        'maxLines',
      ],
      [
        { agents: { worker: { toolOutputTruncation: { tools: { fetch_logs: { maxLine: 40 } } } } } },
        'agents.worker.toolOutputTruncation.tools.fetch_logs.maxLine',
        'maxLines',
      ],
    ];
    for (const [options, option, meant] of cases) {
      const error = configError(options);
      expect(error?.option).toBe(option);
      expect(error?.message).toContain(`did you mean '${meant}'?`);
    }
  });

  it('should say that a global-only option cannot be set per agent', () => {
    const error = configError({ agents: { worker: { tokenizer: tiktokenTokenizer } } });
    expect(error?.option).toBe('agents.worker.tokenizer');
    expect(error?.message).toMatch(/global/);
  });
});

describe('status of an agent the guard does not know', () => {
  it('should mark a misspelt agent name as unknown instead of reporting a zeroed status', async () => {
    const h = await faultHarness();
    await h.turn('Fetch the document, please.');
    const session = await h.sessionService.getSession({
      appName: FAULT_APP,
      userId: FAULT_USER,
      sessionId: h.sessionId,
    });
    expect(session).toBeDefined();
    expect(h.guard.status(session, 'worker').known).toBe(true);
    const typo = h.guard.status(session, 'wroker');
    expect(typo.known).toBe(false);
    expect(typo.agentName).toBe('wroker');
    expect(h.guard.status(session).map((status) => status.known)).toEqual([true]);
  });
});

/** A custom summarizer that records each prompt; `contextWindow` is its declared window, if any. */
function recordingSummarizer(contextWindow?: number): Summarizer & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    name: 'custom-summarizer',
    ...(contextWindow === undefined ? {} : { contextWindow }),
    prompts,
    summarize(request: SummarizeRequest) {
      prompts.push(request.prompt);
      return Promise.resolve({ text: `## Current state\nSummary ${prompts.length}.`, finishReason: 'STOP' });
    },
  };
}

describe('a custom Summarizer without summarizerContextWindow', () => {
  const guardOptions = (summarizer: Summarizer): Partial<ContextGuardOptions> => ({
    contextWindow: undefined,
    modelWindows: { 'scripted-model': 8_000 },
    summarizer,
  });

  it("should use the agent's own window, not an unknown model ''", async () => {
    const h = await faultHarness({ guard: guardOptions(recordingSummarizer()) });
    await h.turnsUntilCompaction();
    expect(h.records[0]?.fallback).toBe(false);
    expect(h.logger.matching('unknown model')).toEqual([]);
  });

  it('should keep the summarizer prompt within the window the summarizer declares', async () => {
    const declared = 2_048;
    const summarizer = recordingSummarizer(declared);
    const h = await faultHarness({ guard: guardOptions(summarizer) });
    await h.turnsUntilCompaction();
    expect(summarizer.prompts.length).toBeGreaterThan(0);
    for (const prompt of summarizer.prompts) expect(tiktokenTokenizer.count(prompt)).toBeLessThanOrEqual(declared);
  });
});

describe("the summarizer's error text", () => {
  const SECRET = 'card 4111-1111-1111-1111';
  /** Throws with a message that quotes the prompt, as some providers do. */
  const quotingSummarizer: Summarizer = {
    name: 'quoting',
    summarize: (request) => {
      const at = Math.max(0, request.prompt.indexOf(SECRET) - 20);
      return Promise.reject(new Error(`invalid request near: ${request.prompt.slice(at, at + 100)}`));
    },
  };

  async function compactWithSecret(debug: boolean) {
    const h = await faultHarness({
      guard: { summarizer: quotingSummarizer, ...(debug ? { debugSummarizerErrorText: true } : {}) },
    });
    await h.turn(`My ${SECRET}. Fetch the document, please.`);
    await h.turnsUntilCompaction();
    const session = await h.sessionService.getSession({
      appName: FAULT_APP,
      userId: FAULT_USER,
      sessionId: h.sessionId,
    });
    const metadata = (session?.events ?? []).flatMap((event) =>
      event.customMetadata?.[COMPACTION_METADATA_KEY] ? [event.customMetadata[COMPACTION_METADATA_KEY]] : [],
    );
    return { h, lastCompaction: session?.state[stateKeysFor('worker').lastCompaction], metadata };
  }

  it('should keep it out of session state and event metadata, storing only the kind of failure', async () => {
    const { h, lastCompaction, metadata } = await compactWithSecret(false);
    expect(h.records[0]?.fallback).toBe(true);
    expect(h.records[0]?.fallbackReason).toBe('failed');
    expect(metadata.length).toBeGreaterThan(0);
    // (The summary itself holds the conversation, as it must; the records of what happened must not.)
    expect(lastCompaction).toMatchObject({ fallbackReason: 'failed' });
    expect(JSON.stringify(lastCompaction)).not.toContain(SECRET);
    expect(JSON.stringify(metadata)).not.toContain(SECRET);
    expect(JSON.stringify(h.records)).not.toContain(SECRET);
  });

  it('should store it in the record when debugSummarizerErrorText asks for it', async () => {
    const { h, lastCompaction } = await compactWithSecret(true);
    expect(h.records[0]?.fallbackReason).toBe('failed');
    expect(h.records[0]?.fallbackDetail).toContain(SECRET);
    expect(JSON.stringify(lastCompaction)).toContain(SECRET);
  });
});
