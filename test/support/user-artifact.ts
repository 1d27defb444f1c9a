/**
 * A text artifact the user saved in a session (what ADK's `LoadArtifactsTool` lists and loads), for tests that put
 * the guard's own offloads beside the user's.
 */
import type { BaseArtifactService } from '@google/adk';
import { APP_NAME, USER_ID } from './agent-harness.js';

export async function saveUserArtifact(
  artifactService: BaseArtifactService,
  sessionId: string,
  filename: string,
  text: string,
): Promise<void> {
  await artifactService.saveArtifact({ appName: APP_NAME, userId: USER_ID, sessionId, filename, artifact: { text } });
}
