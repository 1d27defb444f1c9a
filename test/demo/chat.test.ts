/** The demo end to end through its input stream, offline (no API key). */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runChat } from '../../demo/run-chat.js';

async function chat(lines: string[]): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const done = runChat({ input, output, env: {} });
  for (const line of lines) input.write(`${line}\n`);
  input.end();
  await done;
  return text;
}

describe('demo chat', () => {
  it('should answer, print a context meter after each turn, and run the commands', async () => {
    const turns = Array.from({ length: 14 }, (_, i) =>
      i % 2 === 0 ? `show me the logs of service-${i}` : `look up order ORD-${1000 + i}`,
    );
    const text = await chat([
      '/summary',
      ...turns.slice(0, 3),
      '/tokens',
      '/compact',
      ...turns.slice(3),
      '/status',
      '/summary',
      '/quit',
    ]);
    expect(text).toContain('Offline mode');
    expect(text).toContain('no summary yet');
    expect(text).toMatch(/ops_assistant: I read [\d,]+ characters from read_logs/);
    // A meter after each turn: "12K/32K (37.5%)"
    const meters = text.match(/^context: \d+(\.\d)?K?\/32K \(\d+(\.\d)?%\)/gm) ?? [];
    expect(meters.length).toBeGreaterThanOrEqual(turns.length + 1);
    expect(text).toContain('compaction requested');
    expect(text).toMatch(/~ compacted \d+ events: \d+ -> \d+ tokens/);
    expect(text).toMatch(/summary \(\d+ compactions\):\n## Current state/);
    expect(text).toMatch(/status: \{"agentName":"ops_assistant"/);
    expect(text).not.toContain('model error');
    expect(text.trim().endsWith('bye')).toBe(true);
  });
});
