/**
 * An agent's first call of a session, told from its usage record: no call counted yet, and not the retry of a
 * rejected one (a rejection forces a compaction). Read by the first-message rule (pipeline/fit-request.ts) and by
 * the correction another agent learned (usage/sibling-correction.ts).
 */

/** What tells an agent's first call of a session from its usage record. */
export type FirstCallUsage = { readonly modelCalls: number; readonly forceCompaction: boolean };

export function isFirstCall(usage: FirstCallUsage): boolean {
  return usage.modelCalls === 0 && !usage.forceCompaction;
}
