import { describe, expect, it } from 'vitest';
import { STATE_PREFIX, stateKeysFor } from './keys.js';

describe('stateKeysFor', () => {
  describe('key names', () => {
    it('should scope every key to the agent under one prefix', () => {
      const keys = stateKeysFor('worker');
      expect(keys.summary).toBe('context_guard:worker:summary');
      expect(keys.usage).toBe('context_guard:worker:usage');
      for (const key of Object.values(keys) as string[]) expect(key.startsWith(`${STATE_PREFIX}:worker:`)).toBe(true);
    });

    it("should never use ADK's reserved app:, user: or temp: prefixes (keys stay session-scoped)", () => {
      for (const key of Object.values(stateKeysFor('worker'))) expect(key).not.toMatch(/^(app|user|temp):/);
    });

    it('should give two agents distinct keys', () => {
      const worker = Object.values(stateKeysFor('worker'));
      const planner = Object.values(stateKeysFor('planner'));
      expect(worker.filter((key) => planner.includes(key))).toEqual([]);
    });
  });
});
