/**
 * The App the devtools test serves: the integration harness's log analyst on a
 * strict offline model (rejects a request over 8k tokens as Gemini does).
 * The agent files under agents/ import it; `adk api_server` bundles each one
 * with esbuild, so it runs in the server process, not in the test's.
 */
import { App, type BasePlugin } from '@google/adk';
import { logsAgent, logsModel, toolThenAnswerScript } from '../support/agent-harness.js';

export const WINDOW = 8_000;

/** `name` must be the agent's folder name: the server looks sessions up by the folder, the Runner by `App.name`. */
export function logAnalystApp(name: string, plugins: BasePlugin[]): App {
  const model = logsModel({ window: WINDOW, ratio: 1.8, script: toolThenAnswerScript(3_000) });
  return new App({ name, rootAgent: logsAgent(model), plugins });
}
