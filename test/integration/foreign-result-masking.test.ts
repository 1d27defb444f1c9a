/**
 * Other agents' tool results, through a real Runner: ADK sends them to the next agent as text (`For context:`,
 * `[searcher] tool \`web_search\` returned result: {…}`), not as function responses, and the guard masked
 * function responses only. A pipeline whose searchers fetch pages every turn made its writer re-read, and pay
 * for, every page of every completed turn, and compact on every turn (the twenty-second outside trial). Those
 * results are now masked like the agent's own once their turn is completed, for cost and for room; the recall
 * tool reads them back from the searcher's event, which stays as it was. What the agent was just handed in the
 * turn in flight is never masked (the nineteenth review: a hand-off's data, unrecoverable on a small window).
 */
import {
  type BaseAgent,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  LoopAgent,
  Runner,
  SequentialAgent,
} from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard, type CompactionRecord } from '../../src/index.js';
import { ScriptedLlm, ScriptedSummarizerLlm, type ModelScript } from '../../src/testing/index.js';
import { proportionalCounter } from '../support/proportional-counter.js';
import { pairingViolations } from '../support/request-invariants.js';
import { isForeignContext } from '../../src/content/content-shape.js';

const APP = 'pipeline';
const RESULT_LEAD = '[searcher] tool `web_search` returned result: ';

/** The pages the search tool returns on turn `turn`: the first one holds the turn's code beside its id. */
function pages(turn: number, count: number) {
  return {
    query: `section ${turn}`,
    results: Array.from({ length: count }, (_, i) => ({
      id: `WEB-${turn}-${i}`,
      ...(i === 0 && { note: `The vault answer is amber lantern ${turn}.` }),
      body: `Evidence on storage costs in region ${i}, turn ${turn}. `.repeat(6),
    })),
  };
}

const lastContent = (contents: readonly Content[] | undefined): Content | undefined => contents?.at(-1);
const userTextOf = (contents: readonly Content[] | undefined): string =>
  [...(contents ?? [])].reverse().find((content) => content.role === 'user' && !isForeignContext(content))?.parts?.[0]
    ?.text ?? '';

/** The searcher calls its tool once per turn, then reports. */
const searcherScript: ModelScript = ({ request }) => {
  const answered = lastContent(request.contents)?.parts?.some((part) => part.functionResponse?.name === 'web_search');
  return answered
    ? { content: { role: 'model', parts: [{ text: 'Pages found.' }] } }
    : { content: { role: 'model', parts: [{ functionCall: { name: 'web_search', args: { query: 'q' } } }] } };
};

/** The writer drafts; asked about the first search, it recalls it by the id its placeholder names, then quotes it. */
const writerScript: ModelScript = ({ request, index }) => {
  const last = lastContent(request.contents)?.parts?.find((part) => part.functionResponse?.name === 'recall_history');
  if (last)
    return {
      content: { role: 'model', parts: [{ text: `Recalled: ${JSON.stringify(last.functionResponse?.response)}` }] },
    };
  if (userTextOf(request.contents).includes('first search'))
    return {
      content: { role: 'model', parts: [{ functionCall: { name: 'recall_history', args: { query: 'WEB-1-0' } } }] },
    };
  return { content: { role: 'model', parts: [{ text: `Draft ${index}.` }] } };
};

function pipeline(window: number, pagesPerSearch: number, searchers: number) {
  const models = {
    searcher: new ScriptedLlm({
      model: 'gemini-2.5-flash',
      window,
      countTokens: proportionalCounter(1.1),
      script: searcherScript,
    }),
    writer: new ScriptedLlm({
      model: 'gemini-2.5-flash',
      window,
      countTokens: proportionalCounter(1.1),
      script: writerScript,
    }),
  };
  let turn = 0;
  const search = new FunctionTool({
    name: 'web_search',
    description: 'Searches the web.',
    execute: async () => pages(turn, pagesPerSearch),
  });
  const searcherAgents = Array.from(
    { length: searchers },
    (_, i) =>
      new LlmAgent({
        name: i === 0 ? 'searcher' : `searcher_${i}`,
        model: models.searcher,
        instruction: 'Search.',
        tools: [search],
      }),
  );
  const writer = new LlmAgent({ name: 'writer', model: models.writer, instruction: 'Write the report.' });
  const root = new SequentialAgent({ name: 'research', subAgents: [...searcherAgents, writer] });
  return { models, root, nextTurn: () => ++turn };
}

/** A guard that records its compactions, on a Runner of `root` with a new session; `send` runs one turn. */
async function guarded(window: number, root: BaseAgent) {
  const records: CompactionRecord[] = [];
  const guard = new ContextGuard({
    contextWindow: window,
    summarizer: new ScriptedSummarizerLlm(),
    modelWindows: { 'scripted-summarizer': 1_000_000 },
    onCompaction: (record) => void records.push(record),
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP, agent: root, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: APP, userId: 'u' });
  const errors: string[] = [];
  const send = async (text: string) => {
    const newMessage = { role: 'user', parts: [{ text }] };
    for await (const event of runner.runAsync({ userId: 'u', sessionId: session.id, newMessage }))
      if (event.errorCode) errors.push(`${event.errorCode}: ${event.errorMessage}`);
  };
  const stored = () => sessionService.getSession({ appName: APP, userId: 'u', sessionId: session.id });
  return { guard, records, errors, send, stored };
}

async function run(window: number, messages: readonly string[], pagesPerSearch: number, searchers = 1) {
  const { models, root, nextTurn } = pipeline(window, pagesPerSearch, searchers);
  const { guard, records, errors, send, stored } = await guarded(window, root);
  for (const text of messages) {
    nextTurn();
    await send(text);
  }
  const session = await stored();
  return { models, records, errors, events: session?.events ?? [], status: guard.status(session, 'writer') };
}

/** The text of the searcher's result of turn `turn` in `contents`, if it is there. */
function resultOfTurn(contents: readonly Content[], turn: number): string | undefined {
  return contents
    .flatMap((content) => content.parts ?? [])
    .map((part) => part.text ?? '')
    .find((text) => text.startsWith(RESULT_LEAD) && text.includes(`WEB-${turn}-0`));
}

describe("other agents' results", () => {
  it('should be masked for cost once their turn is completed, and read back by the recall tool', async () => {
    const messages = [
      ...Array.from({ length: 7 }, (_, i) => `Section ${i + 1}.`),
      'What code did the first search find?',
    ];
    const { models, errors, events, status } = await run(200_000, messages, 60);
    expect(errors).toEqual([]);
    const requests = models.writer.requests;
    expect(requests.filter((request) => request.rejected)).toEqual([]);
    expect(requests.flatMap((request) => pairingViolations(request.contents))).toEqual([]);
    expect(status.maskings).toBeGreaterThan(0);
    const last = requests.at(-1)!.contents;
    // The first turn's pages are a placeholder naming them, the turn in flight's whole.
    const first = resultOfTurn(last, 1);
    expect(first).toContain('context_guard_masked');
    expect(first).toContain('WEB-1-0');
    expect(first).not.toContain('amber lantern 1');
    expect(resultOfTurn(last, 8)).toContain('amber lantern 8');
    // Read back from the searcher's event, which still holds the whole result.
    const answer = [...events].reverse().find((event) => event.author === 'writer')?.content?.parts?.[0]?.text ?? '';
    expect(answer).toMatch(/^Recalled: .*amber lantern 1/);
    const searched = events.filter((event) =>
      event.content?.parts?.some((part) => part.functionResponse?.name === 'web_search'),
    );
    expect(searched).toHaveLength(8);
    expect(JSON.stringify(searched[0]?.content)).toContain('amber lantern 1');
  });

  it('should be masked for room once their turn is completed, never in the turn that hands them over', async () => {
    // Three searches of about a sixth of the window each (cut where they are returned): the writer's first call of
    // the second turn is over the threshold with both turns' pages, under it with the first turn's masked.
    const { models, records, errors } = await run(16_000, ['Section 1.', 'Section 2.'], 75, 3);
    expect(errors).toEqual([]);
    const request = models.writer.requests.at(-1)!;
    expect(request.rejected).toBe(false);
    expect(records.filter((record) => record.agentName === 'writer')).toEqual([]);
    const results = request.contents
      .flatMap((content) => content.parts ?? [])
      .map((part) => part.text ?? '')
      .filter((text) => text.includes('returned result:'));
    expect(results).toHaveLength(6);
    for (const text of results.slice(0, 3)) expect(text).toMatch(/context_guard_masked.*not recoverable by this agent/);
    for (const text of results.slice(3)) expect(text).toContain('The vault answer is amber lantern 2.');
  });
});

describe("other agents' results in a loop of one turn", () => {
  /** A searcher and a writer with no tools, run `iterations` times in one turn by a LoopAgent. */
  async function loop(window: number, iterations: number, pagesPerSearch = 60) {
    let round = 0;
    const search = new FunctionTool({
      name: 'web_search',
      description: 'Searches the web.',
      execute: async () => pages(++round, pagesPerSearch),
    });
    const model = (script: ModelScript) =>
      new ScriptedLlm({ model: 'gemini-2.5-flash', window, countTokens: proportionalCounter(1.1), script });
    const writerModel = model(({ index }) => ({ content: { role: 'model', parts: [{ text: `Draft ${index}.` }] } }));
    const searcher = new LlmAgent({
      name: 'searcher',
      model: model(searcherScript),
      instruction: 'Search.',
      tools: [search],
    });
    const writer = new LlmAgent({ name: 'writer', model: writerModel, instruction: 'Write the report.' });
    const root = new LoopAgent({ name: 'research', subAgents: [searcher, writer], maxIterations: iterations });
    const { records, errors, send } = await guarded(window, root);
    await send('Write the storage report, one section a round.');
    return { writer: writerModel, records: records.filter((record) => record.agentName === 'writer'), errors };
  }

  it('should mask for room what the writer answered on in earlier rounds, not summarize it on most calls', async () => {
    // The sixtieth outside trial: a LoopAgent's writer, with no tools, was summarized on 43 of its 60 calls.
    const { writer, records, errors } = await loop(16_000, 14);
    expect(errors).toEqual([]);
    expect(writer.requests).toHaveLength(14);
    expect(writer.requests.filter((request) => request.rejected)).toEqual([]);
    expect(records).toEqual([]);
    const last = writer.requests.at(-1)!.contents;
    // The latest round's pages whole, the first round's a placeholder that names them.
    expect(resultOfTurn(last, 14)).toContain('amber lantern 14');
    expect(resultOfTurn(last, 1)).toContain('context_guard_masked');
    expect(resultOfTurn(last, 1)).toContain('WEB-1-0');
    // The user's request is in every call.
    for (const request of writer.requests) expect(userTextOf(request.contents)).toContain('storage report');
  });

  it('should keep what the writer was just handed in every round on a small window', async () => {
    // The sixty-first outside trial: on 8k, a compaction to meet its target summarized the round's result the writer
    // had just been handed, and it drafted that round without it.
    const { writer, errors } = await loop(8_000, 30, 20);
    expect(errors).toEqual([]);
    expect(writer.requests).toHaveLength(30);
    expect(writer.requests.filter((request) => request.rejected)).toEqual([]);
    const withoutRound = writer.requests
      .map((request, index) => ({ round: index + 1, text: resultOfTurn(request.contents, index + 1) ?? '' }))
      .filter(({ round, text }) => !text.includes(`The vault answer is amber lantern ${round}.`))
      .map(({ round }) => round);
    expect(withoutRound).toEqual([]);
  });
});
