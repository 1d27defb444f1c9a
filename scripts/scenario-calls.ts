/**
 * `npx tsx scripts/scenario-calls.ts <scenario> [strategy ...]`: every model call of one simulator
 * scenario under the given strategies (all by default), one line each: turn, step, prompt tokens, of
 * them cached and uncached, the request as ADK built it, M when the guard masked, C when it
 * compacted, the watermark after. What the cost figures of docs/design.md are read from, call by call.
 * The held-out runs (`8k_HeldOut_<run>`, docs/simulator.md) are found by name too.
 */
import { runScenario } from '../simulator/run-scenario.js';
import { ALL_SCENARIOS } from '../simulator/scenarios/index.js';
import { heldOutReplays } from '../simulator/scenarios/replays.js';
import { STRATEGIES } from '../simulator/strategies.js';

const [name, ...wanted] = process.argv.slice(2);
const heldOutSet = /_HeldOut([23]?)_/.exec(name ?? '')?.[1];
const heldOut = heldOutSet === undefined ? [] : heldOutReplays(heldOutSet === '' ? 1 : (Number(heldOutSet) as 2 | 3));
const spec = [...ALL_SCENARIOS, ...heldOut].find((scenario) => scenario.name === name);
if (!spec) {
  console.error(
    `usage: npx tsx scripts/scenario-calls.ts <scenario> [strategy ...]; no scenario named ${String(name)}`,
  );
  process.exit(2);
}
console.log(['turn', 'step', 'prompt', 'cached', 'uncached', 'raw', 'masked', 'compacted', 'watermark'].join('\t'));
for (const strategy of STRATEGIES.filter((each) => wanted.length === 0 || wanted.includes(each.name))) {
  const result = await runScenario(spec, strategy);
  console.log(
    `== ${strategy.name}: $${result.costUsd.toFixed(5)}, ${result.uncachedPromptTokens} uncached and ` +
      `${result.cachedPromptTokens} cached prompt tokens, ${result.calls.length} calls`,
  );
  for (const call of result.calls)
    console.log(
      [
        call.turn,
        call.step,
        call.promptTokens,
        call.cachedPromptTokens,
        call.promptTokens - call.cachedPromptTokens,
        call.rawTokens,
        call.masked ? 'M' : '',
        call.compacted ? 'C' : '',
        call.watermarkAfter,
      ].join('\t'),
    );
}
process.exit(0);
