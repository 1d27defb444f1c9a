/**
 * adk-context-guard: keeps Google ADK agents inside their model's context window.
 * Every public symbol is listed by name; this list is the API contract, and each name is
 * documented in README.md or docs/ (test/package/public-api.test.ts holds both to it).
 * What the simulator, bench and tests need beyond it is in `./internal` (unstable).
 */
export { ContextGuard } from './context-guard.js';
export type { ContextGuardOptions } from './options.js';
export type { AgentContextStatus } from './status/guard-status.js';
export type { CompactionRecord } from './records/compaction-record.js';
export { ContextGuardConfigError, ContextGuardPinError } from './errors.js';
export { llmSummarizer } from './adk/llm-summarizer.js';
export type { Summarizer } from './compaction/summarizer.js';
export { tiktokenTokenizer } from './estimate/tokenizer.js';
export type { Tokenizer } from './estimate/tokenizer.js';
export { formatContextMeter } from './status/guard-status.js';
export { compactionView } from './records/compaction-view.js';
export { priceFor } from './cost/price-table.js';
export { callCostUsd } from './cost/call-cost.js';
export { contextRecallTool } from './adk/recall-tool.js';
export { pinContextTool } from './adk/pin-tool.js';
export { truncateToolOutput } from './truncation/truncate-tool-output.js';
export type { ToolOutputTruncation } from './truncation/truncation-policy.js';
export { createToolOutputTruncator, asPluginAfterToolCallback } from './adk/tool-output-callback.js';
export type { PluginAfterToolParams } from './adk/tool-output-callback.js';
export { withArtifactOffload } from './adk/offload-tool-output.js';
export { AgentsMdInstructionsPlugin } from './instructions/instructions-plugin.js';
export { agentsMdInstruction } from './instructions/agents-md-instruction.js';
export { loadInstructions } from './instructions/load-instructions.js';
