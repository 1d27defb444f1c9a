/**
 * What the guard checks as a run starts, where the plugin's callback runs in every mode: the option keys against the
 * app's agents, models and tools (unmatched-agents-check.ts), and a live run.
 *
 * Live mode (`runner.runLive`) runs no model callbacks (docs/design.md, "Live mode runs no model callbacks"): ADK
 * sends the session's whole history as the connection's first content, and the guard neither measures nor reduces
 * it. The thirty-fifth outside trial sent 6.9 times a 16k window so, after 40 guarded turns, with nothing said.
 * Said once per agent, at the run's start, where the plugin's callback still runs.
 */
import type { InvocationContext } from '@google/adk';
import { LOG_PREFIX } from '../../logging/log-prefix.js';
import type { WarnOnce } from '../runtime/warn-once.js';
import type { UnmatchedAgentsCheck } from './unmatched-agents-check.js';

export function checkRunStart(context: InvocationContext, names: UnmatchedAgentsCheck, warnings: WarnOnce): void {
  if (context.agent) names.check(context.agent);
  if (context.liveRequestQueue) warnLive(warnings, context);
}

function warnLive(warnings: WarnOnce, context: InvocationContext): void {
  const agent = context.agent?.name ?? 'the root agent';
  const events = context.session.events.length;
  warnings.warn(
    `live-run:${agent}`,
    `${LOG_PREFIX} agent '${agent}' runs in live mode (runLive), where ADK calls no model callback: the guard ` +
      `neither measures nor reduces the requests (tool results are still cut to the tool-result limits), and the ` +
      `session's whole history (${events} events here) opens the connection as it is. Bound a live conversation ` +
      `with runConfig.contextWindowCompression, or start it on a session of its own.`,
  );
}
