/**
 * Runs the adversarial-string cases of faults-input.test.ts in a child
 * process, so that a case that stalls (a super-linear tokenizer or regular
 * expression on megabytes without whitespace) can be killed by the parent
 * instead of blocking the test worker: a synchronous stall cannot be
 * interrupted by a test timeout.
 *
 *   node --import tsx test/support/adversarial-child.ts <case name>...
 *
 * Prints one JSON line per finished case (see `AdversarialResult`).
 */
import { LogLevel, setLogLevel } from '@google/adk';
import { faultHarness } from './fault-harness.js';
import { payloadText, type PayloadKind } from './payloads.js';

export interface AdversarialCase {
  readonly name: string;
  /** Where the string goes: the user's message or a tool's result. */
  readonly place: 'user-message' | 'tool-output';
  readonly kind: PayloadKind | 'one-char' | 'punctuation';
  readonly chars: number;
}

export interface AdversarialResult {
  readonly name: string;
  readonly ms: number;
  readonly thrown: string[];
  readonly errorCodes: string[];
  readonly overWindow: number;
  readonly shapeProblems: string[];
  readonly errorLogs: string[];
  readonly compactions: number;
}

const MB = 1_000_000;

export const ADVERSARIAL_CASES: readonly AdversarialCase[] = [
  { name: 'user message: 2 MB of hex digits, no whitespace', place: 'user-message', kind: 'no-space', chars: 2 * MB },
  { name: 'user message: 2 MB of one repeated letter', place: 'user-message', kind: 'one-char', chars: 2 * MB },
  { name: 'user message: 2 MB of base64', place: 'user-message', kind: 'base64', chars: 2 * MB },
  { name: 'user message: 2 MB of punctuation', place: 'user-message', kind: 'punctuation', chars: 2 * MB },
  { name: 'user message: 1 MB of emoji, flags and combining marks', place: 'user-message', kind: 'emoji', chars: MB },
  { name: 'user message: 2 MB of CJK without spaces', place: 'user-message', kind: 'cjk', chars: 2 * MB },
  { name: 'tool output: 2 MB of hex digits, no whitespace', place: 'tool-output', kind: 'no-space', chars: 2 * MB },
  { name: 'tool output: 2 MB of one repeated letter', place: 'tool-output', kind: 'one-char', chars: 2 * MB },
  { name: 'tool output: 2 MB of base64', place: 'tool-output', kind: 'base64', chars: 2 * MB },
  { name: 'tool output: 1 MB of emoji, flags and combining marks', place: 'tool-output', kind: 'emoji', chars: MB },
];

function text(kind: AdversarialCase['kind'], chars: number): string {
  if (kind === 'one-char') return 'a'.repeat(chars);
  if (kind === 'punctuation') return '.-_/'.repeat(Math.ceil(chars / 4)).slice(0, chars);
  return payloadText(kind, chars, 7);
}

/**
 * One case: a small turn, the adversarial turn, then two more turns, so the
 * string is measured, shrunk, kept in history, and summarized away.
 */
export async function runAdversarialCase(testCase: AdversarialCase): Promise<AdversarialResult> {
  const payload = text(testCase.kind, testCase.chars);
  let toolPayload = '';
  const h = await faultHarness({
    window: 32_000,
    toolResult: () => ({ output: toolPayload }),
    script: ({ request, index }) => {
      const last = request.contents[request.contents.length - 1];
      const wantsTool = testCase.place === 'tool-output' && (last?.parts?.[0]?.text ?? '').startsWith('Fetch');
      if (wantsTool)
        return { content: { role: 'model', parts: [{ functionCall: { name: 'fetch', args: { size: 1 } } }] } };
      return { content: { role: 'model', parts: [{ text: `Answer ${index}.` }] } };
    },
  });
  const started = Date.now();
  const thrown: string[] = [];
  const errorCodes: string[] = [];
  const messages = [
    'Hello, a first small question.',
    testCase.place === 'user-message' ? `Read this: ${payload}` : 'Fetch the export.',
    'What did it say?',
    'Thanks, and now?',
  ];
  if (testCase.place === 'tool-output') toolPayload = payload;
  for (const message of messages) {
    const outcome = await h.turn(message);
    if (outcome.thrown) thrown.push(outcome.thrown.slice(0, 300));
    errorCodes.push(...outcome.errorCodes);
  }
  return {
    name: testCase.name,
    ms: Date.now() - started,
    thrown,
    errorCodes,
    overWindow: h.overWindow().length,
    shapeProblems: h.shapeProblems(),
    errorLogs: h.logger.atOrAbove('error').map((line) => line.message.slice(0, 300)),
    compactions: h.records.length,
  };
}

const invokedDirectly = process.argv[1]?.endsWith('adversarial-child.ts') ?? false;
if (invokedDirectly) {
  setLogLevel(LogLevel.ERROR);
  for (const name of process.argv.slice(2)) {
    const testCase = ADVERSARIAL_CASES.find((candidate) => candidate.name === name);
    if (!testCase) throw new Error(`unknown case: ${name}`);
    const result = await runAdversarialCase(testCase);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
}
