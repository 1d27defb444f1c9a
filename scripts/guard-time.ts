/**
 * `ROOT=<tree> npx tsx scripts/guard-time.ts masked-history|steady|worst-case [--profile FILE]`: one
 * section of `npm run bench` alone, in the tree at ROOT (this checkout by default), printed as one JSON
 * line with the load average. Run it alternately in two trees (the commit before a change in a
 * `git worktree`, and the change) to compare them under the same load: the paired figures of
 * docs/performance.md. With `--profile`, the V8 profiler (100 µs sampling) records the masked
 * history's measured turns into FILE (a `.cpuprofile` for Chrome's DevTools or a script of your own).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = process.env['ROOT'] ?? fileURLToPath(new URL('..', import.meta.url));
const [section, flag, profileFile] = process.argv.slice(2);
const load = (): number => Math.round(loadavg()[0]! * 100) / 100;

/** Starts and stops the profiler around the measured turns, when asked. */
async function profiler(): Promise<{ before(): Promise<void>; after(): Promise<void> } | undefined> {
  if (flag !== '--profile' || !profileFile) return undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  return {
    before: async () => void (await session.post('Profiler.start')),
    after: async () => writeFileSync(profileFile, JSON.stringify((await session.post('Profiler.stop')).profile)),
  };
}

if (section === 'masked-history') {
  const { runMaskedHistory } = (await import(
    `${root}/bench/masked-history.ts`
  )) as typeof import('../bench/masked-history.js');
  const around = await profiler();
  const result = await runMaskedHistory(around ? { aroundMeasured: around } : {});
  const { guardMs, guardCpuMs, maskedContents, calls, coldReplicaMs } = result;
  console.log(
    JSON.stringify({
      root,
      section,
      median: guardMs.median,
      p95: guardMs.p95,
      cpu: guardCpuMs.median,
      maskedContents,
      calls,
      coldReplicaMs,
      load: load(),
    }),
  );
} else if (section === 'steady') {
  const { runSteadyState } = (await import(`${root}/bench/steady.ts`)) as typeof import('../bench/steady.js');
  const result = await runSteadyState({ checkpoints: [10_000, 1_000_000] });
  console.log(JSON.stringify({ root, section, checkpoints: result.checkpoints, load: load() }));
} else if (section === 'worst-case') {
  const { runWorstCase } = (await import(`${root}/bench/worst-case.ts`)) as typeof import('../bench/worst-case.js');
  for (const row of await runWorstCase()) console.log(JSON.stringify({ root, section, ...row, load: load() }));
} else {
  console.error('usage: ROOT=<tree> npx tsx scripts/guard-time.ts masked-history|steady|worst-case [--profile FILE]');
  process.exit(2);
}
process.exit(0);
