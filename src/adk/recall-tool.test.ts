import { describe, expect, it } from 'vitest';
import type { Context } from '@google/adk';
import { userText } from '../../test/support/builders.js';
import { contextRecallTool } from './recall-tool.js';

/** The two fields of a tool context the recall tool reads: the session's events and the calling agent's branch. */
function contextOn(branch: string, events: readonly unknown[]): Context {
  return { invocationContext: { branch, session: { events } } } as unknown as Context;
}

describe('contextRecallTool', () => {
  describe('reading by event id', () => {
    const events = [
      { id: 'mine', author: 'worker', timestamp: 1, branch: 'root.worker', content: userText('my note') },
      { id: 'theirs', author: 'critic', timestamp: 2, branch: 'root.critic', content: userText('their secret') },
    ];

    it("should read an event on the calling agent's branch", async () => {
      const result = (await contextRecallTool().runAsync({ args: { event_id: 'mine' }, toolContext: contextOn('root.worker', events) })) as { text?: string };
      expect(result.text).toContain('my note');
    });

    it('should refuse an event another branch wrote, as search does', async () => {
      const result = (await contextRecallTool().runAsync({ args: { event_id: 'theirs' }, toolContext: contextOn('root.worker', events) })) as { error?: string; text?: string };
      expect(result.text).toBeUndefined();
      expect(result.error).toContain('No event theirs');
    });
  });
});
