// Builds ESM (dist/esm), CommonJS (dist/cjs) and type declarations (dist/types),
// the same layout @google/adk ships. dist/cjs gets its own package.json so Node
// reads its .js files as CommonJS inside this "type": "module" package.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
const tsc = (project) =>
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], { stdio: 'inherit' });
tsc('tsconfig.build.json');
tsc('tsconfig.cjs.json');
mkdirSync('dist/cjs', { recursive: true });
writeFileSync('dist/cjs/package.json', JSON.stringify({ type: 'commonjs' }, null, 2) + '\n');
console.log('built dist/esm, dist/cjs and dist/types');
