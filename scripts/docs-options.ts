/**
 * `npm run docs:options`: rewrites the options tables of README.md and docs/ from the option table
 * (src/config/option-table.ts). With `--check`, changes nothing and exits 1 when a table drifted.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { OPTION_DOCS, rewriteOptionTables } from './option-docs.js';

const check = process.argv.includes('--check');
const drifted: string[] = [];
for (const [file, tables] of Object.entries(OPTION_DOCS)) {
  const path = new URL(`../${file}`, import.meta.url);
  const current = readFileSync(path, 'utf8');
  const written = rewriteOptionTables(current, tables);
  if (written === current) continue;
  drifted.push(file);
  if (!check) writeFileSync(path, written);
}
if (check && drifted.length > 0) {
  console.error(`options tables out of date in ${drifted.join(', ')}: run npm run docs:options`);
  process.exitCode = 1;
} else {
  console.log(
    drifted.length === 0 ? 'options tables up to date' : `rewrote the options tables of ${drifted.join(', ')}`,
  );
}
