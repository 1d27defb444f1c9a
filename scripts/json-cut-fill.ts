/**
 * `ROOT=<tree> npx tsx scripts/json-cut-fill.ts`: how much of its 10 KiB budget the tool-output cut keeps on
 * the shapes of the twelfth outside trial, in the tree at ROOT (this checkout by default), one JSON line
 * per shape: a load_memory result (79 memories, long reports between short questions, as its
 * repro/r6-json-cut-underfills.ts) and a load_skill result (a 400-line text beside a PNG as a Buffer's bytes);
 * then a digest of the cuts of the simulator's payloads (`toolResult`), equal in two trees that cut them alike.
 * Run it in the commit before a change (a `git worktree`) and after: the figures of docs/truncation.md.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const root = process.env['ROOT'] ?? fileURLToPath(new URL('..', import.meta.url));
type Truncate = (input: { tool: string; result: Record<string, unknown> }) => { result: unknown } | undefined;
const { truncateToolOutput } = (await import(`${root}/src/truncation/truncate-tool-output.ts`)) as {
  truncateToolOutput: Truncate;
};
const { toolResult } = (await import(`${root}/src/testing/payloads.ts`)) as {
  toolResult: (shape: string, size: number, seed: number) => Record<string, unknown>;
};

/** A clerk's report: 14 log lines of about 110 characters. */
function report(item: number): string {
  return Array.from(
    { length: 14 },
    (_, line) =>
      `2026-12-04T10:${String(line).padStart(2, '0')}:00Z host-${item} order parcel shipped late, invoice ${item * 100 + line} checked by the clerk`,
  ).join('\n');
}

const memories = Array.from({ length: 79 }, (_, item) =>
  item % 2 === 0
    ? { content: `question ${item} about an order`, author: 'user', timestamp: '2026-12-05T20:34:25.260Z' }
    : {
        content: `Report on the order question: ${report(item)}`,
        author: 'clerk',
        timestamp: '2026-12-05T20:34:25.261Z',
      },
);
const png = Array.from({ length: 3_000 }, (_, index) => (index * 37) % 256);
const readme = Array.from({ length: 400 }, (_, index) => `line ${index + 1}${'.'.repeat(40)}`).join('\n');
const shapes: Record<string, Record<string, unknown>> = {
  load_memory: { memories },
  load_skill: { readme, logo: { type: 'Buffer', data: png } },
};

for (const [tool, result] of Object.entries(shapes)) {
  const cut = JSON.stringify(truncateToolOutput({ tool, result })?.result);
  const kept = JSON.parse(cut) as { memories?: unknown[]; readme?: string; logo?: unknown };
  console.log(
    JSON.stringify({
      tool,
      inputBytes: Buffer.byteLength(JSON.stringify(result)),
      keptBytes: Buffer.byteLength(cut),
      emptiedObjects: (cut.match(/omitted (\d+) of \1 keys/g) ?? []).length,
      ...(kept.memories ? { memoriesKept: kept.memories.filter((item) => typeof item === 'object').length } : {}),
      ...(kept.readme === undefined ? {} : { readmeLines: kept.readme.split('\n').length }),
      ...(kept.logo === undefined ? {} : { logoBytes: JSON.stringify(kept.logo).length }),
    }),
  );
}

const digest = createHash('sha256');
let cuts = 0;
for (const shape of ['json', 'logs', 'code', 'prose', 'image'])
  for (const size of [8_192, 10_240, 15_360, 20_480, 30_720, 81_920])
    for (let seed = 0; seed < 20; seed += 1) {
      const cut = truncateToolOutput({ tool: 't', result: toolResult(shape, size, seed) });
      if (cut) cuts += 1;
      digest.update(JSON.stringify(cut?.result ?? null));
    }
console.log(JSON.stringify({ simulatorPayloads: 600, cut: cuts, digest: digest.digest('hex').slice(0, 16) }));
