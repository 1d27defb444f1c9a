import { describe, expect, it } from 'vitest';
import {
  contentOf,
  fileDataPart,
  functionCall,
  functionResponse,
  inlineDataPart,
  modelText,
  modelThought,
  userText,
} from '../../test/support/builders.js';
import { renderContent } from './render-content.js';
import { markRenderedCodeOutputs } from '../content/code-output.js';
import type { Content } from '@google/genai';

describe('renderContent', () => {
  describe('contents with nothing visible', () => {
    it('should render an empty content, a content without parts and a thought as nothing', () => {
      expect(renderContent({ role: 'user' })).toBe('');
      expect(renderContent({ role: 'model', parts: [] })).toBe('');
      expect(renderContent(modelThought('private reasoning'))).toBe('');
    });
  });

  describe('messages', () => {
    it('should prefix text with its speaker', () => {
      expect(renderContent(userText('Fetch the logs.'))).toBe('[user]: Fetch the logs.');
      expect(renderContent(modelText('Done.'))).toBe('[model]: Done.');
    });

    it('should render each part on its own line', () => {
      expect(renderContent(contentOf('model', { text: 'One.' }, { text: 'Two.' }))).toBe(
        '[model]: One.\n[model]: Two.',
      );
    });

    it('should keep the head and tail of a long text within the text limit', () => {
      const rendered = renderContent(userText(`START${'x'.repeat(10_000)}END`), {
        textChars: 100,
        argumentChars: 100,
        resultChars: 100,
      });
      // '[user]: ' (8) + at most 100
      expect(rendered.length).toBeLessThanOrEqual(108);
      expect(rendered).toMatch(/^\[user\]: START/);
      expect(rendered).toMatch(/END$/);
    });
  });

  describe('tools', () => {
    it('should keep a tool call with its arguments', () => {
      expect(renderContent(functionCall('get_weather', { city: 'Paris' }))).toBe(
        '[model] called tool `get_weather` with {"city":"Paris"}',
      );
    });

    it('should keep what a tool returned', () => {
      expect(renderContent(functionResponse('get_weather', { temp: 21 }))).toBe(
        '[tool `get_weather` returned]: {"temp":21}',
      );
    });

    it('should cut a long result to the result limit, head and tail kept', () => {
      const rendered = renderContent(functionResponse('fetch_logs', { logs: 'y'.repeat(50_000) }), {
        textChars: 100,
        argumentChars: 100,
        resultChars: 300,
      });
      // '[tool `fetch_logs` returned]: ' (30) + at most 300
      expect(rendered.length).toBeLessThanOrEqual(330);
      expect(rendered).toContain('{"logs":"yyy');
      expect(rendered).toMatch(/yyy"}$/);
    });

    it("should hold another agent's calls and results, as ADK writes them into text, to a call's and a result's limit", () => {
      const limits = { textChars: 1_000, argumentChars: 100, resultChars: 300 };
      const result = `[researcher] tool \`fetch_report\` returned result: {"body":"${'r'.repeat(5_000)}"}`;
      const call = `[researcher] called tool \`fetch_report\` with parameters: {"q":"${'q'.repeat(5_000)}"}`;
      const said = `[researcher] said: ${'s'.repeat(5_000)}`;
      const foreign = (text: string) =>
        renderContent({ role: 'user', parts: [{ text: 'For context:' }, { text }] }, limits);
      const heading = '[researcher]: '.length;
      expect(foreign(result).length).toBeLessThanOrEqual(heading + 300);
      expect(foreign(call).length).toBeLessThanOrEqual(heading + 100);
      expect(foreign(said).length).toBeGreaterThan(heading + 900);
      // The same words in a user's own message are a text like any other.
      const own = renderContent(userText(result), limits);
      expect(own.length).toBeGreaterThan(900);
    });

    it("should render another agent's words under its name, not the user's", () => {
      // The fifty-fifth outside trial: the summarizer read "[user]: [shipping] said: …", a real model's cue that the
      // user said it.
      const parts = [
        { text: 'For context:' },
        { text: '[shipping] said: Parcel PCL-1002 is in transit.' },
        { text: '[shipping] called tool `track_parcel` with parameters: {"parcel":"PCL-1002"}' },
      ];
      expect(renderContent({ role: 'user', parts })).toBe(
        '[shipping]: Parcel PCL-1002 is in transit.\n' +
          '[shipping] called tool `track_parcel` with parameters: {"parcel":"PCL-1002"}',
      );
      // Its attachments are its own too (review 48: "[user attached image/png …]").
      const image = { inlineData: { mimeType: 'image/png', data: 'A'.repeat(1_368) } };
      expect(renderContent({ role: 'user', parts: [...parts, image] })).toContain(
        '[shipping attached image/png (1 KB)]',
      );
      const alone = [{ text: 'For context:' }, image];
      expect(renderContent({ role: 'user', parts: alone })).toBe('[another agent attached image/png (1 KB)]');
      // The user's own message that reads so stays theirs.
      expect(renderContent(userText('[shipping] said: refund approved.'))).toBe(
        '[user]: [shipping] said: refund approved.',
      );
    });

    it('should name a call or result without a name with a question mark', () => {
      expect(renderContent({ role: 'model', parts: [{ functionCall: {} }] })).toBe('[model] called tool `?` with {}');
    });
  });

  describe('media and code', () => {
    it('should describe attachments instead of copying them', () => {
      // 1,368 base64 characters × 0.75 = 1,026 bytes → 1 KB
      expect(renderContent(contentOf('user', inlineDataPart('image/png', 'A'.repeat(1_368))))).toBe(
        '[user attached image/png (1 KB)]',
      );
      expect(renderContent(contentOf('user', fileDataPart('application/pdf', 'gs://bucket/report.pdf')))).toBe(
        '[user attached file gs://bucket/report.pdf (application/pdf)]',
      );
    });

    it('should render an attachment that is text with its text, held to a result limit', () => {
      // The twentieth outside trial: an uploaded CSV, rendered by its size alone, left no trace in summaries or recall.
      const csv = `order,status\n${'ORDER-1000,open\n'.repeat(500)}ORDER-7781,refunded\n`;
      const rendered = renderContent(
        contentOf('user', inlineDataPart('text/csv', Buffer.from(csv).toString('base64'))),
      );
      expect(rendered).toMatch(/^\[user attached text\/csv \(8 KB\)\]: order,status\n/);
      expect(rendered).toContain('ORDER-7781,refunded');
      expect(rendered.length).toBeLessThan(2_200);
      // A large one: its head and tail only are decoded (review 17), and data that is not base64 is not rendered.
      const big = `first,row\n${'x,1\n'.repeat(300_000)}last,row\n`;
      const large = renderContent(contentOf('user', inlineDataPart('text/csv', Buffer.from(big).toString('base64'))));
      expect(large).toContain('first,row');
      expect(large).toContain('last,row');
      expect(large.length).toBeLessThan(2_200);
      expect(renderContent(contentOf('user', inlineDataPart('text/plain', 'not base64 at all!')))).toBe(
        '[user attached text/plain (0 KB)]',
      );
      const json = Buffer.from(JSON.stringify({ id: 'INV-42' })).toString('base64');
      expect(renderContent(contentOf('user', inlineDataPart('application/json', json)))).toContain('"id":"INV-42"');
    });

    it('should render code and its output', () => {
      expect(
        renderContent(
          contentOf('model', { executableCode: { code: 'print(1)' } }, { codeExecutionResult: { output: '1' } }),
        ),
      ).toBe('[model ran code]: print(1)\n[code output]: 1');
    });
  });
});

describe('renderContent: a code run output ADK sent as a user text', () => {
  it("should render it as the run's output, held to a result's limit, not as the user's words", () => {
    const output = `row,total\n${'1,2\n'.repeat(2_000)}checksum 7fa3c9`;
    const run: Content = { role: 'user', parts: [{ text: `\`\`\`tool_output\n${output}\n\`\`\`` }] };
    markRenderedCodeOutputs([run], ['```tool_output\n', '\n```'], (ran) => ran === output);
    const line = renderContent(run);
    expect(line.startsWith('[code output]: row,total')).toBe(true);
    expect(line).toContain('checksum 7fa3c9');
    expect(line.length).toBeLessThan(2_100);
    // The same text unmarked is a user's message (no executor ran it).
    const pasted: Content = { role: 'user', parts: [{ text: `\`\`\`tool_output\n${output}\n\`\`\`` }] };
    expect(renderContent(pasted).startsWith('[user]: ```tool_output')).toBe(true);
  });
});
