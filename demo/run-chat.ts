/**
 * An interactive chat with an ADK agent guarded by ContextGuard. After each
 * turn it prints a one-line context meter; `/tokens`, `/status`, `/compact`,
 * `/summary`, `/help` and `/quit` are commands. The streams are parameters so
 * a test can drive it end to end.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { InMemorySessionService, Runner } from '@google/adk';
import { ContextGuard, formatContextMeter } from '../src/index.js';
import { decodeSummaryRecord, stateKeysFor } from '../src/internal.js';
import { createDemoAgent } from './demo-agent.js';

const APP = 'context-guard-demo';
const USER = 'demo-user';
const HELP =
  'Commands: /tokens (context meter), /status (full status), /compact (compact on the next message), /summary (current summary), /quit';

export interface ChatOptions {
  readonly input: Readable;
  readonly output: Writable;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export async function runChat({ input, output, env }: ChatOptions): Promise<void> {
  const print = (line: string): void => void output.write(`${line}\n`);
  const demo = createDemoAgent(env);
  const guard = new ContextGuard({
    ...(demo.window ? { contextWindow: demo.window } : {}),
    ...(demo.summarizer ? { summarizer: demo.summarizer } : {}),
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (...args) => print(`! ${args.join(' ')}`),
      error: (...args) => print(`! ${args.join(' ')}`),
    },
    onCompaction: (record) =>
      print(
        `~ compacted ${record.coveredEvents.count} events: ${record.tokensBefore} -> ${record.tokensAfter} tokens${record.fallback ? ' (fallback summary)' : ''}`,
      ),
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP, agent: demo.agent, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: APP, userId: USER });
  const agentName = demo.agent.name;
  const load = async () => (await sessionService.getSession({ appName: APP, userId: USER, sessionId: session.id }))!;

  print(
    demo.online
      ? 'Connected to Gemini (GOOGLE_API_KEY/GEMINI_API_KEY is set).'
      : `Offline mode: a scripted model with a ${demo.window} token window.`,
  );
  print(HELP);
  const lines = createInterface({ input, terminal: false });
  for await (const raw of lines) {
    const line = raw.trim();
    if (line.length === 0) continue;
    if (line === '/quit' || line === '/exit') break;
    if (line === '/help') {
      print(HELP);
      continue;
    }
    if (line === '/tokens') {
      print(`context: ${formatContextMeter(guard.status(await load(), agentName))}`);
      continue;
    }
    if (line === '/status') {
      const status = guard.status(await load(), agentName);
      print(
        `status: ${JSON.stringify({ ...status, lastCompaction: status.lastCompaction ? { id: status.lastCompaction.id, tokensBefore: status.lastCompaction.tokensBefore, tokensAfter: status.lastCompaction.tokensAfter } : undefined })}`,
      );
      continue;
    }
    if (line === '/compact') {
      await guard.requestCompaction({ sessionService, session: await load(), agentName });
      print('compaction requested: it runs on your next message (the request exists only then).');
      continue;
    }
    if (line === '/summary') {
      const summary = decodeSummaryRecord((await load()).state[stateKeysFor(agentName).summary]);
      print(summary ? `summary (${summary.compactions} compactions):\n${summary.text}` : 'no summary yet');
      continue;
    }
    try {
      for await (const event of runner.runAsync({
        userId: USER,
        sessionId: session.id,
        newMessage: { role: 'user', parts: [{ text: line }] },
      })) {
        for (const part of event.content?.parts ?? []) {
          if (part.text && !part.thought) print(`${event.author}: ${part.text}`);
          if (part.functionCall)
            print(`  [tool] ${part.functionCall.name}(${JSON.stringify(part.functionCall.args ?? {})})`);
        }
        if (event.errorCode) print(`! model error ${event.errorCode}: ${event.errorMessage ?? ''}`);
      }
    } catch (error) {
      print(`! ${error instanceof Error ? error.message : String(error)}`);
    }
    print(`context: ${formatContextMeter(guard.status(await load(), agentName))}`);
  }
  lines.close();
  print('bye');
}
