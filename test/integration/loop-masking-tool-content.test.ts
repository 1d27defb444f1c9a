/**
 * A short loop keeps its own results whole for its answer (LONG_LOOP_CALLS, docs/design.md "A short loop keeps its
 * own results") also when a tool adds a user content to the request: ADK's `LoadArtifactsTool` appends
 * `{ role: 'user', parts: [{ text: 'Artifact notes.txt is:' }, …] }` after its result (as load_mcp_resource and
 * load_skill_resource do). That content is not the user's message: the loop goes on, and its pages are what its
 * answer compares with the artifact. Review 13 found the guard taking it for a new turn's message: the loop counted
 * no call and its three pages were masked for cost at its fourth call.
 */
import { InMemoryArtifactService, InMemorySessionService, LlmAgent, LOAD_ARTIFACTS, Runner } from '@google/adk';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ContextGuard } from '../../src/index.js';
import { ratioTokenCounter, ScriptedLlm, ScriptedSummarizer, type ModelScript } from '../../src/testing/index.js';
import { APP_NAME, fetchLogsTool, USER_ID, userMessage } from '../support/agent-harness.js';
import { saveUserArtifact } from '../support/user-artifact.js';

const WINDOW = 200_000;
const MASKED = 'context_guard_masked';

/** Three pages of 8 KB, then the artifact to compare them with, then the answer. */
const script: ModelScript = ({ request }) => {
  const step = request.contents.filter((content) => content.parts?.some((part) => part.functionResponse)).length;
  if (step < 3)
    return {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'fetch_logs', args: { size: 8_000, seed: step + 1 } } }],
      },
    };
  if (step === 3)
    return {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'load_artifacts', args: { artifact_names: ['notes.txt'] } } }],
      },
    };
  return { content: { role: 'model', parts: [{ text: 'Pages 1 and 3 agree with the notes.' }] } };
};

const maskedIn = (contents: readonly Content[]): number =>
  contents
    .flatMap((content) => content.parts ?? [])
    .filter((part) => part.functionResponse?.response && MASKED in part.functionResponse.response).length;

describe('a short loop whose tool adds a user content', () => {
  it("should keep the loop's pages whole for its answer, as without the artifact", async () => {
    const model = new ScriptedLlm({ window: WINDOW, countTokens: ratioTokenCounter(1.2), script });
    const agent = new LlmAgent({
      name: 'reader',
      model,
      instruction: 'You compare pages.',
      tools: [fetchLogsTool(), LOAD_ARTIFACTS],
    });
    const guard = new ContextGuard({ contextWindow: WINDOW, summarizer: new ScriptedSummarizer() });
    const sessionService = new InMemorySessionService();
    const artifactService = new InMemoryArtifactService();
    const runner = new Runner({ appName: APP_NAME, agent, sessionService, artifactService, plugins: [guard] });
    const session = await sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
    await saveUserArtifact(artifactService, session.id, 'notes.txt', 'Notes: pages 1 and 3 should agree.');
    const newMessage = userMessage('Fetch three pages and compare them with my notes.');
    for await (const event of runner.runAsync({ userId: USER_ID, sessionId: session.id, newMessage }))
      expect(event.errorCode).toBeUndefined();
    const { requests } = model;
    expect(requests).toHaveLength(5);
    // The artifact was read into the answer's request, after the load_artifacts result.
    expect(JSON.stringify(requests[4]!.contents.at(-1))).toContain('Artifact notes.txt is:');
    expect(requests.map((request) => maskedIn(request.contents))).toEqual([0, 0, 0, 0, 0]);
  });
});
