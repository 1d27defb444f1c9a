/** `npm run demo`: the chat on the terminal. */
import { LogLevel, setLogLevel } from '@google/adk';
import { runChat } from './run-chat.js';

// ADK's own info lines (plugin registered, experimental hooks) would drown the chat.
setLogLevel(LogLevel.ERROR);
await runChat({ input: process.stdin, output: process.stdout, env: process.env });
