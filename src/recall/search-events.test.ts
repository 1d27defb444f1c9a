import { describe, expect, it } from 'vitest';
import type { Content } from '@google/genai';
import { functionCall, functionResponse, modelText, userText } from '../../test/support/builders.js';
import { readEvent, searchEvents, type SearchableEvent } from './search-events.js';

function event(id: string, content: Content, extra: Partial<SearchableEvent> = {}): SearchableEvent {
  return { id, timestamp: 1, invocationId: `inv-${id}`, author: 'worker', content, ...extra };
}

describe('searchEvents', () => {
  it('should list the latest of equally good hits first: a correction before the value it corrects', () => {
    const events = [
      event('stated', userText('My budget is at most $400 for the panels.'), { invocationId: 'inv-1', author: 'user' }),
      event('chat', userText('Show me panels, please.'), { invocationId: 'inv-2', author: 'user' }),
      event('corrected', userText('Update: my budget is now $600.'), { invocationId: 'inv-3', author: 'user' }),
    ];
    const hits = searchEvents(events, 'budget');
    expect(hits[0]?.score).toBe(hits[1]?.score);
    expect(hits.map((hit) => hit.eventId)).toEqual(['corrected', 'stated']);
    // Within one turn (a tool loop's steps share it) the later event comes first too.
    const loop = [
      event('step5', userText('The failing test is fees.spec.ts.'), { invocationId: 'inv-1', author: 'user' }),
      event('step40', modelText('The failing test is session.spec.ts.'), { invocationId: 'inv-1' }),
    ];
    expect(searchEvents(loop, 'failing test').map((hit) => hit.eventId)).toEqual(['step40', 'step5']);
  });

  it("should list the calling turn's own question after the message that answers it", () => {
    const events = [
      event('gave', userText('My order id is ORD-7731 for the blue shoes.'), { invocationId: 'inv-1', author: 'user' }),
      event('reply', modelText('Noted.'), { invocationId: 'inv-1' }),
      event('asked', userText('Which order id did I give you for the blue shoes?'), {
        invocationId: 'inv-2',
        author: 'user',
      }),
    ];
    const ranked = (invocation?: string): string[] =>
      searchEvents(events, 'order id blue shoes', { invocation }).map((hit) => hit.eventId);
    expect(ranked('inv-2')).toEqual(['gave', 'asked']);
    // Another turn's question is a hit like any other: the latest of equal hits first.
    expect(ranked('inv-3')).toEqual(['asked', 'gave']);
    // The turn's own tool results are what a tool loop recalls: they rank as ever.
    const loop = [
      ...events,
      event('result', modelText('order id ORD-7731 blue shoes shipped'), { invocationId: 'inv-2' }),
    ];
    expect(searchEvents(loop, 'order id blue shoes', { invocation: 'inv-2' })[0]?.eventId).toBe('result');
  });

  it("should keep the calling turn's message where it outscores the rest: a message cut on its way in is read from here", () => {
    const events = Array.from({ length: 10 }, (_, i) =>
      event(`reply${i}`, modelText(`Deploy ${i} looks fine, no error.`), { invocationId: `inv-${i}` }),
    );
    const log = Array.from({ length: 400 }, (_, i) => (i === 350 ? 'ERROR code E-4471 volume full' : `line ${i} ok`));
    const pasted = userText(`Here is the log, which error code is in it?\n${log.join('\n')}`);
    events.push(event('pasted', pasted, { invocationId: 'inv-now', author: 'user' }));
    expect(searchEvents(events, 'error code', { invocation: 'inv-now' })[0]?.eventId).toBe('pasted');
  });

  it('should find a word standing alone after any number of longer words that hold it', () => {
    const text = `${'failover '.repeat(2_000)}FAIL test/session.spec.ts`;
    const [hit] = searchEvents([event('run', modelText(text))], 'FAIL');
    expect(hit?.snippet).toContain('FAIL test/session.spec.ts');
  });

  it('should find an id a query ends with a full stop', () => {
    const said = event('said', userText('Remember: my order is ORD-7731, please.'), { author: 'user' });
    expect(searchEvents([said], 'my order is ORD-7731.')[0]?.eventId).toBe('said');
    expect(searchEvents([said], 'ORD-7731.')[0]?.eventId).toBe('said');
  });

  it('should rank the phrase as typed above the same characters inside a longer number', () => {
    const runs = Array.from({ length: 19 }, (_, at) =>
      event(`run${at + 1}`, userText(`Done: checksum C-${at + 1}-77.`), { invocationId: `inv-${at}`, author: 'user' }),
    );
    expect(searchEvents(runs, 'checksum C-1')[0]?.eventId).toBe('run1');
  });

  it('should take a phrase of a script written without spaces as typed wherever it stands (review 35)', () => {
    const logs = Array.from({ length: 9 }, (_, at) =>
      event(`log${at}`, userText(`日志 ${at}: 订单号 已处理, 参考 ORD-7731 批次 ${at}`), { invocationId: `inv-${at}` }),
    );
    const said = event('said', userText('请记住：我的订单号 ORD-7731。'), { invocationId: 'inv-said', author: 'user' });
    expect(searchEvents([said, ...logs], '订单号 ORD-7731')[0]?.eventId).toBe('said');
  });

  describe('what is searched', () => {
    it('should leave out calls of the excluded tool and their answers, which would outrank what they quote', () => {
      const events = [
        event('original', userText('The tracking code is TRK-99812-ZQ.')),
        event('call', functionCall('recall_history', { query: 'TRK-99812-ZQ' })),
        event(
          'answer',
          functionResponse('recall_history', {
            hits: [{ snippet: 'The tracking code is TRK-99812-ZQ. TRK-99812-ZQ' }],
          }),
        ),
      ];
      expect(searchEvents(events, 'TRK-99812-ZQ', { excludeTool: 'recall_history' }).map((hit) => hit.eventId)).toEqual(
        ['original'],
      );
      // Without the exclusion the earlier answer ranks first: the case the option exists for.
      expect(searchEvents(events, 'TRK-99812-ZQ')[0]?.eventId).not.toBe('original');
    });

    it('should search the text of a file the user attached (a CSV, JSON), not only its type and size', () => {
      // The twentieth outside trial: an uploaded CSV could not be read back by pattern (0 matches, 1 line).
      // Whole, however large (review 17: a row in the middle of a 1 MB CSV was not found).
      const csv = `order,status\n${'ORDER-1000,open\n'.repeat(40_000)}ORDER-7781,refunded\n${'ORDER-1001,open\n'.repeat(40_000)}`;
      const upload: Content = {
        role: 'user',
        parts: [
          { text: 'Here are the orders.' },
          { inlineData: { mimeType: 'text/csv', data: Buffer.from(csv).toString('base64') } },
        ],
      };
      expect(searchEvents([event('upload', upload)], 'ORDER-7781').map((hit) => hit.eventId)).toEqual(['upload']);
    });

    it('should rank an event holding the whole query above long ones holding its words many times', () => {
      const log = (seed: number) =>
        Array.from({ length: 40 }, (_, i) => `host-${seed} my order request id=${seed}${i} order miss`).join('\n');
      const events = [
        event('remember', userText('Remember: my order id is ORD-7731.')),
        ...[1, 2, 3, 4, 5, 6].map((seed) =>
          event(`log-${seed}`, functionResponse('fetch_logs', { output: log(seed) })),
        ),
      ];
      const hits = searchEvents(events, 'my order id');
      expect(hits[0]?.eventId).toBe('remember');
      expect(hits[0]?.snippet).toContain('ORD-7731');
      // Without the whole query, the logs' many words still rank them.
      expect(searchEvents(events, 'request order')[0]?.eventId).toMatch(/^log-/);
    });

    it('should not search events another branch wrote', () => {
      const events = [
        event('mine', userText('alpha beta'), { branch: 'root.worker' }),
        event('theirs', userText('alpha beta'), { branch: 'root.critic' }),
      ];
      expect(searchEvents(events, 'alpha', { branch: 'root.worker' }).map((hit) => hit.eventId)).toEqual(['mine']);
    });
  });

  describe('words of their own', () => {
    /** A test run's output as a tool returns it: searched as JSON text, its line breaks written `\\n`. */
    const testRun = event(
      'tests',
      functionResponse('run_tests', {
        output: 'PASS test/cart.spec.ts\nFAIL test/ledger.spec.ts > handles refund ZK-4471\nTests: 1 failed, 41 passed',
      }),
    );
    const files = Array.from({ length: 8 }, (_, at) =>
      event(
        `file${at}`,
        functionResponse('read_file', {
          content: `// failover ${at}\nfunction failover() {\n  return failoverTarget(${at}); // failover again\n}`,
        }),
      ),
    );

    it('should find a word at the start of a line of a tool result, as typed and alone (trial 49)', () => {
      expect(searchEvents([testRun, ...files], 'FAIL test')[0]?.eventId).toBe('tests');
      expect(searchEvents([testRun, ...files], 'FAIL')[0]?.eventId).toBe('tests');
      const [hit] = searchEvents([testRun, ...files], 'FAIL');
      expect(hit?.snippet).toContain('ZK-4471');
    });

    it('should rank a word of its own above the same letters inside longer words, the phrase aside', () => {
      const inside = event('inside', modelText('The failover ledger moved; failover twice, failover again.'));
      const alone = event('alone', modelText('A fail in the ledger.'));
      // Neither holds "fail ledger" as typed: the words are scored apart.
      expect(searchEvents([alone, inside], 'fail ledger').map((hit) => hit.eventId)).toEqual(['alone', 'inside']);
    });

    it('should take the letters after a backslash in a text part as a word, not the n of a line break', () => {
      // A user pasting JSON text: the path C:\notes is written C:\\notes there.
      const path = event('path', userText('My config: {"dir":"C:\\\\notes"}'));
      expect(searchEvents([path], 'otes')[0]?.score).toBeLessThan(searchEvents([path], 'notes')[0]?.score ?? 0);
    });

    it('should read a tool result that holds JSON text (an MCP tool) and colour codes as their words', () => {
      const output = 'PASS test/cart.spec.ts\n\u001b[31mFAIL\u001b[39m test/ledger.spec.ts > handles refund ZK-4471';
      const mcp = event(
        'mcp',
        functionResponse('run_tests', { content: [{ type: 'text', text: JSON.stringify({ output }) }] }),
      );
      const [hit] = searchEvents([mcp, ...files], 'FAIL');
      expect(hit?.eventId).toBe('mcp');
      expect(hit?.snippet).toContain('FAIL test/ledger.spec.ts');
    });

    it('should find numbers as a tool wrote them in JSON text, and never show one it did not (review 42)', () => {
      const text = '{"order_id": 1234567890123456789, "total": 12.50, "status": "refunded"}';
      const mcp = [event('mcp', functionResponse('get_order', { content: [{ type: 'text', text }] }))];
      expect(searchEvents(mcp, '1234567890123456789')[0]?.eventId).toBe('mcp');
      expect(searchEvents(mcp, '12.50')[0]?.eventId).toBe('mcp');
      expect(searchEvents(mcp, 'refunded')[0]?.snippet).toContain('1234567890123456789');
    });

    it('should read a backslash in a tool value as a backslash: a path, a TeX command', () => {
      const path = [event('p', functionResponse('ls', { dir: 'C:\\notes', doc: 'a \\total of 5' }))];
      expect(searchEvents(path, 'otes')[0]?.score).toBeLessThan(searchEvents(path, 'notes')[0]?.score ?? 0);
      expect(searchEvents(path, 'otal')[0]?.score).toBeLessThan(searchEvents(path, 'total')[0]?.score ?? 0);
    });

    it("should read another agent's result as ADK hands it on as values, colour codes left out", () => {
      const output = 'PASS test/cart.spec.ts\n\u001b[31mFAIL\u001b[39m test/ledger.spec.ts > handles refund ZK-4471';
      const response = { content: [{ type: 'text', text: JSON.stringify({ output }) }] };
      const foreign: Content = {
        role: 'user',
        parts: [
          { text: 'For context:' },
          { text: `[tester] tool \`run_tests\` returned result: ${JSON.stringify(response)}` },
        ],
      };
      const [hit] = searchEvents([event('run', foreign), ...files], 'FAIL');
      expect(hit?.eventId).toBe('run');
      expect(hit?.snippet).toContain('FAIL test/ledger.spec.ts');
    });

    it('should read every value a tool returned: an object twice, a date, deep nesting, no word for a missing one', () => {
      const owner = { code: 'ZK-4471' };
      const twice = event('twice', functionResponse('t', { first: owner, second: owner }));
      const once = event('once', functionResponse('t', { first: { code: 'ZK-4471' } }));
      expect(searchEvents([twice, once], 'ZK-4471')[0]?.eventId).toBe('twice');
      const dated = event('dated', functionResponse('t', { due: new Date('2026-12-24T00:00:00Z'), gone: undefined }));
      expect(searchEvents([dated], '2026-12-24')).toHaveLength(1);
      expect(searchEvents([dated], 'undefined')).toEqual([]);
      let deep: Record<string, unknown> = { code: 'DEEP-77' };
      for (let level = 0; level < 40; level++) deep = { level: deep };
      expect(searchEvents([event('deep', functionResponse('t', deep))], 'DEEP-77')).toHaveLength(1);
    });

    it("should find the tail of a result longer than it reads, as the recall tool's readback shows it (review 43)", () => {
      const output = `${'PASS case\n'.repeat(60_000)}FAIL test/ledger.spec.ts > handles refund ZK-4471`;
      const long = event(
        'long',
        functionResponse('run_tests', { content: [{ type: 'text', text: JSON.stringify({ output }) }] }),
      );
      expect(searchEvents([long], 'ZK-4471')[0]?.eventId).toBe('long');
      // Its tail read as values: "FAIL" there is a word of its own, above files full of "failover" (review 44).
      expect(searchEvents([long, ...files], 'FAIL')[0]?.eventId).toBe('long');
    });

    it('should not throw on a value whose toJSON misbehaves, nor read a text that is JSON as JSON text', () => {
      class Self {
        toJSON(): unknown {
          return this;
        }
      }
      const odd = event('odd', functionResponse('t', { a: new Self(), code: 'ZK-1' }));
      expect(() => searchEvents([odd], 'ZK-1')).not.toThrow();
      const json = event('json', modelText('{"result":"ok\nFAIL ledger ZK-88"}'));
      const inside = event('inside', modelText('failover ledger failover ledger'));
      expect(searchEvents([inside, json], 'FAIL ledger')[0]?.eventId).toBe('json');
    });
  });

  describe('turns', () => {
    it("should number a hit by the user's messages, an answer to a confirmation in the turn before it", () => {
      const at = (id: string, invocation: string, author: string, content: Content) =>
        event(id, content, { invocationId: invocation, author });
      const events = [
        at('ask-1', 'i1', 'user', userText('Check the weather in Paris.')),
        at('call', 'i1', 'worker', functionCall('get_weather', { city: 'Paris' })),
        at('confirm', 'i2', 'user', functionResponse('adk_request_confirmation', { confirmed: true })),
        at('result', 'i2', 'worker', functionResponse('get_weather', { report: 'rain in Paris' })),
        at('ask-2', 'i3', 'user', userText('And Berlin?')),
        at('answer', 'i3', 'worker', modelText('Sunny in Berlin.')),
      ];
      const turnOf = (query: string) => searchEvents(events, query)[0]?.turn;
      expect(turnOf('rain')).toBe(1);
      expect(turnOf('Sunny')).toBe(2);
      // A message that is only an image starts a turn too (review 28).
      const image: Content = { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] };
      const later = [...events, at('photo', 'i4', 'user', image), at('seen', 'i4', 'worker', modelText('A cat.'))];
      expect(searchEvents(later, 'cat')[0]?.turn).toBe(3);
    });
  });

  describe('snippets', () => {
    it('should show the matched text even when lower-casing changes the length of the text before it', () => {
      const text = `${'İ'.repeat(50)} ${'x'.repeat(600)} needle-42 ${'y'.repeat(600)}`;
      const [hit] = searchEvents([event('one', userText(text))], 'needle-42', { snippetChars: 200 });
      expect(hit?.snippet.length).toBeGreaterThan(100);
    });
  });
});

describe('readEvent', () => {
  it('should page through a long event without losing or repeating characters', () => {
    const text = Array.from({ length: 400 }, (_, i) => `line ${i}`).join('\n');
    const target = event('long', userText(text));
    let offset: number | undefined = 0;
    let read = '';
    while (offset !== undefined) {
      const page = readEvent(target, offset, 500);
      expect(page.text.length).toBeLessThanOrEqual(500);
      read += page.text;
      offset = page.nextOffset;
    }
    expect(read).toBe(`[user]: ${text}`);
  });
});
