/**
 * `Runner.runEphemeral`: ADK 2.0 makes a session for one message, runs it and deletes the session. A coding task
 * of many large tool steps in that one turn must finish under the guard as it does under `runAsync`, and a
 * server answering each request so must not carry one request's contents into another's.
 */
import { FunctionTool, LlmAgent } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { contentsText, logText, ScriptedLlm, type ModelScript } from '../../src/testing/index.js';
import { APP_NAME, userMessage } from '../support/agent-harness.js';
import { proportionalCounter } from '../support/proportional-counter.js';
import { guardedRunner } from '../support/guarded-runner.js';

const WINDOW = 16_000;
const STEPS = 30;

const readFile = new FunctionTool({
  name: 'read_file',
  description: 'Reads a file.',
  parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' } } } as never,
  // 2 to 14 KB a file, by the step in its name, and the task's tag, so a leak between runs shows.
  execute: (input: unknown) => {
    const { path } = input as { path: string };
    const step = Number(/f(\d+)/.exec(path)?.[1] ?? 0);
    return { content: `${path}\n${logText(2_000 + ((step * 7_919) % 12_000), step)}` };
  },
});

/** Reads a file a step, named by the task's tag, then answers with the tag of the task it was given. */
function coder(): ModelScript {
  const steps = new Map<string, number>();
  return ({ request }) => {
    const tag = /task-[a-z]+/.exec(contentsText(request.contents))?.[0] ?? 'none';
    const step = (steps.get(tag) ?? 0) + 1;
    steps.set(tag, step);
    if (step > STEPS) return { content: { role: 'model', parts: [{ text: `Done with ${tag}.` }] } };
    const call = { functionCall: { name: 'read_file', args: { path: `${tag}/f${step}.ts` } } };
    return { content: { role: 'model', parts: [{ text: `Step ${step}.` }, call] } };
  };
}

describe('Runner.runEphemeral under the guard', () => {
  it("should finish each one-turn task with its own task in every request, and none of another's", async () => {
    const model = new ScriptedLlm({
      model: 'ephemeral-coder',
      window: WINDOW,
      countTokens: proportionalCounter(1.1),
      script: coder(),
    });
    const agent = new LlmAgent({ name: 'coder', model, instruction: 'Fix the bug.', tools: [readFile] });
    const { runner, sessionService } = await guardedRunner(agent, WINDOW);
    const run = async (userId: string, tag: string) => {
      const answers: string[] = [];
      const errors: string[] = [];
      const newMessage = userMessage(`Fix ${tag}: the checkout total is wrong.`);
      for await (const event of runner.runEphemeral({ userId, newMessage })) {
        if (event.errorCode) errors.push(`${event.errorCode}: ${event.errorMessage}`);
        for (const part of event.content?.parts ?? []) if (part.text && !event.partial) answers.push(part.text);
      }
      return { answers, errors };
    };
    const [alpha, beta] = await Promise.all([run('user-a', 'task-alpha'), run('user-b', 'task-beta')]);
    expect(alpha.errors).toEqual([]);
    expect(beta.errors).toEqual([]);
    expect(alpha.answers.at(-1)).toBe('Done with task-alpha.');
    expect(beta.answers.at(-1)).toBe('Done with task-beta.');
    const agentRequests = model.requests;
    expect(agentRequests.length).toBe(2 * (STEPS + 1));
    for (const request of agentRequests) {
      const text = contentsText(request.contents);
      const tags = new Set(text.match(/task-(alpha|beta)/g));
      // Each request names its own task, the user's message kept whole, and never the other's.
      expect(tags.size).toBe(1);
      expect(text).toMatch(/Fix task-(alpha|beta): the checkout total is wrong\./);
      expect(request.rejected).toBe(false);
    }
    const { sessions } = await sessionService.listSessions({ appName: APP_NAME, userId: 'user-a' });
    expect(sessions).toEqual([]);
  });
});
