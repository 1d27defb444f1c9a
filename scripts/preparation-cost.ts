/**
 * `npx tsx scripts/preparation-cost.ts [window] [turns] [kb] [options-json]`: what background compaction costs on
 * one tool-heavy session (docs/reliability.md "Background compaction", the fifteenth outside trial): a real
 * Runner, a scripted model that fetches `kb` KB of logs each turn and writes the summaries itself (the default
 * summarizer), the guard with `options-json` over `contextWindow`. Prints the compactions, summarizer calls and
 * cost; run it with and without `"prepareTurnsAhead":0`. Summaries are prepared in the background, so a run can
 * differ from the next by a prepared call that finishes after the session's last turn.
 */
import { FunctionTool, InMemorySessionService, LlmAgent, Runner } from '@google/adk';
import { ContextGuard, type ContextGuardOptions } from '../src/index.js';
import { contentsText, logText, ratioTokenCounter, ScriptedLlm, scriptedSummaryText } from '../src/testing/index.js';

const [windowArg, turnsArg, kbArg, optionsArg] = process.argv.slice(2);
const window = Number(windowArg ?? 8_000);
const turns = Number(turnsArg ?? 40);
const kb = Number(kbArg ?? 4);
const options = JSON.parse(optionsArg ?? '{"maskKeepRecent":0}') as ContextGuardOptions;

const model = new ScriptedLlm({
  model: 'gemini-2.5-flash',
  window,
  countTokens: ratioTokenCounter(1.3),
  script: ({ request, index }) => {
    const summary = String(request.config?.toolConfig?.functionCallingConfig?.mode ?? '') === 'NONE';
    if (summary || (request.config?.tools ?? []).length === 0) {
      const text = scriptedSummaryText(contentsText(request.contents), request.config?.maxOutputTokens ?? 1_024);
      return { content: { role: 'model', parts: [{ text }] } };
    }
    if (request.contents.at(-1)?.parts?.some((part) => part.functionResponse))
      return { content: { role: 'model', parts: [{ text: `Answer ${index}.` }] } };
    return { content: { role: 'model', parts: [{ functionCall: { name: 'fetch_logs', args: { page: index } } }] } };
  },
});
const fetchLogs = new FunctionTool({
  name: 'fetch_logs',
  description: 'Returns a page of logs.',
  parameters: { type: 'OBJECT', properties: { page: { type: 'INTEGER' } } } as never,
  execute: (input: unknown) => ({ logs: logText(kb * 1_024, (input as { page: number }).page) }),
});
const agent = new LlmAgent({ name: 'worker', model, instruction: 'You read logs.', tools: [fetchLogs] });
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
