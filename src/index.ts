/**
 * adk-context-guard: keeps Google ADK agents inside their model's context window.
 * Every public symbol is listed by name; this list is the API contract.
 */
export { ContextGuard, isContextGuard } from './context-guard.js';
export type { ContextGuardAgentCallbacks } from './context-guard.js';
export { ContextGuardConfigError, isContextGuardConfigError } from './errors.js';
export { POLICY_DEFAULTS, resolvePolicy, validateOptions } from './options.js';
export type { AgentPolicy, CompactionStrategy, ContextGuardOptions, GuardLogger, ResolvedPolicy, SummarizerOption } from './options.js';
export { llmSummarizer } from './adk/llm-summarizer.js';
export type { Summarizer, SummarizeRequest, SummarizeResult } from './compaction/summarizer.js';
export { charsPerTokenTokenizer, tiktokenTokenizer } from './estimate/tokenizer.js';
export type { Tokenizer } from './estimate/tokenizer.js';
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
export { agentStatus, formatContextMeter, guardedAgents } from './status/guard-status.js';
export type { AgentContextStatus } from './status/guard-status.js';
export { COMPACTION_METADATA_KEY, decodeCompactionRecord } from './records/compaction-record.js';
export type { CompactionRecord, CoveredEvents } from './records/compaction-record.js';
export { compactionView } from './records/compaction-view.js';
export type { CompactionView, StoredEventLike } from './records/compaction-view.js';
export { ContextGuardPinError, isContextGuardPinError } from './errors.js';
export { contextRecallTool, isContextRecallTool, RECALL_TOOL_NAME } from './adk/recall-tool.js';
export type { ContextRecallToolOptions } from './adk/recall-tool.js';
export { pinContextTool, PIN_TOOL_NAME } from './adk/pin-tool.js';
export { ALL_AGENTS, PINNED_MARKER } from './memory/pins.js';
export type { Pin, PinSource } from './memory/pins.js';
export type { DurableFact } from './memory/durable-facts.js';
export { searchEvents } from './recall/search-events.js';
export type { RecallHit, SearchableEvent } from './recall/search-events.js';
