import { runSmallInputs, runWorstCase } from './worst-case.js';
const small = await runSmallInputs();
for (const r of small) console.log(r.input.padEnd(45), r.ms, 'ms', r.msPerMb, 'ms/MB');
const worst = await runWorstCase();
for (const r of worst) console.log(r.input.padEnd(40), r.tokenizerMs, r.textPartMs, r.toolResultMs, r.msPerMb, 'ms/MB', JSON.stringify(r.toolResultParts ?? ''));
