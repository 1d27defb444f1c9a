/**
 * Gemini 3's thought signatures under the guard: a model that signs the first call of each step and refuses, as
 * the API does, a call of the turn in flight sent back without its signature or a signed part sent changed. A
 * coding agent's one long turn writes a 45 KB file: the guard cuts that call's argument to fit, and cut with its
 * own signature the call ended the turn on "Corrupted thought signature" (the twenty-fourth outside trial). The
 * cut part now carries the signature Google documents for a part the model did not write as sent.
 */
import { FunctionTool, LlmAgent } from '@google/adk';
import type { Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { EDITED_PART_SIGNATURE } from '../../src/content/thought-signature.js';
import { logText, ScriptedLlm, type ModelScript } from '../../src/testing/index.js';
import { APP_NAME, USER_ID, userMessage } from '../support/agent-harness.js';
import { proportionalCounter } from '../support/proportional-counter.js';
import { guardedRunner } from '../support/guarded-runner.js';
import { ThoughtSignatures } from '../support/thought-signatures.js';

const WINDOW = 16_000;
const STEPS = 20;
const BIG_FILE = logText(45_000, 42);

const readFile = new FunctionTool({
  name: 'read_file',
  description: 'Reads a file.',
  parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' } } } as never,
  // 2 to 20 KB a file, by the step in its name.
  execute: (input: unknown) => {
    const step = Number(/f(\d+)/.exec((input as { path: string }).path)?.[1] ?? 0);
    return { content: logText(2_000 + ((step * 7_919) % 18_000), step) };
  },
});
const writeFile = new FunctionTool({
  name: 'write_file',
  description: 'Writes a file.',
  parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' }, content: { type: 'STRING' } } } as never,
  execute: (input: unknown) => ({ ok: true, bytes: (input as { content: string }).content.length }),
});

/** One step a call: reads files, writes the big one at step 10, then answers. */
function coder(signatures: ThoughtSignatures): ModelScript {
  return ({ index }) => {
    const step = index + 1;
    if (step > STEPS) return { content: { role: 'model', parts: [{ text: 'The fix is written.' }] } };
    const call: Part =
      step === 10
        ? { functionCall: { name: 'write_file', args: { path: 'big.txt', content: BIG_FILE } } }
        : { functionCall: { name: 'read_file', args: { path: `src/f${step}.ts` } } };
    return { content: { role: 'model', parts: signatures.sign([{ text: `Step ${step}.` }, call]) } };
  };
}

describe("a thinking model's signed calls", () => {
  it('should reach the model signed as edited when the guard cuts one in the turn in flight', async () => {
    const signatures = new ThoughtSignatures();
    const model = new ScriptedLlm({
      model: 'gemini-3-flash-preview',
      window: WINDOW,
      countTokens: proportionalCounter(1.1),
      script: coder(signatures),
      fail: ({ request }) => signatures.check(request.contents ?? []),
    });
    const agent = new LlmAgent({ name: 'coder', model, instruction: 'Fix the bug.', tools: [readFile, writeFile] });
    const { sessionService, runner, sessionId: id } = await guardedRunner(agent, WINDOW);
    const errors: string[] = [];
    const newMessage = userMessage('The checkout total is wrong: find and fix it.');
    for await (const event of runner.runAsync({ userId: USER_ID, sessionId: id, newMessage }))
      if (event.errorCode) errors.push(`${event.errorCode}: ${event.errorMessage}`);
    expect(errors).toEqual([]);
    const calls = model.requests.flatMap((request) =>
      request.contents
        .flatMap((content) => content.parts ?? [])
        .filter((part) => part.functionCall?.name === 'write_file'),
    );
    const cut = calls.filter((part) => String(part.functionCall?.args?.['content']).length < BIG_FILE.length);
    expect(cut.length).toBeGreaterThan(0);
    for (const part of cut) expect(part.thoughtSignature).toBe(EDITED_PART_SIGNATURE);
    expect(signatures.editedSeen).toBeGreaterThan(0);
    // The session keeps the call as the model wrote it, its own signature with it.
    const session = await sessionService.getSession({ appName: APP_NAME, userId: USER_ID, sessionId: id });
    const stored = session?.events
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionCall?.name === 'write_file');
    expect(stored?.functionCall?.args?.['content']).toBe(BIG_FILE);
    expect(stored?.thoughtSignature).toMatch(/^sig-/);
  });
});
