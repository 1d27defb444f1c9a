/**
 * Background compaction, the shell's part: summaries prepared ahead of the
 * threshold, started without being awaited and kept in this process, one per
 * session and agent (the queue's key: app, user, session, agent), so nothing
 * prepared for one session can reach another. The decision is handed the
 * entry of its key and says whether to apply it, keep it or drop it.
 *
 * A preparation never rejects: a catch is attached when it starts, and the
 * summarizer's own failures are already the fallback summary. The map is
 * bounded; the least recently started entries go first (their calls go on
 * and their result is ignored). What a preparation settles with is also written to the
 * session (adk/runtime/replica-prepared.ts), so another replica, or this one after a restart, can apply it.
 */
import type { GuardLogger } from '../../options.js';
import type { PreparationRequest } from '../../preparation/plan.js';
import type { PreparedHandle } from '../../preparation/prepared-summary.js';
import type { NewSummary } from '../../summary/new-summary.js';
import { logFailure } from '../../logging/failure-log.js';
import { summaryIdentity } from '../../preparation/prepared-record.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { BoundedMap } from '../../collections/bounded-map.js';

/** Sessions with a summary in preparation, at most. */
const MAX_PREPARED_SUMMARIES = 1_000;

/** What a decision says about preparation (fields of `GuardRequestResult`). */
interface DecisionOnPrepared {
  readonly preparation?: PreparationRequest | undefined;
  readonly preparedDropped?: string | undefined;
  readonly summary?: unknown;
}

/** A preparation of this process, named by the id its claim carries in state. */
export interface LocalPrepared extends PreparedHandle {
  readonly id: string | undefined;
}

interface Entry extends LocalPrepared {
  readonly settled: () => boolean;
}

/**
 * How a preparation is named, and what is done with its summary once made: its bill recorded whatever
 * became of it (the provider bills it), and the summary written to the session while it may still be
 * applied (`current`).
 */
export interface PreparationHooks {
  readonly id?: string | undefined;
  readonly onPrepared?: ((prepared: NewSummary, current: boolean) => void) | undefined;
}

/** Called when a preparation settles: how long the summarizer took, for telemetry. */
type PreparedListener = (agentName: string, summarizerMs: number, fallback: boolean) => void;

export class PreparedSummaries {
  private readonly entries: BoundedMap<string, Entry>;

  constructor(
    private readonly logger: GuardLogger,
    private readonly onSettled: PreparedListener = () => undefined,
    max = MAX_PREPARED_SUMMARIES,
  ) {
    this.entries = new BoundedMap(max);
  }

  /** The summary prepared for `key`, if any. */
  get(key: string): LocalPrepared | undefined {
    return this.entries.get(key);
  }

  /** True while a summary for `key` is being prepared (started, not settled). */
  preparing(key: string): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && !entry.settled();
  }

  /** Starts preparing `request` for `key`, replacing any entry of that key; `run` makes the summary. */
  start(
    key: string,
    agentName: string,
    request: PreparationRequest,
    run: () => Promise<NewSummary>,
    hooks: PreparationHooks = {},
  ): void {
    const startedAt = Date.now();
    let settled = false;
    this.logger.debug(
      `${LOG_PREFIX} agent '${agentName}': preparing a summary ahead of the threshold (contents before ${request.watermark.covered}).`,
    );
    const result: Promise<NewSummary | undefined> = Promise.resolve()
      .then(run)
      .then(
        (prepared) => {
          settled = true;
          this.onSettled(agentName, Date.now() - startedAt, prepared.record.fallback);
          // Only while it may still be applied does it need a copy in the session: once a summary was stored (from
          // it or not) or it was replaced, only its bill is recorded.
          hooks.onPrepared?.(prepared, this.entries.get(key) === entry);
          return prepared;
        },
        (error: unknown) => {
          settled = true;
          logFailure(
            this.logger,
            'error',
            `${LOG_PREFIX} a background summary failed; the next compaction summarizes itself.`,
            error,
          );
          return undefined;
        },
      );
    const entry: Entry = {
      id: hooks.id,
      previous: summaryIdentity(request.previous),
      watermark: request.watermark,
      answers: request.answers,
      settled: () => settled,
      take: async () => {
        const waitFrom = Date.now();
        const wasSettled = settled;
        const prepared = await result;
        return { prepared, waitedMs: wasSettled ? 0 : Date.now() - waitFrom };
      },
    };
    this.entries.set(key, entry);
  }

  /**
   * After a decision on `key` that was handed `used`: forgets it once a summary was stored (from it
   * or not) or it no longer applies, and starts the preparation the decision asked for.
   */
  afterDecision(
    key: string,
    agentName: string,
    used: PreparedHandle | undefined,
    result: DecisionOnPrepared,
    run: (request: PreparationRequest) => Promise<NewSummary>,
    hooks: PreparationHooks = {},
  ): void {
    if (used && (result.preparedDropped !== undefined || result.summary !== undefined)) this.drop(key, used);
    const { preparation } = result;
    if (preparation) this.start(key, agentName, preparation, () => run(preparation), hooks);
  }

  /** Forgets the entry of `key` if it is still `handle` (applied, or no longer valid). */
  drop(key: string, handle?: PreparedHandle): void {
    if (handle === undefined || this.entries.get(key) === handle) this.entries.delete(key);
  }

  /** Forgets every entry whose key starts with `prefix` (`forgetSession`). */
  forgetPrefix(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
