/**
 * Whether a request may carry a function declaration of the guard's own (`recall_history`, `context_status`).
 * Gemini refuses function declarations beside a built-in tool in Gemini 2.x ("Tool use with function calling is
 * unsupported": ADK's search agent, `tools: [GOOGLE_SEARCH]`), and beside a JSON response on the Gemini API
 * ("Function calling with a response mime type: 'application/json' is unsupported": an `outputSchema` agent
 * without tools, which ADK 2.0.0 sends so except on Vertex AI, `canUseOutputSchemaWithTools`). The thirty-fifth
 * outside trial: the guard's declaration turned such accepted requests into a 400 on every later call, unseen
 * behind an `AgentTool`. A request that declares functions already carries the mix the provider took: one more
 * declaration changes nothing there. Code execution is not refused: ADK's documentation gives it no such limit in
 * TypeScript with Gemini 2.0 and newer, and the guard masks an executor's outputs for the recall tool to read back
 * (test/integration/code-output-masking.test.ts).
 */
import type { GenerateContentConfig, Tool } from '@google/genai';

/** Why the guard may add no function declaration to a request with `config`, or undefined when it may. */
export function ownToolsRefusal(config: GenerateContentConfig | undefined): string | undefined {
  const tools = (config?.tools ?? []) as readonly Tool[];
  if (tools.some((tool) => (tool.functionDeclarations?.length ?? 0) > 0)) return undefined;
  const builtIn = [...new Set(tools.flatMap(builtInTools))];
  if (builtIn.length > 0) return `its requests carry a built-in tool (${builtIn.join(', ')}) and no function`;
  if (config?.responseSchema !== undefined || config?.responseJsonSchema !== undefined)
    return 'its requests ask for a response schema and carry no function';
  if (config?.responseMimeType === 'application/json')
    return 'its requests ask for a JSON response and carry no function';
  return undefined;
}

/** Keys of a tool entry that name no built-in tool refused beside a function declaration. */
const ALONGSIDE_FUNCTIONS = new Set(['functionDeclarations', 'codeExecution']);

/** The built-in tools a tool entry names that Gemini may refuse beside a function: every key set but those. */
function builtInTools(tool: Tool): string[] {
  return Object.entries(tool).flatMap(([key, value]) =>
    !ALONGSIDE_FUNCTIONS.has(key) && value !== undefined && value !== null ? [key] : [],
  );
}
