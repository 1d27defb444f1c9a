/**
 * Masking for cost replaces tool results the next turns may still need, and ADK's tools say
 * nothing of side effects, so a masked result must stay readable without calling its tool again.
 * Wherever masking for cost is on and the agent has no recall tool, the guard may declare its own;
 * it sends it from the first call that masks, summarizes or follows a cut result, and on every
 * call after (recall/declaration.ts: `recallDue`), so a session that never needs it pays nothing
 * for it and the tools sent change at most once, on a call that rewrites the prefix anyway.
 *
 * ADK 2.0.0 (`agents/llm_agent.js`): `runOneStepAsync` builds one `llmRequest` per step, the
 * agent's tools add themselves with `processLlmRequest` (into `toolsDict` and `config.tools`),
 * then the plugins' and the agent's `beforeModelCallback` get that same object, the model gets
 * it, and `postprocess` dispatches the response's function calls through its `toolsDict`
 * (`handleFunctionCallsAsync`). So a tool added there in `beforeModelCallback` is sent and
 * called like one of the agent's own, in the plugin and the agent-callback forms alike.
 */
import type { Tool } from '@google/genai';
import type { Context, FunctionTool, LlmRequest } from '@google/adk';
import { estimateFixedTokens, type FixedTokens, type TokenMemo } from '../../estimate/estimate-request.js';
import { safeJson } from '../../estimate/json-text.js';
import type { Tokenizer } from '../../estimate/tokenizer.js';
import { crowdedByFixedPart, shouldDeclareRecall, withinWindowShare } from '../../recall/declaration.js';
import { maskingForCostOn } from '../../masking/mask-stale-output.js';
import type { ResolvedPolicy } from '../../options.js';
import { contextRecallTool, isContextRecallTool } from './recall-tool.js';
import type { WarnOnce } from '../runtime/warn-once.js';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import { ownToolsRefusal } from './own-tools-refusal.js';

/** The recall tool the guard may declare in an invocation, by agent: a tool result cut in that step names it (and so makes it due). */
const declaredIn = new WeakMap<object, Map<string, string>>();

/** The name of the recall tool the guard may declare on this agent's requests in this invocation, if any. */
export function declaredRecallToolName(context: Context): string | undefined {
  return declaredIn.get(context.invocationContext)?.get(context.agentName);
}

export class RecallToolDeclarer {
  /** One tool for every agent: it holds no state, each call reads its own session through its context. */
  private readonly tool: FunctionTool = contextRecallTool();
  /** Its declaration's tokens: the tool and its declaration never change, so they are estimated once. */
  private ownTokens: number | undefined;
  /** What the declaration adds appended to an entry's list: alone in it, or after other declarations. */
  private appended: { readonly alone: number; readonly afterOthers: number } | undefined;

  constructor(
    private readonly warnings: WarnOnce,
    private readonly tokenizer: Tokenizer,
    private readonly memo: TokenMemo,
  ) {}

  /** Heuristic tokens of the recall tool's declaration, as it is sent. */
  declarationTokens(): number {
    this.ownTokens ??= this.estimateDeclaration();
    return this.ownTokens;
  }

  /**
   * Heuristic tokens the declaration adds to `request`'s tools where ADK's `processLlmRequest` puts it (into the
   * first entry holding function declarations, else an entry of its own): the estimate of a request it is added to
   * after the decision is the request's own (CI: the declaration alone, framed as an entry, was 30 characters more).
   * Asked on every call while the tool is pending, so the agent's tools are never serialised for it: appended to an
   * entry, the entry's JSON grows by the declaration's (and a comma), counted once.
   */
  addedTokens(request: LlmRequest): number {
    const entry = (request.config?.tools ?? []).find((tool) => 'functionDeclarations' in tool) as Tool | undefined;
    if (entry === undefined) return this.declarationTokens();
    const listed = (entry.functionDeclarations?.length ?? 0) > 0;
    this.appended ??= this.estimateAppended();
    return listed ? this.appended.afterOthers : this.appended.alone;
  }

  private estimateAppended(): { readonly alone: number; readonly afterOthers: number } {
    const declaration = this.tool._getDeclaration();
    const text = declaration ? safeJson(declaration) : '';
    return { alone: this.memo.count(text, this.tokenizer), afterOthers: this.memo.count(`,${text}`, this.tokenizer) };
  }

  private estimateDeclaration(): number {
    const declaration = this.tool._getDeclaration();
    const fixed = estimateFixedTokens(
      undefined,
      declaration ? [{ functionDeclarations: [declaration] }] : [],
      this.tokenizer,
      this.memo,
    );
    return fixed.toolTokens;
  }

  /**
   * The name of the recall tool the guard may add to `request`: when masking for cost is on for
   * the agent, it has none, and the declaration fits a `window` not already mostly fixed text
   * (recall/declaration.ts). A tool of the agent's own with the same name is left alone (one
   * warning): masking for cost then stays off for the agent, since nothing could read a masked
   * result back. `fixed`: the estimate of `request`'s system instruction and tools as they are now;
   * `declaredBefore`: the session's requests of the agent carried it (it then stays: recall/declaration.ts).
   */
  permitted(
    context: Context,
    request: LlmRequest,
    policy: ResolvedPolicy,
    window: number,
    fixed: Pick<FixedTokens, 'systemTokens' | 'toolTokens'> & { readonly declaredBefore: boolean },
  ): { readonly name: string } | undefined {
    const fixedTokens = fixed.systemTokens + fixed.toolTokens;
    const shares = { policy, fixedTokens, declarationTokens: this.declarationTokens(), window };
    const tools = Object.values(request.toolsDict ?? {});
    // The agent's own recall tool: masking for cost is on with it whatever the shares (masking/mask-stale-output.ts).
    if (tools.some((tool) => isContextRecallTool(tool))) return;
    if (!shouldDeclareRecall({ ...shares, declaredBefore: fixed.declaredBefore })) {
      if (maskingForCostOn(policy) && withinWindowShare(shares) && crowdedByFixedPart(shares))
        this.warnings.inform(
          `recall-crowded:${context.agentName}`,
          `${LOG_PREFIX} agent '${context.agentName}': its instruction and tools take over a quarter of the window, so the guard does not declare its recall tool (${this.tool.name}) nor mask for cost; masked results cannot be read back. Add contextRecallTool() to the agent's tools to keep them readable.`,
        );
      return;
    }
    if (tools.some((tool) => tool.name === this.tool.name)) {
      this.warnings.warn(
        `recall-name:${context.agentName}`,
        `${LOG_PREFIX} agent '${context.agentName}' has a tool named '${this.tool.name}' that is not the recall tool, so masking for cost is off for it (a masked result could not be read back). Add contextRecallTool({ name: '…' }) under another name to the agent's tools to turn it on.`,
      );
      return;
    }
    const byAgent = declaredIn.get(context.invocationContext) ?? new Map<string, string>();
    declaredIn.set(context.invocationContext, byAgent.set(context.agentName, this.tool.name));
    return { name: this.tool.name };
  }

  /**
   * Whether `request` may carry the guard's own tools (own-tools-refusal.ts): where it may not, none is declared,
   * masking for cost stays off (nothing could read a masked result back) and the agent is named once, at info.
   */
  ownToolsAllowed(context: Context, request: LlmRequest): boolean {
    const refusal = ownToolsRefusal(request.config);
    if (refusal === undefined) return true;
    this.warnings.inform(
      `own-tools:${context.agentName}`,
      `${LOG_PREFIX} agent '${context.agentName}': ${refusal} declaration, and Gemini may refuse one beside that (the Gemini API a JSON response, Gemini 2.x a built-in tool): the guard declares none of its tools there (no ${this.tool.name}, so masking for cost is off; no context_status).`,
    );
    return false;
  }

  /** Adds the recall tool to `request` (once `permitted` named it). */
  async declare(context: Context, request: LlmRequest): Promise<void> {
    request.toolsDict ??= {};
    if (request.toolsDict[this.tool.name]) return;
    await this.tool.processLlmRequest({ toolContext: context, llmRequest: request });
  }
}
