/**
 * `reuseResult: true` counts only for a tool declared `readOnly: true` (config/read-only-tool.ts):
 * a repeated call of a tool that may have side effects is never answered from a stored result. A
 * declaration with the one and not the other is accepted, and said once, so that a user who set
 * it is not left believing repeats are answered (the forty-ninth outside trial). An agent's entry
 * is merged over the global one, as the guard reads it.
 */
import { LOG_PREFIX } from '../logging/log-prefix.js';

type Declaration = { readonly readOnly?: boolean | undefined; readonly reuseResult?: boolean | undefined };
type Declarations = Readonly<Record<string, Declaration | undefined>>;

/** What the check reads of the options (`tools`, and each agent's `tools`). */
interface ToolOptions {
  readonly tools?: Declarations | undefined;
  readonly agents?: Readonly<Record<string, { readonly tools?: Declarations | undefined } | undefined>> | undefined;
}

const ignored = (path: string): string =>
  `${LOG_PREFIX} the option ${path} sets reuseResult without readOnly: true, so it is ignored (a repeated call is ` +
  `answered from a stored result only for a tool declared read-only).`;

/** The warning for each declaration whose `reuseResult` is ignored. */
export function reuseWithoutReadOnly(options: ToolOptions): string[] {
  const global: Declarations = options.tools ?? {};
  const out: string[] = [];
  for (const [tool, entry] of Object.entries(global))
    if (entry?.reuseResult === true && entry.readOnly !== true) out.push(ignored(`tools['${tool}']`));
  for (const [agent, policy] of Object.entries(options.agents ?? {}))
    for (const [tool, entry] of Object.entries(policy?.tools ?? {})) {
      const merged: Declaration = { ...(Object.hasOwn(global, tool) ? global[tool] : {}), ...entry };
      if (merged.reuseResult === true && merged.readOnly !== true)
        out.push(ignored(`agents['${agent}'].tools['${tool}']`));
    }
  return out;
}
