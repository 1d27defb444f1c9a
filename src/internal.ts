/**
 * adk-context-guard/internal: the names the simulator, the bench and the tests use beyond the
 * public root (src/index.ts), and nothing else (src/unused-exports.test.ts fails on a name none of
 * them uses). Unstable: any of them may change or go in any release; an application should not
 * import from here (docs/testing.md says so).
 */
// Recognising a guard from another copy of the package (test/package/build.test.ts).
export { isContextGuard } from './context-guard.js';
// Policy resolution (simulator strategies, isolation tests, the bench's harness).
export { POLICY_DEFAULTS } from './options.js';
export { resolvePolicy } from './policy/resolve-policy.js';
// The state keys and the records the guard keeps in state and on events.
export { decodeSummaryRecord } from './summary/stored-summary.js';
export { decodeUsageRecord } from './usage/stored-usage.js';
export type { SummaryRecord } from './summary/stored-summary.js';
export type { UsageRecord } from './usage/stored-usage.js';
export { stateKeysFor } from './state/keys.js';
export { COMPACTION_METADATA_KEY, decodeCompactionRecord } from './records/compaction-record.js';
// Markers and names the guard writes into requests and artifacts.
export { SUMMARY_MARKER } from './summary/inject-summary.js';
export { PINNED_MARKER } from './memory/pins.js';
// The pins stored in a session's state, whichever key they are under (tests read state through it).
export { storedPins } from './memory/stored-pins.js';
export { RECALL_TOOL_NAME } from './adk/tools/recall-tool.js';
// The budget the simulator reports against.
export { computeBudget } from './budget/compute-budget.js';
// Measured by the bench's micro-benchmarks (bench/steady.ts, bench/worst-case.ts).
export { ContentMeasureCache } from './estimate/content-measure-cache.js';
export { fingerprint, fingerprintOfKept } from './estimate/fingerprint.js';
export { keepCopy } from './estimate/kept-content.js';
export { safeJson } from './estimate/json-text.js';
export { buildSummaryPrompt } from './summary/prompt.js';
export { renderContent } from './summary/render-content.js';
export { mapContentsToEvents } from './records/map-contents-to-events.js';
export { callCostParts } from './cost/call-cost.js';
export { cacheTermsFor } from './cost/cache-terms.js';
