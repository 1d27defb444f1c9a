/**
 * Takes the guard's offloaded tool results out of the artifact listing ADK's `LoadArtifactsTool` writes into the
 * system instruction (offload/artifact-listing.ts), before the request is measured.
 */
import type { LlmRequest } from '@google/adk';
import { withoutOwnArtifacts } from '../../offload/artifact-listing.js';
import { isAppOffloadArtifact } from '../../offload/artifact-handle.js';

export function hideOwnArtifacts(request: LlmRequest): void {
  const instruction = request.config?.systemInstruction;
  // ADK appends its listing to a string instruction (`appendInstructions`); any other form holds none.
  if (typeof instruction !== 'string' || !request.config) return;
  // Any app's names: an AgentTool child's too (an app of its own, saving into this session). Names made before
  // they carried their app stay listed: nothing in the name tells them from a user's.
  const edited = withoutOwnArtifacts(instruction, isAppOffloadArtifact);
  if (edited !== instruction) request.config.systemInstruction = edited;
}
