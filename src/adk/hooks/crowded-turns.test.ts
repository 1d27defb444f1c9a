import { describe, expect, it } from 'vitest';
import { CapturingLogger } from '../../testing/capturing-logger.js';
import { CrowdedTurns } from './crowded-turns.js';

const record = (invocationId: string, agentName = 'planner') => ({ sessionId: 's-1', invocationId, agentName });

describe('CrowdedTurns', () => {
  it('should say once per agent that a turn compacted three times, and why', () => {
    const logger = new CapturingLogger();
    const turns = new CrowdedTurns(logger);
    turns.compacted(record('inv-1'));
    turns.compacted(record('inv-2'));
    turns.compacted(record('inv-1'));
    expect(logger.matching(/compacted 3 times within one turn/)).toHaveLength(0);
    turns.compacted(record('inv-1'));
    const said = logger.matching(/agent 'planner': compacted 3 times within one turn/);
    expect(said).toHaveLength(1);
    expect(said[0]?.level).toBe('info');
    expect(said[0]?.message).toContain('toolOutputTruncation');
    for (let n = 0; n < 5; n++) turns.compacted(record('inv-3'));
    expect(logger.matching(/agent 'planner': compacted 3 times/)).toHaveLength(1);
    for (let n = 0; n < 3; n++) turns.compacted(record('inv-4', 'booker'));
    expect(logger.matching(/agent 'booker': compacted 3 times/)).toHaveLength(1);
  });
});
