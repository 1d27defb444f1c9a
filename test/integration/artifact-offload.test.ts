/**
 * Huge tool results offloaded to ADK's artifact service through a real Runner:
 * stored whole, a handle in the context, an exact slice read back by the
 * recall tool, never across sessions or apps (also on ADK's FileArtifactService,
 * which keys by user and session only), today's behaviour without a service or
 * when saving fails, and bounded waits on a service that never answers.
 */
import {
  createEvent,
  FileArtifactService,
  FunctionTool,
  InMemoryArtifactService,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type BaseArtifactService,
  type Event,
  type LlmRequest,
} from '@google/adk';
import type { Content, Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard, contextRecallTool, truncateToolOutput } from '../../src/index.js';
import { ScriptedLlm, ratioTokenCounter, type ModelScript, ScriptedSummarizer } from '../../src/testing/index.js';
import { APP_NAME, userMessage } from '../support/agent-harness.js';
import { CapturingLogger } from '../../src/testing/index.js';
import { OFFLOAD_ARTIFACT_PREFIX } from '../../src/index.js';
import { useTempFolder } from '../support/temp-folder.js';

const artifactFolder = useTempFolder('guard-artifacts-');

/** About 2 MB of distinct lines, so any slice shows where it came from. */
const BIG = Array.from(
  { length: 40_000 },
  (_, row) => `row ${String(row).padStart(6, '0')}: status=ok latency=${(row * 37) % 1000}ms region=eu-${row % 7}`,
).join('\n');
const FULL_JSON = JSON.stringify({ output: BIG });
const SLICE_OFFSET = 1_000_003;
const SLICE_LENGTH = 777;

function bigTool(): FunctionTool {
  return new FunctionTool({
    name: 'fetch_big',
    description: 'Returns a 2 MB log.',
    parameters: { type: 'OBJECT', properties: {} } as never,
    execute: () => ({ output: BIG }),
  });
}

function lastParts(request: LlmRequest): Part[] {
  const contents: Content[] = request.contents ?? [];
  return contents[contents.length - 1]?.parts ?? [];
}

/** The model's call to read the test's slice of `artifact` with the recall tool. */
function readSlice(artifact: string): ReturnType<ModelScript> {
  return {
    content: {
      role: 'model',
      parts: [
        { functionCall: { name: 'recall_history', args: { artifact, offset: SLICE_OFFSET, length: SLICE_LENGTH } } },
      ],
    },
  };
}

/** Fetch, then read a slice of the stored result by its handle; `READ <name>` reads a given artifact. */
const script: ModelScript = ({ request }) => {
  const parts = lastParts(request);
  const response = parts.find((part) => part.functionResponse)?.functionResponse;
  const text = parts.find((part) => typeof part.text === 'string')?.text ?? '';
  if (response?.name === 'fetch_big') {
    const handle = (response.response as { full_result_artifact?: { name: string } }).full_result_artifact;
    if (!handle) return { content: { role: 'model', parts: [{ text: 'No handle.' }] } };
    return readSlice(handle.name);
  }
  if (response) return { content: { role: 'model', parts: [{ text: 'Done.' }] } };
  if (text.startsWith('READ ')) return readSlice(text.slice(5));
  return { content: { role: 'model', parts: [{ functionCall: { name: 'fetch_big', args: {} } }] } };
};

interface WorldOptions {
  readonly appName?: string;
  /** The guard's `artifactTimeoutMs`. */
  readonly artifactTimeoutMs?: number;
  /** The recall tool's `artifactTimeoutMs`. */
  readonly recallTimeoutMs?: number;
  /** `false`: the agent has no recall tool of its own (the guard declares one). @default true */
  readonly ownRecallTool?: boolean;
}

function world(artifactService: BaseArtifactService | undefined, options: WorldOptions = {}) {
  const logger = new CapturingLogger();
  const model = new ScriptedLlm({ window: 200_000, countTokens: ratioTokenCounter(1), script });
  const recall = contextRecallTool({
    logger,
    ...(options.recallTimeoutMs === undefined ? {} : { artifactTimeoutMs: options.recallTimeoutMs }),
  });
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You read logs.',
    tools: options.ownRecallTool === false ? [bigTool()] : [bigTool(), recall],
  });
  const sessionService = new InMemorySessionService();
  const guard = new ContextGuard({
    contextWindow: 200_000,
    summarizer: new ScriptedSummarizer(),
    logger,
    ...(options.artifactTimeoutMs === undefined ? {} : { artifactTimeoutMs: options.artifactTimeoutMs }),
  });
  const runner = new Runner({
    appName: options.appName ?? APP_NAME,
    agent,
    sessionService,
    plugins: [guard],
    ...(artifactService ? { artifactService } : {}),
  });
  return { runner, sessionService, logger, model, guard };
}

/** `work` if it ends within `ms`, else `'still running'` (a hung turn must fail the test, not time it out). */
async function within<T>(ms: number, work: Promise<T>): Promise<T | 'still running'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), ms)));
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
  }
}

async function turn(runner: Runner, userId: string, sessionId: string, text: string): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId, sessionId, newMessage: userMessage(text) })) events.push(event);
  return events;
}

function responseOf(events: readonly Event[], tool: string): Record<string, unknown> | undefined {
  const part = events
    .flatMap((event) => event.content?.parts ?? [])
    .find((candidate) => candidate.functionResponse?.name === tool);
  return part?.functionResponse?.response;
}

describe('offloading huge tool results to the artifact service', () => {
  it('should store a 2 MB result whole, keep a handle in the context, and read back an exact slice from its middle', async () => {
    const artifacts = new InMemoryArtifactService();
    const { runner, sessionService, model } = world(artifacts);
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const events = await turn(runner, 'alice', session.id, 'Fetch the big log.');

    const cut = responseOf(events, 'fetch_big')!;
    const handle = cut['full_result_artifact'] as { name: string; version: number; chars: number };
    expect(handle).toMatchObject({ version: 0, chars: FULL_JSON.length });
    expect(JSON.stringify(cut).length).toBeLessThan(11 * 1024);
    const plain = truncateToolOutput({ tool: 'fetch_big', result: { output: BIG } })!.result;
    // The figure docs/truncation.md gives for the handle's size.
    console.log(
      `[artifact-offload] the handle adds ${Buffer.byteLength(JSON.stringify(cut)) - Buffer.byteLength(JSON.stringify(plain))} bytes (app '${APP_NAME}')`,
    );
    // The model received the handle, not the 2 MB.
    expect(JSON.stringify(model.requests[1]!.contents)).toContain(handle.name);
    expect(JSON.stringify(model.requests[1]!.contents).length).toBeLessThan(20_000);

    const stored = await artifacts.loadArtifact({
      appName: APP_NAME,
      userId: 'alice',
      sessionId: session.id,
      filename: handle.name,
    });
    expect(stored?.inlineData?.mimeType).toBe('application/json');
    expect(Buffer.from(stored!.inlineData!.data!, 'base64').toString('utf8')).toBe(FULL_JSON);
    const toolEvent = events.find((event) =>
      event.content?.parts?.some((part) => part.functionResponse?.name === 'fetch_big'),
    );
    expect(toolEvent?.actions.artifactDelta).toEqual({ [handle.name]: 0 });

    const recall = responseOf(events, 'recall_history')!;
    expect(recall['text']).toBe(FULL_JSON.slice(SLICE_OFFSET, SLICE_OFFSET + SLICE_LENGTH));
    expect(recall).toMatchObject({
      offset: SLICE_OFFSET,
      total_chars: FULL_JSON.length,
      next_offset: SLICE_OFFSET + SLICE_LENGTH,
    });
  });

  it('should name the recall tool the guard declared in the handle, and read the slice with it', async () => {
    const { runner, sessionService } = world(new InMemoryArtifactService(), { ownRecallTool: false });
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const events = await turn(runner, 'alice', session.id, 'Fetch the big log.');
    const cut = responseOf(events, 'fetch_big')!;
    expect(JSON.stringify(cut)).toContain('Read any part with recall_history(');
    const recall = responseOf(events, 'recall_history')!;
    expect(recall['text']).toBe(FULL_JSON.slice(SLICE_OFFSET, SLICE_OFFSET + SLICE_LENGTH));
  });

  it('should read the artifact by its name cut with an ellipsis, the one this session stored that begins so', async () => {
    const artifacts = new InMemoryArtifactService();
    const { runner, sessionService } = world(artifacts);
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const first = await turn(runner, 'alice', session.id, 'Fetch the big log.');
    const handle = responseOf(first, 'fetch_big')!['full_result_artifact'] as { name: string };
    // The thirtieth outside trial: a model quoting the name as a placeholder had shown it, cut at 120 characters.
    const cut = await turn(runner, 'alice', session.id, `READ ${handle.name.slice(0, 119)}…`);
    expect(responseOf(cut, 'recall_history')?.['text']).toBe(
      FULL_JSON.slice(SLICE_OFFSET, SLICE_OFFSET + SLICE_LENGTH),
    );
    const unknown = await turn(runner, 'alice', session.id, 'READ context_guard-tool_output-nothing…');
    expect(String(responseOf(unknown, 'recall_history')?.['error'])).toMatch(/search for words from it with a query/);
  });

  it("should never let another session's recall tool read the artifact, even for the same user", async () => {
    const artifacts = new InMemoryArtifactService();
    const { runner, sessionService } = world(artifacts);
    const mine = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const handle = responseOf(await turn(runner, 'alice', mine.id, 'Fetch the big log.'), 'fetch_big')![
      'full_result_artifact'
    ] as { name: string };

    for (const userId of ['bob', 'alice']) {
      const other = await sessionService.createSession({ appName: APP_NAME, userId });
      const recall = responseOf(await turn(runner, userId, other.id, `READ ${handle.name}`), 'recall_history')!;
      expect(recall['error']).toMatch(/No stored tool result/);
      expect(JSON.stringify(recall)).not.toContain(FULL_JSON.slice(SLICE_OFFSET, SLICE_OFFSET + 40));
    }
  });

  it('should say each result it cut and stored: in status(), and in one info line naming the artifact', async () => {
    const { runner, sessionService, logger, guard } = world(new InMemoryArtifactService());
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const first = await turn(runner, 'alice', session.id, 'Fetch the big log.');
    await turn(runner, 'alice', session.id, 'Fetch it again.');
    const stored = await sessionService.getSession({ appName: APP_NAME, userId: 'alice', sessionId: session.id });
    expect(guard.status(stored, 'worker')).toMatchObject({ toolResultsCut: 2, offloadedResults: 2 });
    const handle = responseOf(first, 'fetch_big')!['full_result_artifact'] as { name: string };
    const said = logger.matching('stored whole as artifact');
    expect(said).toHaveLength(2);
    expect(said[0]!.level).toBe('info');
    expect(said[0]!.message).toContain(`'${handle.name}'`);
    expect(logger.matching('result cut from')).toHaveLength(2);
  });

  it('should count every cut of two turns of one session run at once', async () => {
    // The thirty-second outside trial: each turn wrote the state's count from its own copy of the session, so two turns
    // at once counted one cut where they made two (10 of 20), below the results offloaded.
    const { runner, sessionService, logger, guard } = world(new InMemoryArtifactService());
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    for (let round = 0; round < 2; round++)
      await Promise.all([
        turn(runner, 'alice', session.id, 'Fetch the big log.'),
        turn(runner, 'alice', session.id, 'Fetch it again.'),
      ]);
    const stored = await sessionService.getSession({ appName: APP_NAME, userId: 'alice', sessionId: session.id });
    expect(logger.matching('result cut from')).toHaveLength(4);
    expect(guard.status(stored, 'worker')).toMatchObject({ toolResultsCut: 4, offloadedResults: 4 });
  });

  it('should count a cut result it could not store as cut only', async () => {
    const { runner, sessionService, guard } = world(undefined);
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    await turn(runner, 'alice', session.id, 'Fetch the big log.');
    const stored = await sessionService.getSession({ appName: APP_NAME, userId: 'alice', sessionId: session.id });
    expect(guard.status(stored, 'worker')).toMatchObject({ toolResultsCut: 1, offloadedResults: 0 });
  });

  it('should behave exactly as today without an artifact service', async () => {
    const { runner, sessionService, logger } = world(undefined);
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const events = await turn(runner, 'alice', session.id, 'Fetch the big log.');
    expect(responseOf(events, 'fetch_big')).toEqual(
      truncateToolOutput({ tool: 'fetch_big', result: { output: BIG } })!.result,
    );
    expect(logger.atOrAbove('warn')).toEqual([]);
  });

  it('should keep the cut result and log one warning when saving fails, never failing the tool call', async () => {
    class FailingArtifacts extends InMemoryArtifactService {
      override saveArtifact(): Promise<number> {
        return Promise.reject(new Error('bucket unavailable'));
      }
    }
    const { runner, sessionService, logger } = world(new FailingArtifacts());
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const events = await turn(runner, 'alice', session.id, 'Fetch the big log.');
    expect(events.some((event) => event.errorCode)).toBe(false);
    expect(responseOf(events, 'fetch_big')).toEqual(
      truncateToolOutput({ tool: 'fetch_big', result: { output: BIG } })!.result,
    );
    expect(logger.atOrAbove('warn').map((line) => line.message)).toEqual([
      expect.stringMatching(/could not store tool 'fetch_big' result as an artifact/),
    ]);
  });

  it('should finish the turn within the bound when the artifact service never answers a save, keeping the cut version, with one warning', async () => {
    class HangingArtifacts extends InMemoryArtifactService {
      override saveArtifact(): Promise<number> {
        return new Promise<number>(() => {});
      }
    }
    const { runner, sessionService, logger, model } = world(new HangingArtifacts(), { artifactTimeoutMs: 300 });
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const started = Date.now();
    const events = await within(5_000, turn(runner, 'alice', session.id, 'Fetch the big log.'));
    if (events === 'still running') throw new Error('the turn was still running 5 s after it started');
    expect(Date.now() - started).toBeLessThan(3_000);
    const cut = truncateToolOutput({ tool: 'fetch_big', result: { output: BIG } })!.result;
    expect(responseOf(events, 'fetch_big')).toEqual(cut);
    // The model's next request carries the cut version alone.
    expect(JSON.stringify(model.requests[1]!.contents)).not.toContain('full_result_artifact');
    expect(logger.atOrAbove('warn').map((line) => line.message)).toEqual([
      expect.stringMatching(/could not store tool 'fetch_big' result as an artifact within 300 ms/),
    ]);
    const stored = await sessionService.getSession({ appName: APP_NAME, userId: 'alice', sessionId: session.id });
    expect(stored!.events.every((event) => Object.keys(event.actions.artifactDelta).length === 0)).toBe(true);
  });

  it('should answer the recall tool within its bound when the artifact service never answers a read, with one warning', async () => {
    class HangingReads extends InMemoryArtifactService {
      override loadArtifact(): Promise<Part | undefined> {
        return new Promise<Part | undefined>(() => {});
      }
    }
    const { runner, sessionService, logger } = world(new HangingReads(), { recallTimeoutMs: 300 });
    const session = await sessionService.createSession({ appName: APP_NAME, userId: 'alice' });
    const events = await within(5_000, turn(runner, 'alice', session.id, 'Fetch the big log.'));
    if (events === 'still running') throw new Error('the turn was still running 5 s after it started');
    expect(responseOf(events, 'fetch_big')!['full_result_artifact']).toBeDefined();
    expect(responseOf(events, 'recall_history')!['error']).toMatch(/could not be read in time/);
    expect(logger.atOrAbove('warn').map((line) => line.message)).toEqual([
      expect.stringMatching(/could not read a stored tool result within 300 ms/),
    ]);
  });
});

describe("artifacts of one app are not another app's (FileArtifactService keys by user and session only)", () => {
  const USER = 'alice';
  const SESSION_ID = 'shared-1';

  async function sessionOf(runner: ReturnType<typeof world>, appName: string) {
    return runner.sessionService.createSession({ appName, userId: USER, sessionId: SESSION_ID });
  }

  it('should not let another app with the same user and session id read an offloaded result by its name', async () => {
    const files = new FileArtifactService(artifactFolder());
    const first = world(files, { appName: 'billing' });
    const second = world(files, { appName: 'support' });
    await sessionOf(first, 'billing');
    await sessionOf(second, 'support');

    const events = await turn(first.runner, USER, SESSION_ID, 'Fetch the big log.');
    const handle = responseOf(events, 'fetch_big')!['full_result_artifact'] as { name: string };
    // The app's own recall reads it back from the shared folder.
    expect(responseOf(events, 'recall_history')!['text']).toBe(
      FULL_JSON.slice(SLICE_OFFSET, SLICE_OFFSET + SLICE_LENGTH),
    );

    const recall = responseOf(await turn(second.runner, USER, SESSION_ID, `READ ${handle.name}`), 'recall_history')!;
    expect(recall['error']).toMatch(/No stored tool result/);
    expect(JSON.stringify(recall)).not.toContain(FULL_JSON.slice(SLICE_OFFSET, SLICE_OFFSET + 40));
  });

  it('should read an older name without the app only in the session whose events record saving it', async () => {
    const files = new FileArtifactService(artifactFolder());
    const first = world(files, { appName: 'billing' });
    const second = world(files, { appName: 'support' });
    const mine = await sessionOf(first, 'billing');
    await sessionOf(second, 'support');
    // What the guard stored before names carried the app: the name, and the tool event's artifactDelta.
    const older = `${OFFLOAD_ARTIFACT_PREFIX}fetch_big-e-0ld-adk-0ld.json`;
    const version = await files.saveArtifact({
      appName: 'billing',
      userId: USER,
      sessionId: SESSION_ID,
      filename: older,
      artifact: { inlineData: { mimeType: 'application/json', data: Buffer.from(FULL_JSON).toString('base64') } },
    });
    const saved = createEvent({ invocationId: 'e-0ld', author: 'worker' });
    saved.actions.artifactDelta[older] = version;
    await first.sessionService.appendEvent({ session: mine, event: saved });

    const own = responseOf(await turn(first.runner, USER, SESSION_ID, `READ ${older}`), 'recall_history')!;
    expect(own['text']).toBe(FULL_JSON.slice(SLICE_OFFSET, SLICE_OFFSET + SLICE_LENGTH));
    const other = responseOf(await turn(second.runner, USER, SESSION_ID, `READ ${older}`), 'recall_history')!;
    expect(other['error']).toMatch(/No stored tool result/);
  });
});
