/**
 * Takes the guard's offloaded tool results out of the artifact listing ADK's `LoadArtifactsTool` writes into the
 * system instruction (offload/artifact-listing.ts), before the request is measured.
 */
import type { LlmRequest } from '@google/adk';
import { withoutOwnArtifacts } from '../../offload/artifact-listing.js';
import { isAppOffloadArtifact, isOwnOffloadArtifact } from '../../offload/artifact-handle.js';

export function hideOwnArtifacts(request: LlmRequest, appName: string): void {
  const instruction = request.config?.systemInstruction;
  // ADK appends its listing to a string instruction (`appendInstructions`); any other form holds none.
  if (typeof instruction !== 'string' || !request.config) return;
  // Any app's: an AgentTool child's (an app of its own, saving into this session) and this app's older names.
  const own = (name: string) => isAppOffloadArtifact(name) || isOwnOffloadArtifact(name, appName, () => false);
  const edited = withoutOwnArtifacts(instruction, own);
  if (edited !== instruction) request.config.systemInstruction = edited;
}
