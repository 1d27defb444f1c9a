/**
 * `npx tsx scripts/preparation-cost.ts [window] [turns] [kb] [options-json]`: what background compaction costs on
 * one tool-heavy session (docs/reliability.md "Background compaction", the fifteenth outside trial): a real
 * Runner, a scripted model that fetches `kb` KB of logs each turn and writes the summaries itself (the default
 * summarizer), the guard with `options-json` over `contextWindow`. Prints the compactions, summarizer calls and
 * cost; run it with and without `"prepareTurnsAhead":0`. Summaries are prepared in the background, so a run can
 * differ from the next by a prepared call that finishes after the session's last turn.
 */
import { InMemorySessionService, Runner } from '@google/adk';
import { ContextGuard, type ContextGuardOptions } from '../src/index.js';
import { pageReaderAgent } from '../test/support/page-reader-agent.js';

const [windowArg, turnsArg, kbArg, optionsArg] = process.argv.slice(2);
const window = Number(windowArg ?? 8_000);
const turns = Number(turnsArg ?? 40);
const kb = Number(kbArg ?? 4);
const options = JSON.parse(optionsArg ?? '{"maskKeepRecent":0}') as ContextGuardOptions;

const { agent } = pageReaderAgent(window, kb);
const guard = new ContextGuard({
  contextWindow: window,
  logger: { debug() {}, info() {}, warn() {}, error() {} },
  ...options,
});
const sessionService = new InMemorySessionService();
const runner = new Runner({ appName: 'app', agent, sessionService, plugins: [guard] });
const { id } = await sessionService.createSession({ appName: 'app', userId: 'user' });
for (let turn = 1; turn <= turns; turn++) {
  const newMessage = { role: 'user', parts: [{ text: `Turn ${turn}: fetch the next page.` }] };
  for await (const event of runner.runAsync({ userId: 'user', sessionId: id, newMessage }))
    if (event.errorCode) console.error(`turn ${turn}: ${event.errorCode}`);
}
const session = await sessionService.getSession({ appName: 'app', userId: 'user', sessionId: id });
const status = guard.status(session, 'worker');
console.log(
  JSON.stringify({
    options,
    compactions: status.compactions,
    summarizerCalls: status.summarizerCalls,
    costUsd: status.costUsd,
  }),
);
process.exit(0);
