/**
 * No conversation text in logs above debug, from any failure path: a secret is planted in every
 * error the guard can log (the model's, the summarizer's, the artifact service's on save and on
 * read, the tokenizer's, listeners' and another plugin's) and in corrupted state values, through
 * a real Runner with a capturing logger. Every log line at info level or above, the error objects
 * passed with it rendered whole, must be free of it; the fault itself must have been reported.
 */
import { BasePlugin, InMemoryArtifactService, LogLevel, setLogLevel } from '@google/adk';
import type { Part } from '@google/genai';
import { afterAll, describe, expect, it } from 'vitest';
import { contextRecallTool } from '../../src/index.js';
import { stateKeysFor } from '../../src/internal.js';
import { CapturingLogger, logText, ScriptedSummarizerLlm, type ModelScript } from '../../src/testing/index.js';
import { faultHarness, type FaultHarnessOptions } from '../support/fault-harness.js';
import { promptTooLongError } from '../../src/testing/scripted-llm.js';

setLogLevel(LogLevel.ERROR);

const SECRET = 'SECRET-d41c-correcthorse';
let cases = 0;
afterAll(() => console.log(`[faults] failure paths checked for conversation text in logs: ${cases}`));

/** An error whose message quotes the conversation, as a provider's or a storage error can. */
class QuotingError extends Error {
  constructor(where: string) {
    super(`${where} failed near "...my token is ${SECRET}..."`);
  }
}

/** On a user turn: `fetch`; a result stored whole is then read with the recall tool; then an answer. */
function fetchRecallAnswer(size: number): ModelScript {
  return ({ request, index }) => {
    const parts: Part[] = request.contents[request.contents.length - 1]?.parts ?? [];
    const response = parts.find((part) => part.functionResponse)?.functionResponse;
    const handle = (response?.response as { full_result_artifact?: { name: string } } | undefined)
      ?.full_result_artifact;
    if (response?.name === 'fetch' && handle)
      return {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'recall_history', args: { artifact: handle.name, length: 200 } } }],
        },
      };
    if (response) return { content: { role: 'model', parts: [{ text: `About ${SECRET}: ${logText(150, index)}` }] } };
    return { content: { role: 'model', parts: [{ functionCall: { name: 'fetch', args: { size } } }] } };
  };
}

class QuotingSummarizer extends ScriptedSummarizerLlm {
  // eslint-disable-next-line require-yield -- this provider fails before its first chunk
  override async *generateContentAsync(): ReturnType<ScriptedSummarizerLlm['generateContentAsync']> {
    throw new QuotingError('summarize');
  }
}

class FailingSaves extends InMemoryArtifactService {
  override saveArtifact(): Promise<number> {
    return Promise.reject(new QuotingError('write'));
  }
}

class FailingReads extends InMemoryArtifactService {
  override loadArtifact(): Promise<Part | undefined> {
    return Promise.reject(new QuotingError('read'));
  }
}

class ThrowingHooks extends BasePlugin {
  constructor() {
    super('throwing_hooks');
  }
  override beforeContextCompaction(): Promise<void> {
    return Promise.reject(new QuotingError('beforeContextCompaction'));
  }
}

/** Every guard state key of the agent, holding a corrupted value that carries the secret. */
function corruptedState(value: () => unknown): Record<string, unknown> {
  const keys: readonly string[] = Object.values(stateKeysFor('worker'));
  return Object.fromEntries(keys.map((key) => [key, value()]));
}

interface FaultCase {
  readonly options: () => FaultHarnessOptions;
  /** What the guard must have reported at warn or error level (so the fault did happen). */
  readonly reported: readonly RegExp[];
  /** The error that quotes the secret is logged whole at debug (kept for debugging, not lost). */
  readonly detailAtDebug?: boolean;
}

const BIG = 12_000;
const CASES: Record<string, FaultCase> = {
  'the model (a too-long rejection and a 500, both quoting the request)': {
    options: () => ({
      fail: ({ index }) => {
        if (index === 1) {
          const error = promptTooLongError(9_000, 8_000);
          error.message = error.message.replace('allowed (8000).', `allowed (8000). Near: ${SECRET}`);
          return error;
        }
        return index === 4 ? new QuotingError('generate') : undefined;
      },
    }),
    reported: [/the model rejected the request as too long/],
  },
  'the summarizer': {
    options: () => ({ guard: { summarizer: new QuotingSummarizer() } }),
    reported: [/summarizer failed \(failed\)/],
    detailAtDebug: true,
  },
  'the artifact service on save': {
    options: () => ({ artifactService: new FailingSaves(), script: fetchRecallAnswer(BIG) }),
    reported: [/could not store tool 'fetch' result as an artifact/],
    detailAtDebug: true,
  },
  'the artifact service on read': {
    options: () => ({ artifactService: new FailingReads(), script: fetchRecallAnswer(BIG) }),
    reported: [/could not read a stored tool result/],
    detailAtDebug: true,
  },
  'the tokenizer': {
    options: () => ({
      guard: {
        tokenizer: {
          name: 'quoting',
          count: () => {
            throw new QuotingError('count');
          },
        },
      },
    }),
    reported: [/tokenizer 'quoting' returned an error/],
    detailAtDebug: true,
  },
  'corrupted state values (broken JSON)': {
    options: () => ({ state: corruptedState(() => `{"text": "${SECRET}`) }),
    reported: [/ignoring an unreadable summary record/],
  },
  'corrupted state values (wrong shapes)': {
    options: () => ({
      state: corruptedState(() => ({ v: SECRET, text: SECRET, watermark: SECRET, anchor: [SECRET], count: SECRET })),
    }),
    reported: [/ignoring an unreadable summary record/],
  },
  "listeners and another plugin's compaction hook": {
    options: () => ({
      plugins: [new ThrowingHooks()],
      toolChars: BIG,
      guard: {
        onCompaction: () => {
          throw new QuotingError('onCompaction');
        },
        onToolTruncation: () => {
          throw new QuotingError('onToolTruncation');
        },
      },
    }),
    reported: [
      /an onCompaction listener failed/,
      /an onToolTruncation listener failed/,
      /a plugin failed in beforeContextCompaction/,
    ],
    detailAtDebug: true,
  },
};

describe('no conversation text in logs above debug, whatever fails', () => {
  it.each(Object.keys(CASES))('should log a failure of %s without the text it quotes', async (name) => {
    cases++;
    const fault = CASES[name]!;
    const logger = new CapturingLogger();
    const harness = await faultHarness({
      ...fault.options(),
      logger,
      extraTools: [contextRecallTool({ logger })],
      toolResult: (size) => ({ logs: `${SECRET} ${logText(size, size)}` }),
    });
    for (let turn = 1; turn <= 6; turn++) await harness.turn(`Turn ${turn}: my token is ${SECRET}.`);

    const loud = logger.atOrAbove('info');
    for (const pattern of fault.reported)
      expect(
        loud.some((line) => line.level !== 'info' && pattern.test(line.message)),
        `reported: ${pattern}`,
      ).toBe(true);
    if (fault.detailAtDebug)
      expect(logger.lines.some((line) => line.level === 'debug' && line.message.includes(SECRET))).toBe(true);
    expect(loud.filter((line) => line.message.includes(SECRET)).map((line) => line.message.slice(0, 300))).toEqual([]);
  });
});
