/**
 * adk-context-guard: keeps Google ADK agents inside their model's context window.
 * Every public symbol is listed by name; this list is the API contract, and each name is
 * documented in README.md or docs/ (test/package/public-api.test.ts holds both to it, and fails
 * when a type that an exported signature names is not exported here too).
 * What the simulator, bench and tests need beyond it is in `./internal` (unstable).
 */
// The plugin, its options and what its methods take and return.
export { ContextGuard } from './context-guard.js';
export type { ContextGuardAgentCallbacks, StatusSession } from './context-guard.js';
export type {
  AgentPolicy,
  CompactionStrategy,
  ContextGuardOptions,
  GuardLogger,
  ResolvedPolicy,
  SummarizerOption,
  ToolDeclaration,
} from './options.js';
export type { StoredSession } from './adk/session-actions.js';
export type { SessionRef } from './adk/runtime/session-scope.js';
export type { CompactionListener } from './adk/hooks/compaction-reporter.js';
export type { AddPinResult, Pin, PinSource } from './memory/pins.js';
export { ContextGuardConfigError, ContextGuardPinError, isContextGuardConfigError } from './errors.js';
// Summaries and token counts.
export { llmSummarizer } from './adk/runtime/llm-summarizer.js';
export type { Summarizer, SummarizeRequest, SummarizeResult, SummarizerFailureKind } from './summary/summarizer.js';
export { splitDigitsTokenizer, tiktokenTokenizer } from './estimate/tokenizer.js';
export type { Tokenizer } from './estimate/tokenizer.js';
// Status and the audit record.
export { formatContextMeter } from './status/context-status.js';
export type { AgentContextStatus } from './status/context-status.js';
export type { WindowOrigin } from './usage/agent-usage-figures.js';
export type { AgentUsageFigures } from './usage/agent-usage-figures.js';
export type { CountedEvent } from './records/call-totals.js';
export type { CompactionFigures, CompactionRecord, CoveredEvents } from './records/compaction-record.js';
export type { CompactionReason } from './budget/compaction-reason.js';
export { compactionView } from './records/compaction-view.js';
export type { CompactionView, StoredEventLike } from './records/compaction-view.js';
export type { EventLike } from './records/map-contents-to-events.js';
// Cost.
export { priceFor } from './cost/price-table.js';
export type { ModelPrice, PriceTable } from './cost/price-table.js';
export { callCostUsd } from './cost/call-cost.js';
export type { CallTokens } from './cost/call-cost.js';
// Recall and pin tools.
export { contextRecallTool } from './adk/tools/recall-tool.js';
export type { ContextRecallToolOptions } from './adk/tools/recall-tool.js';
export type { FailureLogger } from './logging/failure-log.js';
export { pinContextTool } from './adk/tools/pin-tool.js';
export type { PinWriter } from './adk/tools/pin-tool.js';
// Tool-output truncation without the guard.
export { truncateToolOutput } from './truncation/truncate-tool-output.js';
export type {
  ToolTruncationRecord,
  TruncatedToolOutput,
  TruncateToolOutputInput,
} from './truncation/truncate-tool-output.js';
export type { ResolvedToolOutputLimits, ToolOutputLimits, ToolOutputTruncation } from './truncation/policy.js';
export { createToolOutputTruncator, asPluginAfterToolCallback } from './adk/tools/tool-output-callback.js';
export type {
  AgentAfterToolParams,
  PluginAfterToolParams,
  PluginToolOutputTruncator,
  ToolCallbackContext,
  ToolOutputTruncationSource,
  ToolOutputTruncator,
  ToolTruncationListener,
} from './adk/tools/tool-output-callback.js';
export { withArtifactOffload } from './adk/tools/offload-tool-output.js';
export { OFFLOAD_ARTIFACT_PREFIX, OFFLOAD_HANDLE_KEY } from './offload/artifact-handle.js';
export type {
  ArtifactOffloadOptions,
  OffloadingToolOutputTruncator,
  OffloadLogger,
} from './adk/tools/offload-tool-output.js';
// AGENTS.md instructions.
export { AgentsMdInstructionsPlugin } from './instructions/agents-md-plugin.js';
export type { AgentsMdInstructionsOptions } from './instructions/agents-md-plugin.js';
export { agentsMdInstruction } from './instructions/agents-md-instruction.js';
export type { AgentsMdInstructionProvider } from './instructions/agents-md-instruction.js';
export type { InstructionsCacheOptions } from './instructions/load-once.js';
export { loadInstructions } from './instructions/load-instructions.js';
export type {
  InstructionSource,
  InstructionSourceKind,
  InstructionTruncation,
  LoadedInstructions,
  LoadInstructionsOptions,
} from './instructions/load-instructions.js';
