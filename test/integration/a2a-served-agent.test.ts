/**
 * A guarded agent served over A2A (ADK's `toA2a`, express on 127.0.0.1) and called from another app
 * through ADK's `RemoteA2AAgent`, both in this process with real Runners. ADK 2.0.0's client makes the
 * event's `customMetadata` the object the server sent and adds `a2a:response`, the response holding
 * that same object: a cycle, and the runner's `JSON.stringify` of the session's events throws on the
 * next turn. The guard's call records were such metadata on every response; they also reached the
 * client's session, whose `status()` then counted the server's calls.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BasePlugin,
  DatabaseSessionService,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type BaseSessionService,
  type Event,
  type LlmResponse,
} from '@google/adk';
import { RemoteA2AAgent, toA2a } from '@google/adk/a2a';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { CALL_METADATA_KEY } from '../../src/records/call-record.js';
import { CapturingLogger, ratioTokenCounter, ScriptedLlm } from '../../src/testing/index.js';
import { fetchLogsTool, toolThenAnswerScript, userMessage } from '../support/agent-harness.js';

const WINDOW = 8_000;
const TURNS = 3;
const USERS = ['user-a', 'user-b'];

/** A plugin that is not the guard and sets `customMetadata`, as any app's plugin may. */
class TagResponses extends BasePlugin {
  constructor() {
    super('tag-responses');
  }
  override async afterModelCallback({ llmResponse }: { llmResponse: LlmResponse }): Promise<undefined> {
    llmResponse.customMetadata = { ...(llmResponse.customMetadata ?? {}), team: 'analysts' };
    return undefined;
  }
}

interface Sides {
  readonly server: BasePlugin[];
  /** A guard on the served agent itself (`attachTo`), where no plugin hook sees its events. */
  readonly attached?: ContextGuard;
  readonly client: ContextGuard | undefined;
  /** The server's session service (in memory by default). */
  readonly serverStore?: BaseSessionService;
}

const folder = mkdtempSync(join(tmpdir(), 'context-guard-a2a-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  servers = [];
});

async function servedAnalyst(sides: Sides) {
  const { server: plugins, attached } = sides;
  const model = new ScriptedLlm({
    window: WINDOW,
    countTokens: ratioTokenCounter(2),
    script: toolThenAnswerScript(1_500),
  });
  const agent = new LlmAgent({ name: 'analyst', description: 'Analyses logs', model, tools: [fetchLogsTool()] });
  attached?.attachTo(agent);
  const sessionService = sides.serverStore ?? new InMemorySessionService();
  const runner = new Runner({ appName: 'analyst-app', agent, sessionService, plugins });
  const server = createServer();
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const app = await toA2a(agent, { runner, host: '127.0.0.1', port, allowUnauthenticated: true });
  server.on('request', app as unknown as RequestListener);
  return { model, runner, sessionService, url: `http://127.0.0.1:${port}` };
}

function boss(url: string, client: ContextGuard | undefined) {
  const transfer = () => ({
    content: {
      role: 'model',
      parts: [{ functionCall: { name: 'transfer_to_agent', args: { agentName: 'analyst' } } }],
    },
  });
  const model = new ScriptedLlm({ window: WINDOW, countTokens: ratioTokenCounter(2), script: transfer });
  const remote = new RemoteA2AAgent({ name: 'analyst', description: 'Remote analyst', agentCard: url });
  const agent = new LlmAgent({
    name: 'boss',
    model,
    instruction: 'Hand analyses to the analyst.',
    subAgents: [remote],
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'boss-app', agent, sessionService, plugins: client ? [client] : [] });
  return { model, runner, sessionService };
}

/** Runs TURNS turns for each user; returns every client event (an exception fails the test). */
async function runClient(runner: Runner, sessionIds: Map<string, string>): Promise<Event[]> {
  const events: Event[] = [];
  for (let turn = 1; turn <= TURNS; turn++)
    for (const [userId, sessionId] of sessionIds)
      for await (const event of runner.runAsync({ userId, sessionId, newMessage: userMessage(`Turn ${turn}: check.`) }))
        events.push(event);
  return events;
}

async function scenario(sides: Sides) {
  const served = await servedAnalyst(sides);
  const client = boss(served.url, sides.client);
  const sessionIds = new Map<string, string>();
  for (const userId of USERS)
    sessionIds.set(userId, (await client.sessionService.createSession({ appName: 'boss-app', userId })).id);
  const events = await runClient(client.runner, sessionIds);
  const sessions = await Promise.all(
    [...sessionIds].map(async ([userId, sessionId]) =>
      client.sessionService.getSession({ appName: 'boss-app', userId, sessionId }),
    ),
  );
  return { served, client, events, sessions: sessions.filter((session) => session !== undefined) };
}

function errorsOf(events: readonly Event[]): string[] {
  return events.flatMap((event) =>
    event.errorCode || event.errorMessage ? [`${event.errorCode} ${event.errorMessage}`] : [],
  );
}

/** The server guard's status summed over every session the A2A executor made. */
async function serverCalls(guard: ContextGuard, sessionService: BaseSessionService): Promise<number> {
  let calls = 0;
  const { sessions } = await sessionService.listSessions({ appName: 'analyst-app' });
  for (const listed of sessions) {
    const ref = { appName: 'analyst-app', userId: listed.userId, sessionId: listed.id };
    const session = await sessionService.getSession(ref);
    if (session) calls += guard.status(session, 'analyst').modelCalls;
  }
  return calls;
}

describe('a guarded agent behind ADK A2A', () => {
  it('served with the guard, called by an app without one: every turn answers, no error', async () => {
    const guard = new ContextGuard({ contextWindow: WINDOW });
    const { served, events, sessions } = await scenario({ server: [guard], client: undefined });
    expect(errorsOf(events)).toEqual([]);
    expect(sessions).toHaveLength(USERS.length);
    // Each turn reached the analyst (a call, then an answer) and its answer came back.
    expect(served.model.requests.length).toBe(USERS.length * TURNS * 2);
    expect(events.filter((event) => event.author === 'analyst' && event.content?.parts?.[0]?.text)).toHaveLength(
      USERS.length * TURNS,
    );
    // The server's own records stay in its sessions: its status counts every call its model got.
    expect(await serverCalls(guard, served.sessionService)).toBe(served.model.requests.length);
  });

  it('served with the guard on a database session service: no error, the records stored on the server', async () => {
    const store = new DatabaseSessionService(`sqlite://${join(folder, 'served.db')}`);
    await store.init();
    const guard = new ContextGuard({ contextWindow: WINDOW });
    const { served, events } = await scenario({ server: [guard], client: undefined, serverStore: store });
    expect(errorsOf(events)).toEqual([]);
    expect(served.model.requests.length).toBe(USERS.length * TURNS * 2);
    expect(await serverCalls(guard, store)).toBe(served.model.requests.length);
  });

  it('guarded on both sides: the client counts only its own calls, the server only its own', async () => {
    const serverGuard = new ContextGuard({ contextWindow: WINDOW });
    const clientGuard = new ContextGuard({ contextWindow: WINDOW });
    const { served, client, events, sessions } = await scenario({ server: [serverGuard], client: clientGuard });
    expect(errorsOf(events)).toEqual([]);
    const statuses = sessions.flatMap((session) => clientGuard.status(session));
    expect(statuses.map((status) => status.agentName)).toEqual(USERS.map(() => 'boss'));
    expect(statuses.reduce((sum, status) => sum + status.modelCalls, 0)).toBe(client.model.requests.length);
    expect(statuses.reduce((sum, status) => sum + status.promptTokens, 0)).toBe(
      client.model.requests.reduce((sum, request) => sum + request.promptTokens, 0),
    );
    expect(await serverCalls(serverGuard, served.sessionService)).toBe(served.model.requests.length);
  });

  it("guarded client, server with another plugin's metadata: no error, and that metadata is kept", async () => {
    const clientGuard = new ContextGuard({ contextWindow: WINDOW });
    const { events, sessions } = await scenario({ server: [new TagResponses()], client: clientGuard });
    expect(errorsOf(events)).toEqual([]);
    const answers = sessions.flatMap((session) =>
      session.events.filter((event) => event.author === 'analyst' && event.content?.parts?.[0]?.text),
    );
    expect(answers).toHaveLength(USERS.length * TURNS);
    for (const answer of answers) {
      expect(answer.customMetadata?.['team']).toBe('analysts');
      expect(() => JSON.stringify(answer)).not.toThrow();
    }
  });

  it("the server guard's records that do reach the client (guard attached to the served agent) are not the client's calls", async () => {
    const serverGuard = new ContextGuard({ contextWindow: WINDOW });
    const clientGuard = new ContextGuard({ contextWindow: WINDOW });
    const { served, client, events, sessions } = await scenario({
      server: [],
      attached: serverGuard,
      client: clientGuard,
    });
    expect(errorsOf(events)).toEqual([]);
    // The records came along (kept on the client's events, as ADK stored them) ...
    const carried = sessions.flatMap((session) =>
      session.events.filter((event) => event.author === 'analyst' && event.customMetadata?.[CALL_METADATA_KEY]),
    );
    expect(carried).toHaveLength(served.model.requests.length);
    // ... and count nowhere but on the server.
    const statuses = sessions.flatMap((session) => clientGuard.status(session));
    expect(statuses.map((status) => status.agentName)).toEqual(USERS.map(() => 'boss'));
    expect(statuses.reduce((sum, status) => sum + status.modelCalls, 0)).toBe(client.model.requests.length);
    expect(await serverCalls(serverGuard, served.sessionService)).toBe(served.model.requests.length);
  });

  it('a served run whose store refuses the records event: the records stay on the answer, a warning, no error', async () => {
    const logger = new CapturingLogger();
    const serverGuard = new ContextGuard({ contextWindow: WINDOW, logger });
    const clientGuard = new ContextGuard({ contextWindow: WINDOW });
    const store = new RecordsRefusingStore();
    const { served, events } = await scenario({ server: [serverGuard], client: clientGuard, serverStore: store });
    expect(errorsOf(events)).toEqual([]);
    expect(store.refused).toBe(served.model.requests.length);
    expect(logger.matching(/could not prepare an A2A event/)).toHaveLength(served.model.requests.length);
    expect(await serverCalls(serverGuard, store)).toBe(served.model.requests.length);
  });
});

/** A store that refuses every event without content that carries a call record (the moved records). */
class RecordsRefusingStore extends InMemorySessionService {
  refused = 0;
  override async appendEvent(params: Parameters<InMemorySessionService['appendEvent']>[0]): Promise<Event> {
    if (!params.event.content && params.event.customMetadata?.[CALL_METADATA_KEY]) {
      this.refused++;
      throw new Error('store unavailable');
    }
    return super.appendEvent(params);
  }
}
