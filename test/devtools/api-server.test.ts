/**
 * The ADK devtools CLI end to end: the real `adk api_server` (from
 * @google/adk-devtools) serves test/devtools/agents on 127.0.0.1, bundling each
 * agent file with esbuild as it does for users. Each folder exports an `App`:
 * `guarded` with `plugins: [guard]`, `unguarded` without. Both run the same 30
 * tool-heavy turns over HTTP against a model that rejects requests over 8k
 * tokens; the unguarded control shows the conversation overflows, the guarded
 * App must answer every turn and show its compaction in session state.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(
  new URL('../../node_modules/@google/adk-devtools/dist/esm/cli_entrypoint.js', import.meta.url),
);
const AGENTS_DIR = fileURLToPath(new URL('./agents', import.meta.url));
const USER = 'devtools-user';
const TURNS = 30;

interface HttpEvent {
  author?: string;
  errorCode?: string;
  errorMessage?: string;
  content?: { parts?: Array<{ text?: string }> };
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP port assigned');
  return address.port;
}

let server: ChildProcess | undefined;
let output = '';
let base = '';

/** Polls /list-apps until both apps are loaded (the first call bundles the agent files). */
async function waitForApps(apps: string[], deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null) throw new Error(`adk api_server exited (${server?.exitCode}):\n${output}`);
    try {
      const listed = (await (await fetch(`${base}/list-apps`)).json()) as string[];
      if (apps.every((app) => listed.includes(app))) return;
      throw new Error(`apps listed: ${JSON.stringify(listed)}\n${output}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('apps listed')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  throw new Error(`adk api_server did not answer on ${base} in time:\n${output}`);
}

async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: HTTP ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** Creates a session over HTTP and runs the turns through POST /run; returns the error events and the last answers. */
async function converse(appName: string): Promise<{ sessionId: string; errors: string[]; answered: number }> {
  const session = await post<{ id: string }>(`/apps/${appName}/users/${USER}/sessions`, {});
  const errors: string[] = [];
  let answered = 0;
  for (let turn = 1; turn <= TURNS; turn++) {
    const newMessage = { role: 'user', parts: [{ text: `Turn ${turn}: fetch the logs and tell me what you see.` }] };
    const events = await post<HttpEvent[]>('/run', { appName, userId: USER, sessionId: session.id, newMessage });
    for (const event of events)
      if (event.errorCode) errors.push(`turn ${turn}: ${event.errorCode} ${event.errorMessage ?? ''}`.slice(0, 200));
    const last = events[events.length - 1];
    if (last?.author === 'worker' && last.content?.parts?.[0]?.text?.startsWith('Analysis')) answered++;
  }
  return { sessionId: session.id, errors, answered };
}

describe('adk api_server (devtools CLI) with an App that has plugins: [guard]', () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // In-memory sessions whatever DATABASE_URL says, and no OTLP exporter: nothing leaves localhost.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL' && !name.startsWith('OTEL_EXPORTER_OTLP')),
    );
    const args = [
      CLI,
      'api_server',
      AGENTS_DIR,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--session_service_uri',
      'memory://',
      '--log_level',
      'warn',
    ];
    // The CLI reads a .env file from its working directory; this folder has none.
    server = spawn(process.execPath, args, {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForApps(['guarded', 'unguarded'], 240_000);
  }, 300_000);

  afterAll(async () => {
    if (!server || server.exitCode !== null) return;
    const exited = once(server, 'exit');
    server.kill('SIGINT'); // the CLI cleans its bundles up on SIGINT
    const timer = setTimeout(() => server?.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }, 30_000);

  it('should see the model reject the same 30 turns when the App has no guard', async () => {
    const { errors } = await converse('unguarded');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((error) => error.includes(' 400 '))).toBe(true);
  }, 240_000);

  it('should answer all 30 turns with none rejected, compacting along the way', async () => {
    const { sessionId, errors, answered } = await converse('guarded');
    expect(errors).toEqual([]);
    expect(answered).toBe(TURNS);
    const session = (await (await fetch(`${base}/apps/guarded/users/${USER}/sessions/${sessionId}`)).json()) as {
      state: Record<string, unknown>;
    };
    const summary = session.state['context_guard:worker:summary'] as { compactions?: number } | undefined;
    expect(summary?.compactions).toBeGreaterThan(0);
    expect(session.state['context_guard:worker:last_compaction']).toBeDefined();
  }, 240_000);
});
