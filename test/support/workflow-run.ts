/** One turn of a `Workflow` root through a real Runner with `guard` as its plugin: the events of the turn. */
import { InMemorySessionService, Runner, type Event, type Workflow } from '@google/adk';
import type { ContextGuard } from '../../src/index.js';
import { APP_NAME, USER_ID, userMessage } from './agent-harness.js';

export async function workflowTurn(root: Workflow, guard: ContextGuard, text: string): Promise<Event[]> {
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: APP_NAME, agent: root, sessionService, plugins: [guard] });
  const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: USER_ID, sessionId: session.id, newMessage: userMessage(text) }))
    events.push(event);
  return events;
}
