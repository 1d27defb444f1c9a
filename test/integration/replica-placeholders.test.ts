/**
 * Placeholders across replicas: a masked tool result must be the same bytes whichever replica masks it.
 * PostgreSQL's jsonb gives a tool result back with its keys in an order of its own (by length, then
 * bytes), so the replica that masks a result after a reload reads `{ at, logs, status, service }` where
 * the replica that ran the tool held `{ service, logs, at, status }`. A placeholder whose size or
 * preview followed the order (a token count of the JSON text; the first string met) changed the
 * request's prefix at each switch of replica, and the provider's cache was lost there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSessionService, FunctionTool, LlmAgent, Runner } from '@google/adk';
import type { Content } from '@google/genai';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { logText, ratioTokenCounter, ScriptedLlm, ScriptedSummarizer } from '../../src/testing/index.js';
import { APP_NAME, USER_ID, runTurn } from '../support/agent-harness.js';

/** The key a placeholder stands under: what the model reads, so written out here. */
const WINDOW = 16_000;
const MASKED_RESULT_KEY = 'context_guard_masked';
const folder = mkdtempSync(join(tmpdir(), 'context-guard-replica-placeholders-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What a tool returns: a few keys, or a wide row of more keys than a placeholder's walks read. */
type Shape = 'report' | 'wide row';

/** A result whose keys are in no order jsonb keeps: a report, or a row of 40 id fields written last to first. */
function resultOf(shape: Shape, seed: number): Record<string, unknown> {
  // A `Date` and keys whose value is `undefined`: a store keeps the one as a string and drops the others.
  if (shape === 'report')
    return {
      service: `checkout-${seed}`,
      logs: logText(4_000, seed),
      at: new Date(Date.UTC(2026, 11, 1 + (seed % 9))),
      status: 'ok',
      ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`a_${i}`, undefined])),
      zone_id: `ZONE-${seed}`,
    };
  const fields = Array.from({ length: 40 }, (_, i): [string, string] => [
    `field_${String(39 - i).padStart(3, '0')}_id`,
    `ID${seed}x${39 - i}`,
  ]);
  return { ...Object.fromEntries(fields), notes: logText(3_000, seed) };
}

function reportTool(shape: Shape): FunctionTool {
  return new FunctionTool({
    name: 'fetch_report',
    description: 'Returns the report of a service.',
    parameters: { type: 'OBJECT', properties: { seed: { type: 'INTEGER' } }, required: ['seed'] } as never,
    execute: (input: unknown) => resultOf(shape, (input as { seed: number }).seed),
  });
}

/** Results in the turn so far (after its user message). */
function resultsThisTurn(contents: readonly Content[]): number {
  let results = 0;
  for (let i = contents.length - 1; i >= 0 && contents[i]?.parts?.some((part) => part.text === undefined); i--)
    if (contents[i]?.parts?.some((part) => part.functionResponse)) results++;
  return results;
}

function replica(store: DatabaseSessionService, shape: Shape): { runner: Runner; model: ScriptedLlm } {
  // Three calls a turn: a result can be masked in the turn that made it, on the replica that ran the tool.
  const model = new ScriptedLlm({
    window: WINDOW,
    countTokens: ratioTokenCounter(1.8),
    script: ({ request }) =>
      resultsThisTurn(request.contents) < 3
        ? {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'fetch_report', args: { seed: request.contents.length + 1 } } }],
            },
          }
        : { content: { role: 'model', parts: [{ text: `Report ${request.contents.length} read: nothing unusual.` }] } },
  });
  const agent = new LlmAgent({ name: 'worker', model, instruction: 'You read reports.', tools: [reportTool(shape)] });
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    summarizer: new ScriptedSummarizer(),
    prepareTurnsAhead: 0,
  });
  return { runner: new Runner({ appName: APP_NAME, agent, sessionService: store, plugins: [guard] }), model };
}

/** Every placeholder of every request, in the order the requests were sent. */
function placeholdersOf(requests: readonly { contents: Content[]; timestamp: number; index: number }[]): string[] {
  return [...requests]
    .sort((a, b) => a.timestamp - b.timestamp || a.index - b.index)
    .flatMap((request) =>
      request.contents.flatMap((content) =>
        (content.parts ?? []).flatMap((part) => {
          const masked = part.functionResponse?.response?.[MASKED_RESULT_KEY];
          return typeof masked === 'string' ? [masked] : [];
        }),
      ),
    );
}

/** `turns` turns of one session, turn n on replica n % `replicas`, each replica with its own guard and store. */
async function placeholders(
  world: World,
  shape: Shape,
  url: string,
  replicas: number,
  turns: number,
): Promise<string[]> {
  const made: ReturnType<typeof replica>[] = [];
  let store: DatabaseSessionService | undefined;
  for (let i = 0; i < replicas; i++) {
    // One after the other: ADK's init creates the schema, and two inits racing on an empty database collide.
    // On SQLite the replicas share one instance: two on one file collide (docs/reliability.md).
    if (!world.shared || store === undefined) {
      store = new DatabaseSessionService(url);
      await store.init();
    }
    made.push(replica(store, shape));
  }
  const first = made[0]!;
  const session = await first.runner.sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  for (let turn = 1; turn <= turns; turn++)
    await runTurn(made[turn % replicas]!.runner, session.id, `Turn ${turn}: read the next report.`);
  for (const { model } of made) expect(model.rejectedRequests).toEqual([]);
  return placeholdersOf(made.flatMap(({ model }) => model.requests));
}

interface World {
  readonly name: string;
  url(run: number): string;
  readonly shared: boolean;
}
const worlds: World[] = [
  { name: 'SQLite', url: (run) => `sqlite://${join(folder, `db-${run}.sqlite`)}`, shared: true },
];
const postgres = process.env['POSTGRES_URL'];
if (postgres) worlds.push({ name: 'PostgreSQL', url: () => postgres, shared: false });

let runs = 0;
describe.each(worlds)('placeholders across replicas on $name', (world) => {
  it.each<Shape>(['report', 'wide row'])(
    'should send the placeholders of one Runner when two replicas take alternate turns (%s)',
    async (shape) => {
      const single = await placeholders(world, shape, world.url(++runs), 1, 8);
      const pair = await placeholders(world, shape, world.url(++runs), 2, 8);
      expect(single.length).toBeGreaterThan(10);
      expect(pair).toEqual(single);
    },
  );
});
