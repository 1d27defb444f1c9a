import { describe, expect, it } from 'vitest';
import type { Context } from '@google/adk';
import { userText } from '../../../test/support/builders.js';
import { tiktokenTokenizer } from '../../estimate/tokenizer.js';
import { contextRecallTool } from './recall-tool.js';
import { offloadArtifactName } from '../../offload/artifact-handle.js';

/** The two fields of a tool context the recall tool reads: the session's events and the calling agent's branch. */
function contextOn(branch: string, events: readonly unknown[]): Context {
  return { invocationContext: { branch, session: { events } } } as unknown as Context;
}

describe('the recall_history declaration', () => {
  it('should cost the o200k tokens README states, counted as its declaration is sent', () => {
    const tokens = tiktokenTokenizer.count(JSON.stringify(contextRecallTool()._getDeclaration()));
    console.log(`recall_history declaration: ${tokens} o200k tokens`);
    expect(tokens).toBe(206);
  });
});

describe('contextRecallTool', () => {
  describe('reading by event id', () => {
    const events = [
      { id: 'mine', author: 'worker', timestamp: 1, branch: 'root.worker', content: userText('my note') },
      { id: 'theirs', author: 'critic', timestamp: 2, branch: 'root.critic', content: userText('their secret') },
    ];

    it("should read an event on the calling agent's branch", async () => {
      const result = (await contextRecallTool().runAsync({
        args: { event_id: 'mine' },
        toolContext: contextOn('root.worker', events),
      })) as { text?: string };
      expect(result.text).toContain('my note');
    });

    it('should say that a pattern reads within one event or artifact when neither is given (trial 49)', async () => {
      const result = (await contextRecallTool().runAsync({
        args: { pattern: 'FAIL' },
        toolContext: contextOn('root.worker', events),
      })) as { error?: string };
      expect(result.error).toContain('`pattern` and `lines` read within one event_id or artifact');
      const bare = (await contextRecallTool().runAsync({
        args: {},
        toolContext: contextOn('root.worker', events),
      })) as {
        error?: string;
      };
      expect(bare.error).toBe('Give a query to search, or an event_id to read.');
    });

    it('should refuse an event another branch wrote, as search does', async () => {
      const result = (await contextRecallTool().runAsync({
        args: { event_id: 'theirs' },
        toolContext: contextOn('root.worker', events),
      })) as { error?: string; text?: string };
      expect(result.text).toBeUndefined();
      expect(result.error).toContain('No event theirs');
    });
  });

  describe('reading an artifact', () => {
    const OWN = offloadArtifactName('app', 'a', 'b', 'c');

    /** A tool context of the app `app` whose (session-scoped) artifact service holds one text per name. */
    function contextWith(artifacts: Record<string, string>, service = true): Context {
      const artifactService = {
        loadArtifact: async ({ filename }: { filename: string }) =>
          filename in artifacts ? { text: artifacts[filename] } : undefined,
      };
      return {
        invocationContext: {
          appName: 'app',
          branch: 'root',
          session: { events: [] },
          ...(service ? { artifactService } : {}),
        },
      } as unknown as Context;
    }

    it("should read only the guard's own offloaded results of its app, never another artifact of the session", async () => {
      const other = offloadArtifactName('other-app', 'a', 'b', 'c');
      const context = contextWith({
        'user:profile.json': '{"secret":1}',
        [OWN]: '{"output":"abcdef"}',
        [other]: '{"output":"theirs"}',
      });
      for (const artifact of ['user:profile.json', other]) {
        const refused = (await contextRecallTool().runAsync({ args: { artifact }, toolContext: context })) as {
          error?: string;
        };
        expect(refused.error).toContain('No stored tool result');
      }
      const read = (await contextRecallTool().runAsync({
        args: { artifact: OWN, offset: 3, length: 5 },
        toolContext: context,
      })) as { text?: string };
      expect(read.text).toBe('{"output":"abcdef"}'.slice(3, 8));
    });

    it('should answer with an error, not throw, without an artifact service', async () => {
      const result = (await contextRecallTool().runAsync({
        args: { artifact: OWN },
        toolContext: contextWith({}, false),
      })) as { error?: string };
      expect(result.error).toContain('No artifact service');
    });

    it('should refuse an artifactTimeoutMs a timer cannot honour', () => {
      for (const artifactTimeoutMs of [0, 1.5, 2 ** 31])
        expect(() => contextRecallTool({ artifactTimeoutMs })).toThrow(/artifactTimeoutMs/);
    });
  });
});
