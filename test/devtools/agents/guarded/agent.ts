// Served by `adk api_server test/devtools/agents`: an App whose plugins include the guard.
import { ContextGuard } from '../../../../src/index.js';
import { WINDOW, logAnalystApp } from '../../log-analyst-app.js';
import { ScriptedSummarizer } from '../../../../src/testing/index.js';

export const app = logAnalystApp('guarded', [
  new ContextGuard({ contextWindow: WINDOW, summarizer: new ScriptedSummarizer() }),
]);
