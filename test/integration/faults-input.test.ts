/**
 * Bad input through a real Runner: a single tool output, user message, image
 * or PDF larger than the whole window; a system prompt or tool declarations
 * larger than the window; empty messages and results; unicode across every
 * truncation boundary; and adversarial strings for the tokenizer. Each test
 * states the documented behaviour.
 */
import { LogLevel, setLogLevel, FunctionTool } from '@google/adk';
import type { Content } from '@google/genai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_MARKER, decodeSummaryRecord, stateKeysFor } from '../../src/internal.js';
import { hasLoneSurrogate } from '../support/arbitraries.js';
import { ADVERSARIAL_CASES, type AdversarialResult } from '../support/adversarial-child.js';
import { FAULT_APP, FAULT_USER, faultHarness, sentTexts, type FaultHarness } from '../support/fault-harness.js';
import { GuardedWorld } from '../support/guarded-world.js';
import { CJK_CHARACTERS, EMOJI_PIECES, pdfText, pngBytes, toBase64 } from '../../src/testing/index.js';
import { payloadResult, payloadText } from '../support/payloads.js';

setLogLevel(LogLevel.ERROR);

const keys = stateKeysFor('worker');
let badInputs = 0;
afterAll(() => console.log(`[faults] bad inputs: ${badInputs} (+ ${ADVERSARIAL_CASES.length} adversarial strings)`));

async function expectTurnsOk(h: FaultHarness, messages: Array<string | Content>): Promise<void> {
  for (const message of messages) {
    const outcome = await h.turn(message);
    expect(outcome.thrown).toBeUndefined();
    expect(outcome.errorCodes).toEqual([]);
  }
  expect(h.overWindow().map((request) => request.promptTokens)).toEqual([]);
  expect(h.shapeProblems()).toEqual([]);
  expect(h.logger.atOrAbove('error')).toEqual([]);
}

/** Every string in the contents (texts and the string values inside call arguments and results). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value && typeof value === 'object') for (const child of Object.values(value)) stringsOf(child, out);
  return out;
}

describe('inputs larger than the whole window', () => {
  it('should cut a tool output larger than the window at the source (default truncation), keep it valid JSON and fit the window', async () => {
    badInputs++;
    const h = await faultHarness({ toolChars: 60_000 });
    await expectTurnsOk(h, ['Fetch the big export.', 'What did it say?']);
    const session = await h.sessionService.getSession({
      appName: FAULT_APP,
      userId: FAULT_USER,
      sessionId: h.sessionId,
    });
    const response = session!.events
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionResponse)!.functionResponse!.response as { logs: string };
    expect(typeof response.logs).toBe('string');
    expect(response.logs.length).toBeLessThan(60_000);
  });

  it('should shrink a tool output larger than the window head+tail in the request only, keeping the full output in the session', async () => {
    badInputs++;
    const full = payloadText('log', 60_000, 3);
    const h = await faultHarness({
      toolChars: 60_000,
      toolResult: () => ({ logs: full }),
      guard: { toolOutputTruncation: false },
    });
    await expectTurnsOk(h, ['Fetch the big export.', 'What did it say?']);
    const sent = h.model.requests
      .flatMap((request) => request.contents)
      .flatMap((content) => content.parts ?? [])
      .find((part) => part.functionResponse);
    const logs = (sent?.functionResponse?.response as { logs?: unknown } | undefined)?.logs;
    // Still a JSON object with the same key; head and tail kept.
    expect(typeof logs).toBe('string');
    expect((logs as string).length).toBeLessThan(full.length);
    expect(logs as string).toContain(full.slice(0, 100));
    expect(logs as string).toContain(full.slice(-60));
    // History is never lost: the session event holds the whole output.
    const session = await h.sessionService.getSession({
      appName: FAULT_APP,
      userId: FAULT_USER,
      sessionId: h.sessionId,
    });
    const stored = session!.events.flatMap((event) => event.content?.parts ?? []).find((part) => part.functionResponse)
      ?.functionResponse?.response as { logs?: string };
    expect(stored.logs === full).toBe(true);
  });

  it('should shrink a JSON array result larger than the window to its first and last items', async () => {
    badInputs++;
    const h = await faultHarness({
      toolChars: 80_000,
      toolResult: (size) => payloadResult('json-rows', size, 5),
      guard: { toolOutputTruncation: false },
    });
    await expectTurnsOk(h, ['Fetch all the rows.', 'Which failed?']);
  });

  it('should shrink a user message larger than the window head+tail and keep its head in the request', async () => {
    badInputs++;
    const message = `Please review: ${payloadText('prose', 90_000, 9)}`;
    const h = await faultHarness({ toolChars: 0 });
    await expectTurnsOk(h, ['Hello.', message, 'Thanks. Anything else?']);
    expect(sentTexts(h.model).some((text) => text.includes(message.slice(0, 200)))).toBe(true);
    const session = await h.sessionService.getSession({
      appName: FAULT_APP,
      userId: FAULT_USER,
      sessionId: h.sessionId,
    });
    expect(session!.events.some((event) => event.content?.parts?.[0]?.text === message)).toBe(true);
  });

  it.each([
    ['an image of 12,000 x 12,000 px (about 66k tokens)', 'image/png', () => toBase64(pngBytes(12_000, 12_000))],
    ['a PDF of 200 pages (about 52k tokens)', 'application/pdf', () => toBase64(pdfText(200))],
  ])(
    'should replace %s that is larger than the window by a note instead of sending it',
    async (_label, mimeType, data) => {
      badInputs++;
      // The default provider prices media like the estimator: 258 tokens per 768-px tile and per PDF page.
      const h = await faultHarness({ toolChars: 0 });
      await expectTurnsOk(h, [
        { role: 'user', parts: [{ text: 'Describe this attachment.' }, { inlineData: { mimeType, data: data() } }] },
        'And the colours?',
      ]);
      expect(
        h.model.requests[0]?.contents.flatMap((content) => content.parts ?? []).some((part) => part.inlineData),
      ).toBe(false);
      expect(sentTexts(h.model).some((text) => text.includes('omitted by context_guard'))).toBe(true);
    },
  );

  it('should send a system prompt larger than the window anyway, count it on every call, warn once, and never crash or loop', async () => {
    badInputs++;
    const h = await faultHarness({
      instruction: 'Follow the operating procedures exactly. '.repeat(2_500),
      toolChars: 500,
    });
    for (let turn = 1; turn <= 4; turn++) {
      const outcome = await h.turn(`Turn ${turn}: please help.`);
      expect(outcome.thrown).toBeUndefined();
      // Nothing can make it fit: the provider's own 400 ends the turn as an error event.
      expect(outcome.errorCodes).toEqual(['400']);
    }
    const usage = await h.usage();
    expect(usage.overLimitCalls).toBe(h.model.requests.length);
    // One warning per cause (window and fixed part), not one per call.
    expect(h.overLimitWarnings()).toBe(1);
    // No loop: at most one compaction per turn, and no summarizer call without one.
    expect(h.records.length).toBeLessThanOrEqual(4);
    expect(h.summarizer.calls.length).toBeLessThanOrEqual(h.records.length);
    expect(h.logger.atOrAbove('error')).toEqual([]);
    expect(h.shapeProblems()).toEqual([]);
  });

  it('should never make a request larger by compacting it (system prompt larger than the window)', async () => {
    badInputs++;
    const h = await faultHarness({
      instruction: 'Follow the operating procedures exactly. '.repeat(2_500),
      toolChars: 500,
    });
    for (let turn = 1; turn <= 3; turn++) await h.turn(`Turn ${turn}: please help.`);
    // Each compaction here replaced one short user message by a longer summary, at the cost of a summarizer call.
    expect(
      h.records
        .filter((record) => record.tokensAfter > record.tokensBefore)
        .map((record) => `${record.tokensBefore} -> ${record.tokensAfter}`),
    ).toEqual([]);
  });

  it("should never make a request larger by compacting it (sliding window's token trigger when only the user's message can be covered)", async () => {
    badInputs++;
    // Found by beyond-envelope.property.test.ts (seed 1803619223): one turn on a 2k window whose tool result crosses
    // the sliding window's safety ratio. The only content before the in-flight tool call is the user's request, so
    // the compaction replaces it with a summary that restates it: ~1401 -> ~1484 tokens, for a summarizer call.
    const world = await GuardedWorld.create({
      topology: 'single',
      windows: [2_000],
      unconfiguredAgent: 0,
      reportUsage: true,
      summarizerMode: 'ok',
      summarizerWindow: 2_000,
      instructionChars: 30,
      ratio: 0.5,
      truth: 'chars',
      policy: { strategy: 'sliding-window', toolOutputTruncation: false },
    });
    const outcome = await world.turn({
      entry: 0,
      text: 'Fetch the full export and summarise it.',
      steps: [{ kind: 'tools', calls: [{ kind: 'log', windowFraction: 0.6347500000000001, seed: 481 }] }],
      answerChars: 0,
    });
    expect(outcome.errorCodes).toEqual([]);
    expect(
      world.compactions
        .filter((record) => record.tokensAfter > record.tokensBefore)
        .map((record) => `${record.reason}: ${record.tokensBefore} -> ${record.tokensAfter}`),
    ).toEqual([]);
  });

  it('should send tool declarations larger than the window anyway, count it, warn once, and never crash', async () => {
    badInputs++;
    const huge = new FunctionTool({
      name: 'lookup',
      description: `Looks things up. ${'It accepts many kinds of identifiers and returns records. '.repeat(700)}`,
      parameters: { type: 'OBJECT', properties: { id: { type: 'STRING' } } } as never,
      execute: () => ({ ok: true }),
    });
    const h = await faultHarness({ extraTools: [huge], toolChars: 0 });
    for (let turn = 1; turn <= 3; turn++) {
      const outcome = await h.turn(`Turn ${turn}: look it up.`);
      expect(outcome.thrown).toBeUndefined();
      expect(outcome.errorCodes).toEqual(['400']);
    }
    expect((await h.usage()).overLimitCalls).toBe(h.model.requests.length);
    expect(h.overLimitWarnings()).toBe(1);
    expect(h.logger.atOrAbove('error')).toEqual([]);
  });
});

describe('empty input', () => {
  it('should pass an empty text message through untouched (ADK leaves it out of the request) and carry on', async () => {
    badInputs++;
    const h = await faultHarness({ toolChars: 0 });
    const first = await h.turn('');
    expect(first.thrown).toBeUndefined();
    expect(first.errorCodes).toEqual([]);
    // ADK drops an event whose first part is empty text, so the model got no contents at all. The guard does not
    // invent any; ADK's own models fill the gap (BaseLlm.maybeAppendUserContent appends a user turn to empty contents).
    expect(h.model.requests[0]?.contents).toEqual([]);
    expect(h.logger.atOrAbove('error')).toEqual([]);
    const second = await h.turn('A real question.');
    expect(second.errorCodes).toEqual([]);
    // ADK then builds [model answer, user question]: a request that starts with the model. The guard sends it as
    // ADK built it (it only rewrites what it compacts); Gemini accepts it through ADK's Gemini class.
    expect(h.model.requests[1]?.contents.map((content) => content.role)).toEqual(['model', 'user']);
    expect(h.model.requests[1]?.contents[1]?.parts?.[0]?.text).toBe('A real question.');
    expect(h.logger.atOrAbove('error')).toEqual([]);
  });

  it('should leave a message with no parts to ADK, which rejects it before any plugin runs', async () => {
    badInputs++;
    const h = await faultHarness({ toolChars: 0 });
    const outcome = await h.turn({ role: 'user', parts: [] });
    expect(outcome.thrown).toBe('No parts in the newMessage.');
    expect(h.model.requests).toEqual([]);
    await expectTurnsOk(h, ['A real question.']);
  });

  it('should handle whitespace-only messages, empty tool results and empty answers across a compaction', async () => {
    badInputs++;
    let call = 0;
    const h = await faultHarness({
      window: 4_000,
      toolResult: () => (call % 2 === 0 ? {} : ''),
      script: ({ request }) => {
        call++;
        const last = request.contents[request.contents.length - 1];
        if (!last?.parts?.some((part) => part.functionResponse))
          return { content: { role: 'model', parts: [{ functionCall: { name: 'fetch', args: { size: 0 } } }] } };
        return {
          content: {
            role: 'model',
            parts: [{ text: call % 3 === 0 ? '' : `Answer ${call}: ${payloadText('log', 900, call)}` }],
          },
        };
      },
    });
    const messages: string[] = [];
    for (let turn = 1; turn <= 10; turn++)
      messages.push(turn % 3 === 0 ? '   \n\t ' : `Turn ${turn}: ${payloadText('prose', 600, turn)}`);
    await expectTurnsOk(h, messages);
    expect(h.records.length).toBeGreaterThan(0);
  });
});

describe('unicode across truncation boundaries', () => {
  const allowed = new Set([...CJK_CHARACTERS, ...EMOJI_PIECES, '…']);
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  /** Graphemes that are neither ASCII nor one of the payload's own clusters: a cluster cut in half. */
  const brokenClusters = (texts: string[]): string[] =>
    texts.flatMap((text) =>
      // eslint-disable-next-line no-control-regex -- any character outside ASCII
      [...segmenter.segment(text)].map((s) => s.segment).filter((g) => /[^\x00-\x7f]/.test(g) && !allowed.has(g)),
    );

  async function unicodeSession(kind: 'cjk' | 'emoji'): Promise<{ h: FaultHarness; texts: string[] }> {
    const h = await faultHarness({
      toolChars: 40_000,
      toolResult: (size) => ({ output: payloadText(kind, size, 2) }),
      guard: { toolOutputTruncation: false },
    });
    h.summarizer.mode = 'throw'; // the mechanical summary cuts every line too
    await expectTurnsOk(h, [
      `Read: ${payloadText(kind, 50_000, 1)}`,
      'Fetch the document.',
      `And this: ${payloadText(kind, 3_000, 4)}`,
      'Summarise both.',
      'Again, please.',
    ]);
    expect(h.records.length).toBeGreaterThan(0);
    const stored = decodeSummaryRecord((await h.state())[keys.summary]);
    const texts = [...h.model.requests.flatMap((request) => stringsOf(request.contents)), stored?.text ?? ''];
    return { h, texts };
  }

  it.each(['cjk', 'emoji'] as const)(
    'should send and store only well-formed UTF-16 when %s text is cut (no lone surrogate)',
    async (kind) => {
      badInputs++;
      const { texts } = await unicodeSession(kind);
      expect(texts.some((text) => text.includes('omitted'))).toBe(true);
      expect(texts.filter(hasLoneSurrogate).map((text) => text.slice(0, 80))).toEqual([]);
      // Encodes to UTF-8 and back unchanged.
      for (const text of texts) expect(Buffer.from(text, 'utf8').toString('utf8')).toBe(text);
    },
  );

  it('should never cut a grapheme cluster in half (ZWJ sequences, flags, combining marks)', async () => {
    badInputs++;
    const { texts } = await unicodeSession('emoji');
    expect(texts.some((text) => text.includes(SUMMARY_MARKER))).toBe(true);
    expect([...new Set(brokenClusters(texts))].map((cluster) => JSON.stringify(cluster))).toEqual([]);
  });
});

describe('adversarial strings for the tokenizer', () => {
  /**
   * Each case runs in a child process (support/adversarial-child.ts) that is
   * killed when it stalls: a synchronous super-linear loop cannot be stopped by
   * a test timeout. The assertion is that every case completes and stays
   * healthy, not how long it takes; the budget only bounds a stall.
   */
  const STALL_BUDGET_MS = 15_000;
  const results = new Map<string, AdversarialResult>();
  /** Why a case has no result: killed after the budget, or the child died (its stderr). */
  const failures = new Map<string, string>();
  const childScript = fileURLToPath(new URL('../support/adversarial-child.ts', import.meta.url));

  /** Runs `names` in one child; resolves with why it stopped early, if it did. */
  function runChild(names: readonly string[]): Promise<string | undefined> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', childScript, ...names], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let buffer = '';
      let stderr = '';
      let killed = false;
      let timer: ReturnType<typeof setTimeout>;
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          killed = true;
          child.kill('SIGKILL');
        }, STALL_BUDGET_MS);
      };
      arm();
      child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString('utf8')).slice(-2_000)));
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (!line.startsWith('{')) continue;
          const result = JSON.parse(line) as AdversarialResult;
          results.set(result.name, result);
          arm();
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(
          killed
            ? `stalled for more than ${STALL_BUDGET_MS / 1000} s and was killed`
            : code === 0
              ? undefined
              : `the child exited with ${code}: ${stderr}`,
        );
      });
    });
  }

  beforeAll(async () => {
    let remaining = ADVERSARIAL_CASES.map((testCase) => testCase.name);
    while (remaining.length > 0) {
      const stopped = await runChild(remaining);
      remaining = remaining.filter((name) => !results.has(name));
      // The first case without a result is the one the child stopped on; the others get a fresh child.
      if (remaining.length > 0) failures.set(remaining.shift()!, stopped ?? 'no result');
    }
  }, 240_000);

  it.each(ADVERSARIAL_CASES.map((testCase) => testCase.name))('should complete a turn with %s', (name) => {
    expect(failures.get(name) ?? 'completed').toBe('completed');
    const result = results.get(name)!;
    expect(result.thrown).toEqual([]);
    expect(result.errorCodes).toEqual([]);
    expect(result.overWindow).toBe(0);
    expect(result.shapeProblems).toEqual([]);
    expect(result.errorLogs).toEqual([]);
  });
});
