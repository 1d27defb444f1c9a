import type { LlmRequest } from '@google/adk';
import type { Tool } from '@google/genai';

/** The names of the functions a request declares, in the order it sends them. */
export const declaredNames = (request: LlmRequest): string[] =>
  ((request.config?.tools ?? []) as Tool[]).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map((declaration) => declaration.name ?? ''),
  );
