/**
 * adk-context-guard/internal: the names the simulator, the bench and the tests use beyond the
 * public root (src/index.ts). Unstable: any of them may change or go in any release; an
 * application should not import from here (docs/testing.md says so).
 */
export { isContextGuard } from './context-guard.js';
export type { ContextGuardAgentCallbacks } from './context-guard.js';
export { isContextGuardConfigError } from './errors.js';
export { POLICY_DEFAULTS, resolvePolicy, validateOptions } from './options.js';
export type { AgentPolicy, CompactionStrategy, GuardLogger, ResolvedPolicy, SummarizerOption } from './options.js';
export type { SummarizeRequest, SummarizeResult } from './compaction/summarizer.js';
export { charsPerTokenTokenizer } from './estimate/tokenizer.js';
export { DEFAULT_CONTEXT_WINDOW, normalizeModelName, resolveContextWindow } from './estimate/model-registry.js';
export type { ResolvedWindow, WindowSource } from './estimate/model-registry.js';
export { calibrate, correctionFactor, DEFAULT_CORRECTION, parseOverflowError } from './estimate/calibration.js';
export { computeBudget, defaultBuffer } from './budget/compute-budget.js';
export type { Budget } from './budget/compute-budget.js';
export { estimateContentTokens } from './estimate/estimate-content.js';
export { decodeSummaryRecord, decodeUsageRecord } from './state/guard-state.js';
export type { SummaryRecord, UsageRecord } from './state/guard-state.js';
export { STATE_PREFIX, stateKeysFor } from './state/state-keys.js';
export type { GuardStateKeys } from './state/state-keys.js';
export { SUMMARY_MARKER } from './compaction/inject-summary.js';
export type { CompactionOutcome } from './guard/guard-request.js';
export { agentStatus, guardedAgents } from './status/guard-status.js';
export { DEFAULT_PRICES } from './cost/price-table.js';
export type { ModelPrice, PriceTable } from './cost/price-table.js';
export type { CallTokens } from './cost/call-cost.js';
export { COMPACTION_METADATA_KEY, decodeCompactionRecord } from './records/compaction-record.js';
export type { CoveredEvents } from './records/compaction-record.js';
export type { CompactionView, StoredEventLike } from './records/compaction-view.js';
export { isContextGuardPinError } from './errors.js';
export { isContextRecallTool, RECALL_TOOL_NAME } from './adk/recall-tool.js';
export type { ContextRecallToolOptions } from './adk/recall-tool.js';
export { PIN_TOOL_NAME } from './adk/pin-tool.js';
export { ALL_AGENTS, PINNED_MARKER } from './memory/pins.js';
export type { Pin, PinSource } from './memory/pins.js';
export type { DurableFact } from './memory/durable-facts.js';
export { searchEvents } from './recall/search-events.js';
export type { RecallHit, SearchableEvent } from './recall/search-events.js';
export { countResultLines, TRUNCATED_RESULT_KEY } from './truncation/truncate-tool-output.js';
export type {
  ToolTruncationRecord,
  TruncatedToolOutput,
  TruncateToolOutputInput,
} from './truncation/truncate-tool-output.js';
export {
  TOOL_OUTPUT_DEFAULTS,
  resolveToolOutputLimits,
  validateToolOutputTruncation,
} from './truncation/truncation-policy.js';
export type { ToolOutputLimits, ResolvedToolOutputLimits } from './truncation/truncation-policy.js';
export type { OffloadingToolOutputTruncator, OffloadLogger } from './adk/offload-tool-output.js';
export { OFFLOAD_ARTIFACT_PREFIX, OFFLOAD_HANDLE_KEY } from './offload/artifact-handle.js';
export type {
  ToolOutputTruncator,
  PluginToolOutputTruncator,
  ToolTruncationListener,
  ToolOutputTruncationSource,
  AgentAfterToolParams,
  ToolCallbackContext,
} from './adk/tool-output-callback.js';
export {
  findProjectRoot,
  instructionHeader,
  AGENTS_MD,
  DEFAULT_INSTRUCTIONS_MAX_BYTES,
  DEFAULT_PROJECT_MARKERS,
} from './instructions/load-instructions.js';
export type {
  LoadInstructionsOptions,
  LoadedInstructions,
  InstructionSource,
  InstructionSourceKind,
  InstructionTruncation,
} from './instructions/load-instructions.js';
export type { AgentsMdInstructionsOptions } from './instructions/instructions-plugin.js';
export type { AgentsMdInstructionProvider } from './instructions/agents-md-instruction.js';
export type { InstructionsCacheOptions } from './instructions/instructions-cache.js';
// Measured by the bench's micro-benchmarks (bench/steady.ts, bench/worst-case.ts).
export { ContentMeasureCache } from './estimate/content-measure-cache.js';
export { fingerprint } from './estimate/fingerprint.js';
export { safeJson } from './estimate/json-text.js';
export { buildSummaryPrompt } from './compaction/summary-prompt.js';
export { renderContent } from './compaction/render-content.js';
export { mapContentsToEvents } from './records/map-contents-to-events.js';
