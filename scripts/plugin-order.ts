/**
 * `npx tsx scripts/plugin-order.ts`: where to register the guard among plugins that add to the request (README,
 * "Plugin order"). A retrieval plugin adds a block of server logs to every request (1,000 characters; 9,000
 * every ninth call, which alone fits the window but not with a full history), at the end or at the start of
 * the contents; the guard is registered before it (`[guard, rag]`) or after it (`[rag, guard]`). 30 tool turns on a strict scripted model with an 8,000-token window (`contextWindow`
 * 8,000): error events, rejected and retried calls, summaries, the prompt tokens of the accepted requests, and
 * the accepted requests that lack the plugin's block. Deterministic: the same figures on every run.
 */
import { BasePlugin, InMemorySessionService, LlmAgent, Runner, type Context, type LlmRequest } from '@google/adk';
import type { Content } from '@google/genai';
import { ContextGuard } from '../src/index.js';
import { CapturingLogger, logText, ScriptedLlm, ScriptedSummarizer, type ModelScript } from '../src/testing/index.js';
import { fetchLogsTool, toolThenAnswerScript, userMessage } from '../test/support/agent-harness.js';
import { proportionalCounter } from '../test/support/proportional-counter.js';

const MARK = 'Retrieved documents';

class RetrievalPlugin extends BasePlugin {
  private calls = 0;
  constructor(private readonly place: 'end' | 'start') {
    super('retrieval');
  }
  override async beforeModelCallback({ llmRequest }: { callbackContext: Context; llmRequest: LlmRequest }) {
    this.calls++;
    const size = this.calls % 9 === 0 ? 9_000 : 1_000;
    const content: Content = { role: 'user', parts: [{ text: `${MARK}:\n${logText(size, this.calls)}` }] };
    if (this.place === 'start') llmRequest.contents.unshift(content);
    else llmRequest.contents.push(content);
    return undefined;
  }
}

const isRetrieved = (content: Content) => !!content.parts?.some((part) => part.text?.startsWith(MARK));

/** The model reads the retrieved block as context, not as the user's turn. */
function ignoringRetrieved(script: ModelScript): ModelScript {
  return (call) =>
    script({ ...call, request: { ...call.request, contents: call.request.contents.filter((c) => !isRetrieved(c)) } });
}

async function run(order: 'guard first' | 'guard last', place: 'end' | 'start') {
  const model = new ScriptedLlm({
    window: 8_000,
    countTokens: proportionalCounter(1.3),
    script: ignoringRetrieved(toolThenAnswerScript(3_000)),
  });
  const summarizer = new ScriptedSummarizer();
  const guard = new ContextGuard({ contextWindow: 8_000, summarizer, logger: new CapturingLogger() });
  const retrieval = new RetrievalPlugin(place);
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You analyse logs.', tools: [fetchLogsTool()] });
  const sessionService = new InMemorySessionService();
  const plugins = order === 'guard first' ? [guard, retrieval] : [retrieval, guard];
  const runner = new Runner({ appName: 'order', agent, sessionService, plugins });
  const session = await sessionService.createSession({ appName: 'order', userId: 'u' });
  let errors = 0;
  for (let turn = 1; turn <= 30; turn++)
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: userMessage(`Turn ${turn}: check the logs.`),
    }))
      if (event.errorCode) errors++;
  const stored = await sessionService.getSession({ appName: 'order', userId: 'u', sessionId: session.id });
  const status = guard.status(stored, 'worker');
  const accepted = model.requests.filter((request) => !request.rejected);
  const row = [
    order,
    place,
    errors,
    model.rejectedRequests.length,
    status.retriedCalls,
    summarizer.calls.length,
    accepted.reduce((sum, request) => sum + request.promptTokens, 0).toLocaleString('en-US'),
    `${accepted.filter((request) => !request.contents.some(isRetrieved)).length} of ${accepted.length}`,
  ];
  console.log(`| ${row.join(' | ')} |`);
}

console.log(
  '| guard | plugin adds at | error events | rejected | retried | summaries | accepted prompt tokens | accepted requests without the block |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const place of ['end', 'start'] as const)
  for (const order of ['guard first', 'guard last'] as const) await run(order, place);
