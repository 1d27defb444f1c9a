/**
 * The shape of a simulator scenario: plain data (JSON-serialisable), so a
 * scenario reads like the seed's tables and the report can print it.
 * Sizes are characters; the ground truth turns them into tokens
 * (characters / 4 x the scenario's ratio in `ratio` mode).
 */

import type { PayloadShape, SummarizerBehavior } from '../src/testing/index.js';
import type { RecordedRun } from './trajectories/recorded-run.js';

export type { PayloadShape, SummarizerBehavior };

/** One function call the scripted model makes. */
export interface ToolCallSpec {
  /** Characters of the tool's result. */
  readonly size: number;
  readonly shape: PayloadShape;
}

/** One model step: every call in it goes out in one model content (parallel calls). */
export type StepSpec = readonly ToolCallSpec[];

/** The tool work of one user turn: steps in order (a sequential chain has one call per step). */
export type TurnTools = readonly StepSpec[];

/** Media the user attaches to a message. */
export interface AttachmentSpec {
  readonly kind: 'png' | 'pdf';
  /** Base64 characters of the attachment. */
  readonly base64Chars: number;
  /** Image size in pixels (png) or page count (pdf). */
  readonly width?: number;
  readonly height?: number;
  readonly pages?: number;
}

/** What one turn looks like; `tools` cycle over the turns (turn 1 uses index 0). */
export interface TurnPattern {
  /** Tool work per turn, cycled: `[[], [], [[a, b]]]` is "every third turn, a and b in parallel". */
  readonly tools: readonly TurnTools[];
  /** Characters of the user's message, cycled over turns. @default [160] */
  readonly messageChars?: readonly number[];
  /** Characters of the model's final text answer, cycled over turns. @default [120] */
  readonly responseChars?: readonly number[];
  /** Attachments per turn, cycled (an empty list: none that turn). */
  readonly attachments?: readonly (readonly AttachmentSpec[])[];
}

/** The real tokens-per-(characters/4) ratio: fixed, a linear drift, or steps at given turns. */
export type RatioSpec =
  | number
  | { readonly from: number; readonly to: number }
  | { readonly steps: readonly (readonly [turn: number, ratio: number])[] };

/** When the provider reports `usageMetadata`. */
export type UsageSpec = 'always' | 'never' | { readonly fromTurn: number };

export interface SummarizerSpec {
  /** Behaviour of every call, or a list cycled over calls. @default 'ok' */
  readonly behavior?: SummarizerBehavior | readonly SummarizerBehavior[];
}

/** The agents of a scenario. */
export type AgentTopology =
  /** One LlmAgent `worker` (the default). */
  | 'single'
  /** `router` transfers every turn to `worker`, which does the tool work and transfers back. */
  | 'transfer'
  /** A SequentialAgent: `researcher` does the tool work, then `writer` answers from it. */
  | 'pipeline'
  /** `lead` hands every turn to `researcher`, an `AgentTool` child (ADK runs it without plugins), which does the tool work. */
  | 'agent-tool';

/** Tool work whose model reads back and repeats calls (simulator/tool-work.ts). */
export type ToolWorkKind = 'log-search' | 'repeat-read' | 'budget-line';

/** Claims about a `work` scenario's run, read from its events, its tools and the guard's status. */
export interface ToolWorkExpectations {
  /** The final answer contains this exact value. */
  readonly answerContains: string;
  /** The value was not in the request the question first reached the model in: it had to be recovered. */
  readonly lostAtQuestion?: boolean;
  /** Exactly this many recall calls. */
  readonly recallCalls?: number;
  /** Each recall answer is at most this many characters of JSON. */
  readonly maxRecallResultChars?: number;
  /** Exactly this many function calls of each tool named. */
  readonly toolCalls?: Readonly<Record<string, number>>;
  /** Exactly this many real executions of each tool named. */
  readonly toolRuns?: Readonly<Record<string, number>>;
  /** Exactly this many calls answered from their stored result, each with its age (`status().storedAnswers`). */
  readonly storedAnswers?: number;
  /** Exactly this many recall calls by line or pattern (`status().recallLineReads`). */
  readonly recallLineReads?: number;
  /**
   * true: every agent request ends with the budget line, the model quotes each line's percentage,
   * no stored event, state or summary request holds it, `status().budgetLines` equals the agent's
   * calls, and the context was reduced meanwhile. false: no request holds a line.
   */
  readonly budgetLine?: boolean;
}

/** Claims a scenario makes about the ContextGuard run; each is checked. */
export interface ScenarioExpectations {
  /** Bounds on the guard's compactions (summed over agents); `max` applies to the threshold strategy only. */
  readonly compactions?: { readonly min?: number; readonly max?: number };
  /** Requests the model may reject (a documented limit). @default 0 */
  readonly maxRejected?: number;
  /** Requests ADK built (before the guard) that were over the window: proves the scenario is a real stress. */
  readonly rawOverWindow?: { readonly min: number };
  /** At least one tool result reached the model shrunk (it alone did not fit). */
  readonly shrunkToolResult?: boolean;
  /** At least one compaction used the mechanical fallback summary. */
  readonly fallbackSummary?: boolean;
  /** At least one compaction happened in the middle of a tool chain (not on a turn's first call). */
  readonly compactedMidChain?: boolean;
  /** The largest request stays under this fraction of the window. */
  readonly peakBelow?: number;
  /** At least one request carried a content with this many merged parallel function responses. */
  readonly parallelResponses?: number;
  /** Every agent of the topology compacted at least once (per-agent state works). */
  readonly everyAgentCompacted?: boolean;
  /** The turn's user message (text and attachments, verbatim) is in every request of its turn. */
  readonly currentRequestIntact?: boolean;
  /** At most this many summarizer calls (a compaction that cannot help must not be retried on every call). */
  readonly summarizerCalls?: { readonly max: number };
  /** What a `work` scenario's model recovered, and which tool calls ran. */
  readonly toolWork?: ToolWorkExpectations;
}

export interface ScenarioSpec {
  readonly name: string;
  /** Seed category, or `extra` for scenarios added where the seed has gaps. */
  readonly group: 'stress' | 'brutal' | 'sequential' | 'extra' | 'replay';
  /** One sentence: what the name claims. */
  readonly claim: string;
  readonly window: number;
  readonly turns: number;
  readonly ratio: RatioSpec;
  readonly usage: UsageSpec;
  /**
   * The guard is not told the window (no `contextWindow`) and the model's name is in no registry,
   * so it assumes its default until the provider states the real window in a rejection.
   */
  readonly windowUnknown?: boolean;
  /** Characters of the agent's instruction (the system prompt). @default 400 */
  readonly systemPromptChars?: number;
  /** Extra tool declarations the model never calls (schemas the request carries). @default 0 */
  readonly extraToolDeclarations?: number;
  readonly turnPattern: TurnPattern;
  readonly agents?: AgentTopology;
  readonly summarizer?: SummarizerSpec;
  /** Guard options beyond `contextWindow` and `summarizer` (numbers and booleans only). */
  readonly guard?: {
    readonly summarizerTimeoutMs?: number;
    readonly bufferRatio?: number;
    readonly maskKeepRecent?: number;
    readonly maskStaleOutputTokens?: number;
    /** Per-tool declarations (`tools` option), e.g. a tool declared read-only. */
    readonly tools?: Readonly<Record<string, { readonly readOnly?: boolean; readonly reuseResult?: boolean }>>;
    /** The budget the model sees: every request ends with one line of figures. */
    readonly budgetLine?: boolean;
  };
  readonly expect?: ScenarioExpectations;
  /**
   * A recorded public run replayed whole (simulator/trajectories/): its system prompt is the
   * agent's instruction, its user messages the turns, the model answers each step as recorded
   * and each tool returns its recorded output; `turnPattern` is then unused.
   */
  readonly replay?: RecordedRun;
  /**
   * Tool work read back and repeated (simulator/tool-work.ts): its tools, user messages (`turns`
   * of them) and a model that decides from what it was sent; `turnPattern` is then unused. Runs
   * with an artifact service, so cut results are offloaded. `offTwin` names the scenario that
   * differs only by the feature off (the report compares the two).
   */
  readonly work?: { readonly kind: ToolWorkKind; readonly offTwin?: string };
  /** The strategies (by name) this scenario runs under; absent: every one. */
  readonly strategies?: readonly string[];
}
