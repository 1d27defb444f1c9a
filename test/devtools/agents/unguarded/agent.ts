// The same App without the guard: the control that shows the model rejects this conversation.
import { logAnalystApp } from '../../log-analyst-app.js';

export const app = logAnalystApp('unguarded', []);
