import { describe, expect, it } from 'vitest';
import { withoutOwnArtifacts } from './artifact-listing.js';

/** ADK 2.0.0's block for `names`, as `LoadArtifactsTool` appends it. */
const listing = (names: readonly string[]): string =>
  `You have a list of artifacts:\n  ${JSON.stringify(names)}\n\n  When the user asks questions about any of the artifacts, you should call the\n  \`load_artifacts\` function to load the artifact. Always call load_artifacts\n  before answering questions related to the artifacts, regardless of whether the\n  artifacts have been loaded before. Do not depend on prior answers about the\n  artifacts.`;
const own = (name: string): boolean => name.startsWith('context_guard-tool_output-');
const OFFLOADED = 'context_guard-tool_output-app=a.0123456789ab-fetch-e-1-c-1.json';

describe('withoutOwnArtifacts', () => {
  it("should take the guard's offloaded results out of the list and keep the others in order", () => {
    const instruction = `You help.\n\n${listing(['report.pdf', OFFLOADED, 'notes.txt'])}`;
    expect(withoutOwnArtifacts(instruction, own)).toBe(`You help.\n\n${listing(['report.pdf', 'notes.txt'])}`);
  });

  it("should take the whole block away, with its separator, when only the guard's were listed", () => {
    const instruction = `You help.\n\n${listing([OFFLOADED])}\n\nAnswer briefly.`;
    expect(withoutOwnArtifacts(instruction, own)).toBe('You help.\n\nAnswer briefly.');
    expect(withoutOwnArtifacts(listing([OFFLOADED]), own)).toBe('');
  });

  it('should leave an instruction alone that lists none of its own, or is not the listing ADK writes', () => {
    const plain = `You help.\n\n${listing(['report.pdf'])}`;
    expect(withoutOwnArtifacts(plain, own)).toBe(plain);
    const quoted = `The user wrote: You have a list of artifacts:\n  ["${OFFLOADED}"] and more.`;
    expect(withoutOwnArtifacts(quoted, own)).toBe(quoted);
    const broken = listing([OFFLOADED]).replace(`["${OFFLOADED}"]`, `[${OFFLOADED}]`);
    expect(withoutOwnArtifacts(broken, own)).toBe(broken);
  });

  it('should edit every listing, as each LoadArtifactsTool of the agent appends one', () => {
    const twice = `You help.\n\n${listing(['a.txt', OFFLOADED])}\n\n${listing([OFFLOADED, 'a.txt'])}`;
    expect(withoutOwnArtifacts(twice, own)).toBe(`You help.\n\n${listing(['a.txt'])}\n\n${listing(['a.txt'])}`);
    const onlyOwn = `You help.\n\n${listing([OFFLOADED])}\n\n${listing([OFFLOADED])}`;
    expect(withoutOwnArtifacts(onlyOwn, own)).toBe('You help.');
  });

  it('should be the same when applied again (a retried request)', () => {
    const once = withoutOwnArtifacts(`You help.\n\n${listing(['a.txt', OFFLOADED])}`, own);
    expect(withoutOwnArtifacts(once, own)).toBe(once);
  });
});
