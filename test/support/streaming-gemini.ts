/**
 * ADK's own `Gemini` class streaming through a stand-in API client (no network): each call's chunks come from
 * `chunksFor`, so a test runs ADK's real SSE path (its stream aggregator and the events it makes of chunks).
 */
import { Gemini } from '@google/adk';
import type { Content, GenerateContentConfig, GenerateContentResponse } from '@google/genai';

/** What the stand-in client is asked: the request as ADK's `Gemini` sends it. */
export interface StreamedRequest {
  readonly contents: Content[];
  readonly config?: GenerateContentConfig | undefined;
}

export type ChunksFor = (request: StreamedRequest) => Partial<GenerateContentResponse>[];

export function streamingGemini(chunksFor: ChunksFor, model = 'gemini-2.5-flash'): Gemini {
  const gemini = new Gemini({ model, apiKey: 'offline' });
  const generateContentStream = async (request: StreamedRequest) => {
    const chunks = chunksFor(request);
    return (async function* () {
      yield* chunks;
    })();
  };
  Object.assign(gemini, { _apiClient: { models: { generateContentStream } } });
  return gemini;
}
