/**
 * A user message of many small parts (a paste split into 20,000 text parts)
 * on a 32k window, through a real Runner: the guard's own time in
 * `beforeModelCallback` (measuring, then shrinking the message to fit), the
 * estimate against a provider that counts each text (o200k, no cost per part),
 * and whether the request fits. Part of `npm run bench`; run it alone with
 * `npx tsx bench/many-parts.ts`.
 */
import { LogLevel, setLogLevel } from '@google/adk';
import { pathToFileURL } from 'node:url';
import { tiktokenTokenizer } from '../src/index.js';
import { requestPayload } from '../src/testing/index.js';
import { gcFunction } from './lib/heap.js';
import { APP_NAME, USER_ID, createBenchAgent, quietLogger, TimedGuard } from './lib/harness.js';
import { ms, round, summarize, table } from './lib/stats.js';

export interface ManyPartsRow {
  readonly parts: number;
  /** Guard time per call (wall), median and slowest of the samples. */
  readonly medianMs: number;
  readonly maxMs: number;
  /** Process CPU time of the same callbacks, median. */
  readonly medianCpuMs: number;
  /** Provider count / the guard's estimate of what it sent (the provider counts each text, no per-part cost). */
  readonly truthOverEstimate: number;
  readonly promptTokens: number;
  readonly window: number;
  readonly rejected: boolean;
}

const WINDOW = 32_000;
const SAMPLES = 5;

/** Provider count of a request: o200k tokens of every text it carries, nothing per part. */
function textCount(request: Parameters<typeof requestPayload>[0]): number {
  let tokens = 0;
  for (const text of requestPayload(request).texts) tokens += tiktokenTokenizer.count(text);
  return tokens;
}

async function sampleOnce(
  parts: number,
  seed: number,
): Promise<{ ms: number; cpuMs: number; truthOverEstimate: number; promptTokens: number; rejected: boolean }> {
  const guard = new TimedGuard({ contextWindow: WINDOW, logger: quietLogger() }, () => undefined);
  const bench = createBenchAgent({ window: WINDOW, countTokens: textCount, plugins: [guard] });
  bench.driver.start({ tools: [], answerChars: 80, seed });
  const session = await bench.sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  const message = { role: 'user', parts: Array.from({ length: parts }, (_, i) => ({ text: `row ${i + seed}: ok\n` })) };
  guard.recording = true;
  gcFunction()();
  for await (const event of bench.runner.runAsync({ userId: USER_ID, sessionId: session.id, newMessage: message }))
    void event;
  const sample = guard.samples[0];
  const request = bench.model.requests[0];
  if (!sample || !request) throw new Error('the many-part call was not recorded');
  return {
    ms: sample.beforeMs,
    cpuMs: sample.cpuMs,
    truthOverEstimate: request.promptTokens / (sample.usage.sentEstimate ?? Number.NaN),
    promptTokens: request.promptTokens,
    rejected: request.rejected,
  };
}

/** One row per message size: `SAMPLES` calls after one untimed warm-up. */
export async function runManyParts(sizes: readonly number[] = [5_000, 10_000, 20_000]): Promise<ManyPartsRow[]> {
  await sampleOnce(1_000, 0);
  const rows: ManyPartsRow[] = [];
  for (const parts of sizes) {
    const samples = [];
    for (let seed = 1; seed <= SAMPLES; seed++) samples.push(await sampleOnce(parts, seed));
    const wall = summarize(samples.map((sample) => sample.ms));
    const last = samples[samples.length - 1]!;
    rows.push({
      parts,
      medianMs: wall.median,
      maxMs: wall.max,
      medianCpuMs: summarize(samples.map((sample) => sample.cpuMs)).median,
      truthOverEstimate: round(last.truthOverEstimate),
      promptTokens: last.promptTokens,
      window: WINDOW,
      rejected: samples.some((sample) => sample.rejected),
    });
  }
  return rows;
}

/** The rows as a table. */
export function manyPartsTable(rows: readonly ManyPartsRow[]): string {
  return table([
    [
      'user message',
      'guard median',
      'slowest',
      'CPU median',
      'sent (provider tokens)',
      'provider / estimate',
      'rejected',
    ],
    ...rows.map((row) => [
      `${row.parts.toLocaleString('en')} text parts`,
      ms(row.medianMs),
      ms(row.maxMs),
      ms(row.medianCpuMs),
      `${row.promptTokens.toLocaleString('en')} of ${row.window.toLocaleString('en')}`,
      row.truthOverEstimate.toFixed(3),
      row.rejected ? 'yes' : 'no',
    ]),
  ]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  setLogLevel(LogLevel.ERROR);
  runManyParts()
    .then((rows) => console.log(manyPartsTable(rows)))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
