/**
 * The fixed part (system instruction, tool declarations) the guard counts on each call is the one the request
 * is sent with, through a real Runner. The guard estimates it once a call (adk/hooks/call-fixed-part.ts) and
 * may declare its recall tool between the recall check and the reading of the request: from the call after
 * the first masking on, the recall tool is declared before the reading, and its declaration must be counted.
 */
import { BasePlugin, type Context, type LlmRequest, type LlmResponse } from '@google/adk';
import type { Tool } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { stateKeysFor } from '../../src/internal.js';
import { RECALL_TOOL_NAME } from '../../src/adk/tools/recall-tool.js';
import { estimateContentsTokens, estimateFixedTokens } from '../../src/estimate/estimate-request.js';
import { decodeUsageRecord } from '../../src/usage/stored-usage.js';
import { characterTokenizer } from '../support/tokenizers.js';
import { createHarness, toolThenAnswerScript } from '../support/agent-harness.js';

const WINDOW = 200_000;
const MASKED = 'context_guard_masked';

/** What the guard estimated for each call, beside the estimate of the request as the guard left it. */
interface Seen {
  readonly guardEstimate: number | undefined;
  readonly sentEstimate: number;
  readonly tools: readonly string[];
  readonly masked: boolean;
}

/** A plugin after the guard: it reads the request as the guard left it and the estimate the guard stored for it. */
class AfterGuard extends BasePlugin {
  readonly seen: Seen[] = [];

  constructor() {
    super('after_guard');
  }

  override async beforeModelCallback({
    callbackContext,
    llmRequest,
  }: {
    callbackContext: Context;
    llmRequest: LlmRequest;
  }): Promise<LlmResponse | undefined> {
    const usage = decodeUsageRecord(callbackContext.state.get<unknown>(stateKeysFor(callbackContext.agentName).usage));
    const fixed = estimateFixedTokens(
      llmRequest.config?.systemInstruction,
      llmRequest.config?.tools,
      characterTokenizer,
    );
    this.seen.push({
      guardEstimate: usage.sentEstimate,
      sentEstimate:
        fixed.systemTokens + fixed.toolTokens + estimateContentsTokens(llmRequest.contents, characterTokenizer),
      tools: Object.keys(llmRequest.toolsDict),
      masked: JSON.stringify(llmRequest.contents).includes(MASKED),
    });
    return undefined;
  }
}

/** A plugin before the guard that edits the request's declarations on some calls, as an application's plugin may. */
class DeclarationEditor extends BasePlugin {
  private calls = 0;

  constructor() {
    super('declaration_editor');
  }

  override async beforeModelCallback({ llmRequest }: { llmRequest: LlmRequest }): Promise<LlmResponse | undefined> {
    const call = this.calls++;
    const declarations = (llmRequest.config?.tools?.[0] as Tool | undefined)?.functionDeclarations;
    if (!declarations?.[0]) return undefined;
    // Edited in place on every third call, a tool added on every fourth: the values change, not only the objects.
    if (call % 3 === 1) declarations[0].description = `Edited on call ${call}.`;
    if (call % 4 === 2) declarations.push({ name: `added_${call}`, description: 'A tool added between calls.' });
    return undefined;
  }
}

/** Eight turns of large tool results with masking for cost, `before` ahead of the guard; what a plugin after it saw. */
async function callsSeenAfterGuard(before: BasePlugin[]): Promise<AfterGuard> {
  const guard = new ContextGuard({
    contextWindow: WINDOW,
    tokenizer: characterTokenizer,
    maskStaleOutputTokens: 2_000,
  });
  const after = new AfterGuard();
  const harness = createHarness({
    window: WINDOW,
    ratio: 1.2,
    script: toolThenAnswerScript(12_000),
    plugins: [...before, guard, after],
  });
  await harness.sessionAfterTurns(8);
  return after;
}

describe('the fixed part counted on each call', () => {
  it('should count the recall tool the guard declared before reading the request, on every call after the first masking', async () => {
    const after = await callsSeenAfterGuard([]);
    const declared = after.seen.filter((call) => call.tools.includes(RECALL_TOOL_NAME));
    // The recall tool is sent from the call that first masks, and declared at the start of every call after it.
    expect(after.seen.some((call) => call.masked)).toBe(true);
    expect(declared.length).toBeGreaterThan(2);
    for (const call of after.seen) expect(call.guardEstimate).toBe(call.sentEstimate);
  });

  it('should count the declarations as sent when a plugin before the guard edits or adds one between calls', async () => {
    const after = await callsSeenAfterGuard([new DeclarationEditor()]);
    expect(after.seen.length).toBeGreaterThan(8);
    for (const call of after.seen) expect(call.guardEstimate).toBe(call.sentEstimate);
  });
});
