import { describe, expect, it } from 'vitest';
import {
  OFFLOAD_ARTIFACT_PREFIX,
  OFFLOAD_HANDLE_KEY,
  isAppOffloadArtifact,
  isOwnOffloadArtifact,
  offloadAppSegment,
  offloadArtifactName,
  offloadPart,
  offloadText,
  sliceArtifactText,
  withOffloadHandle,
} from './artifact-handle.js';

describe('offloadArtifactName', () => {
  it('should name one artifact per tool call and app, safe for a file or object name', () => {
    const name = offloadArtifactName('billing', 'read/file', 'e-123:4', 'adk-9f');
    expect(name).toMatch(
      new RegExp(`^${OFFLOAD_ARTIFACT_PREFIX}app=billing\\.[0-9a-f]{12}-read_file-e-123_4-adk-9f\\.json$`),
    );
    expect(offloadArtifactName('billing', 'read_file', 'e-1', 'adk-2')).not.toBe(
      offloadArtifactName('billing', 'read_file', 'e-1', 'adk-3'),
    );
  });

  it('should never produce a user-scoped name, whatever the tool or app is called', () => {
    const name = offloadArtifactName('user:app', 'user:secrets', undefined, undefined);
    expect(name.startsWith('user:')).toBe(false);
    expect(name).not.toContain(':');
    expect(name).not.toContain('/');
  });

  it('should tell apart apps whose safe forms are the same, and bound a long app name', () => {
    expect(offloadAppSegment('a/b')).not.toBe(offloadAppSegment('a_b'));
    expect(offloadAppSegment('x'.repeat(10_000)).length).toBeLessThanOrEqual(4 + 40 + 1 + 12);
    expect(offloadAppSegment('')).toMatch(/^app=app\.[0-9a-f]{12}$/);
  });
});

describe('isOwnOffloadArtifact', () => {
  const none = (): boolean => false;

  it("should accept the app's own names and refuse another app's, whatever the session recorded", () => {
    const mine = offloadArtifactName('billing', 'fetch', 'e-1', 'adk-1');
    expect(isOwnOffloadArtifact(mine, 'billing', none)).toBe(true);
    expect(isOwnOffloadArtifact(mine, 'support', () => true)).toBe(false);
    expect(isOwnOffloadArtifact(offloadArtifactName('billing2', 'fetch', 'e-1', 'adk-1'), 'billing', none)).toBe(false);
  });

  it('should accept an older name without an app only when this session recorded saving it', () => {
    const older = `${OFFLOAD_ARTIFACT_PREFIX}fetch-e-1-adk-1.json`;
    expect(isOwnOffloadArtifact(older, 'billing', (name) => name === older)).toBe(true);
    expect(isOwnOffloadArtifact(older, 'billing', none)).toBe(false);
  });

  it("should refuse any name that is not the guard's", () => {
    expect(isOwnOffloadArtifact('report.pdf', 'billing', () => true)).toBe(false);
    expect(isOwnOffloadArtifact('user:context_guard-tool_output-x.json', 'billing', () => true)).toBe(false);
  });

  it("should refuse a name that climbs out of the app's own names, with either separator", () => {
    // The eighteenth outside trial: two apps on one FileArtifactService folder, `..` resolved by the service.
    const other = offloadArtifactName('payroll', 'fetch', 'e-1', 'adk-1');
    const mine = offloadArtifactName('billing', 'fetch', 'e-1', 'adk-1').replace(/\.json$/, '');
    for (const climb of [`${mine}/../${other}`, `${mine}\\..\\${other}`, `${mine}/../../report.pdf`])
      expect(isOwnOffloadArtifact(climb, 'billing', () => true)).toBe(false);
  });
});

describe('isAppOffloadArtifact', () => {
  it("should accept any app's offloaded result and refuse an older name or a user's look-alike", () => {
    expect(isAppOffloadArtifact(offloadArtifactName('researcher', 'fetch', 'e-1', 'c-1'))).toBe(true);
    expect(isAppOffloadArtifact(offloadArtifactName('guard-test', 'fetch', 'e-1', 'c-1'))).toBe(true);
    expect(isAppOffloadArtifact(`${OFFLOAD_ARTIFACT_PREFIX}fetch-e-1-c-1.json`)).toBe(false);
    expect(isAppOffloadArtifact('context_guard-tool_output.pdf')).toBe(false);
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
