/**
 * An agent whose requests keep so much (instruction, tools, pins, the turn's own messages) that the window leaves room
 * for a tool result or two compacts inside its own turn every few steps: each compaction is logged, but nothing said
 * why (the thirty-seventh outside trial: travel-concierge's planner under a 5k fixed part on 8k summarized every 2-3
 * steps of its loop). The third compaction of one turn is said once per agent, with what would stop it; and, warned
 * once per agent and window, a fixed part that leaves less room under the threshold than a turn adds (the sixty-third
 * trial: a compaction on 39 of 40 turns, each said at info only).
 */
import { BoundedMap } from '../../collections/bounded-map.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import type { GuardLogger } from '../../options.js';
import type { CompactionRecord } from '../../records/compaction-record.js';
import { WarnOnce } from '../runtime/warn-once.js';

/** Compactions of one turn after which the agent's turns are said to be crowded. */
const CROWDED_AT = 3;
/** Turns counted at once; the oldest are dropped first. */
const MAX_TURNS = 1_000;

export class CrowdedTurns {
  private readonly counts = new BoundedMap<string, number>(MAX_TURNS);
  private readonly said: WarnOnce;

  constructor(logger: GuardLogger) {
    this.said = new WarnOnce(logger);
  }

  /** Counts a compaction of `record`'s turn, and says once per agent when a turn reaches `CROWDED_AT`. */
  compacted(record: Pick<CompactionRecord, 'sessionId' | 'invocationId' | 'agentName'>): void {
    const key = JSON.stringify([record.sessionId, record.invocationId, record.agentName]);
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    if (count !== CROWDED_AT) return;
    this.said.inform(
      `crowded-turn\u0000${record.agentName}`,
      `${LOG_PREFIX} agent '${record.agentName}': compacted ${CROWDED_AT} times within one turn: what each request must keep (instruction, tools, pins, the turn's own messages, what other agents handed it since its latest answer) leaves the window room for only a tool result or two, so each new result needs a summary. A larger window, a shorter instruction, smaller tool results (toolOutputTruncation) or smaller hand-offs between agents (an outputKey summary; includeContents: 'none' for an agent fed by state alone) stop this.`,
    );
  }

  /** Warns once per agent and window that what every request keeps leaves the turns no room (budget/crowded-room.ts). */
  crowdedRoom(agentName: string, window: number, note: string): void {
    this.said.warn(`crowded-room\u0000${agentName}\u0000${window}`, `${LOG_PREFIX} agent '${agentName}': ${note}.`);
  }
}
