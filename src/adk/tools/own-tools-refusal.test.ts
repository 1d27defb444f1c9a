import { describe, expect, it } from 'vitest';
import { Type } from '@google/genai';
import { ownToolsRefusal } from './own-tools-refusal.js';

const fn = { functionDeclarations: [{ name: 'fetch_logs' }] };

describe('ownToolsRefusal', () => {
  it('should allow a request with no tools and no response schema, or one that declares functions already', () => {
    expect(ownToolsRefusal(undefined)).toBeUndefined();
    expect(ownToolsRefusal({ tools: [] })).toBeUndefined();
    expect(ownToolsRefusal({ tools: [fn] })).toBeUndefined();
    // A mix the provider took already (Vertex AI with a schema, Gemini 3 with a built-in tool): one more changes nothing.
    expect(
      ownToolsRefusal({ tools: [fn, { googleSearch: {} }], responseMimeType: 'application/json' }),
    ).toBeUndefined();
    expect(ownToolsRefusal({ responseMimeType: 'text/plain' })).toBeUndefined();
    // Code execution takes function declarations beside it (ADK's documentation, TypeScript and Gemini 2.0+).
    expect(ownToolsRefusal({ tools: [{ codeExecution: {} }] })).toBeUndefined();
  });

  it('should refuse beside a built-in tool alone, naming it, and beside a JSON response', () => {
    expect(ownToolsRefusal({ tools: [{ googleSearch: {} }, { urlContext: {} }] })).toContain(
      '(googleSearch, urlContext)',
    );
    expect(ownToolsRefusal({ tools: [{ codeExecution: {} }, { googleMaps: {} }] })).toContain(
      'built-in tool (googleMaps)',
    );
    expect(ownToolsRefusal({ tools: [{ functionDeclarations: [] }, { googleSearch: {} }] })).toContain('googleSearch');
    expect(ownToolsRefusal({ responseSchema: { type: Type.OBJECT } })).toContain('response schema');
    expect(ownToolsRefusal({ responseJsonSchema: { type: 'object' } })).toContain('response schema');
    expect(ownToolsRefusal({ responseMimeType: 'application/json' })).toContain('JSON response');
  });
});
