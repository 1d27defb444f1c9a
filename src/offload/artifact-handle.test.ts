import { describe, expect, it } from 'vitest';
import {
  OFFLOAD_ARTIFACT_PREFIX,
  OFFLOAD_HANDLE_KEY,
  offloadArtifactName,
  offloadPart,
  offloadText,
  sliceArtifactText,
  withOffloadHandle,
} from './artifact-handle.js';

describe('offloadArtifactName', () => {
  it('should name one artifact per tool call, safe for a file or object name', () => {
    const name = offloadArtifactName('read/file', 'e-123:4', 'adk-9f');
    expect(name).toBe(`${OFFLOAD_ARTIFACT_PREFIX}read_file-e-123_4-adk-9f.json`);
    expect(offloadArtifactName('read_file', 'e-1', 'adk-2')).not.toBe(offloadArtifactName('read_file', 'e-1', 'adk-3'));
  });

  it('should never produce a user-scoped name, whatever the tool is called', () => {
    expect(offloadArtifactName('user:secrets', undefined, undefined).startsWith('user:')).toBe(false);
    expect(offloadArtifactName('user:secrets', undefined, undefined)).not.toContain(':');
  });
});

describe('offloadPart and offloadText', () => {
  it('should round-trip any text exactly, including non-ASCII, through JSON inline data', () => {
    const text = JSON.stringify({ output: 'héllo 👨‍👩‍👧 世界\n"quoted"' });
    const part = offloadPart(text);
    expect(part.inlineData?.mimeType).toBe('application/json');
    expect(offloadText(JSON.parse(JSON.stringify(part)) as typeof part)).toBe(text);
    expect(offloadText({ text: 'plain' })).toBe('plain');
    expect(offloadText(undefined)).toBeUndefined();
  });
});

describe('withOffloadHandle', () => {
  it('should add the name, version and size without changing the cut result', () => {
    const cut = { output: 'head … tail' };
    const handled = withOffloadHandle(cut, { name: 'n.json', version: 2, chars: 10 }, 'recall_history');
    expect(cut).toEqual({ output: 'head … tail' });
    expect(handled[OFFLOAD_HANDLE_KEY]).toMatchObject({ name: 'n.json', version: 2, chars: 10 });
    expect(String((handled[OFFLOAD_HANDLE_KEY] as { read: string }).read)).toContain(
      'recall_history({"artifact": "n.json"',
    );
    expect(
      String(
        (
          withOffloadHandle(cut, { name: 'n.json', version: 0, chars: 1 }, undefined)[OFFLOAD_HANDLE_KEY] as {
            read: string;
          }
        ).read,
      ),
    ).not.toContain('recall');
  });
});

describe('sliceArtifactText', () => {
  const text = 'abcdefghij';
  it('should return the exact slice and where the next one starts', () => {
    expect(sliceArtifactText(text, 2, 3, 100)).toEqual({ offset: 2, text: 'cde', total_chars: 10, next_offset: 5 });
    expect(sliceArtifactText(text, 8, 5, 100)).toEqual({ offset: 8, text: 'ij', total_chars: 10 });
  });

  it('should cap the length and clamp bad offsets instead of throwing', () => {
    expect(sliceArtifactText(text, 0, 1_000, 4).text).toBe('abcd');
    expect(sliceArtifactText(text, -5, undefined, 3).text).toBe('abc');
    expect(sliceArtifactText(text, 99, 2, 3)).toEqual({ offset: 10, text: '', total_chars: 10 });
    expect(sliceArtifactText(text, 'x', 'y', 2).text).toBe('ab');
  });
});
