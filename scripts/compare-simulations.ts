/**
 * `npx tsx scripts/compare-simulations.ts BEFORE.json AFTER.json [strategy]`: the rows of two
 * `npm run simulate -- --json` files that differ in any field but their durations, with the cost,
 * overflow, compaction, masking, summarizer and pass figures of each; with a strategy, only the rows
 * whose strategy name contains it. How a change is shown to leave the bytes sent alone (no guard row
 * differs) or to move exactly the rows its docs name.
 */
import { readFileSync } from 'node:fs';

type Row = Record<string, unknown> & { readonly name: string; readonly strategy: string };

const IGNORED = new Set(['durationMs', 'summaryWaitMs']);
const SHOWN = ['costUsd', 'overflows', 'compactions', 'maskings', 'summarizerCalls', 'uncachedPromptTokens', 'passed'];

function rows(file: string): Map<string, Row> {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { scenarios: Row[] };
  return new Map(parsed.scenarios.map((row) => [`${row.name} · ${row.strategy}`, row]));
}

const [beforeFile, afterFile, filter] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error('usage: npx tsx scripts/compare-simulations.ts BEFORE.json AFTER.json [strategy]');
  process.exit(2);
}
const before = rows(beforeFile);
const after = rows(afterFile);
let differing = 0;
for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
  const a = before.get(key);
  const b = after.get(key);
  const fields = [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].filter(
    (field) => !IGNORED.has(field),
  );
  const changed = a && b ? fields.filter((field) => JSON.stringify(a[field]) !== JSON.stringify(b[field])) : ['row'];
  if (changed.length === 0) continue;
  differing++;
  if (filter && !key.split(' · ')[1]?.includes(filter)) continue;
  if (!a || !b) console.log(`${key}: only in ${a ? beforeFile : afterFile}`);
  else {
    const shown = SHOWN.filter((field) => changed.includes(field)).map(
      (field) => `${field} ${String(a[field])} -> ${String(b[field])}`,
    );
    console.log(`${key}: ${shown.length > 0 ? shown.join(', ') : `differs in ${changed.join(', ')}`}`);
  }
}
console.log(`rows ${before.size} and ${after.size}, ${differing} differing`);
