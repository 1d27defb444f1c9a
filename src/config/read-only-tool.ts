/**
 * Whether the `tools` option declares a tool read-only. ADK's tools carry no
 * such flag, and the guard never guesses one from a name: a tool not declared
 * may have a side effect, so nothing suggests calling it again.
 */

/** The resolved `tools` option: declarations by exact tool name. */
type ToolDeclarations = Readonly<
  Record<string, { readonly readOnly?: boolean | undefined; readonly reuseResult?: boolean | undefined }>
>;

/** `true` only for a tool declared `{ readOnly: true }` (own entries only: a tool named `constructor` is not inherited). */
export function isReadOnlyTool(tools: ToolDeclarations, toolName: string): boolean {
  return Object.prototype.hasOwnProperty.call(tools, toolName) && tools[toolName]?.readOnly === true;
}

/**
 * `true` only for a tool declared `{ readOnly: true, reuseResult: true }`: a repeated call of it may be answered from
 * a stored result (recall/repeat-call.ts). Read-only alone says a call is safe to repeat, not that its answer lasts.
 */
export function reusesResult(tools: ToolDeclarations, toolName: string): boolean {
  return isReadOnlyTool(tools, toolName) && tools[toolName]?.reuseResult === true;
}
