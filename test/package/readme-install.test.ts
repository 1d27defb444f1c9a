/**
 * What the README tells a user to install agrees with package.json: the supported Node.js
 * versions (`engines`), and the devtools install, whose `overrides` block must be the one this
 * repository installs with (without it, `npm install @google/adk-devtools@2.0.0` fails with
 * ETARGET in a fresh application).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  engines?: Record<string, string>;
  overrides?: Record<string, string>;
};

/** The README's section under `heading`, up to the next level-2 heading. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}`);
  if (start < 0) return '';
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The fenced blocks of `language` in `text`. */
function codeBlocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp(`^\`\`\`${language}\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(
    (match) => match[1] ?? '',
  );
}

describe('README install instructions', () => {
  it('should state the Node.js versions package.json engines supports', () => {
    const range = manifest.engines?.['node'];
    const minimum = /^>=(\d+\.\d+)$/.exec(range ?? '')?.[1];
    expect(minimum, `engines.node is ${range}`).toBeDefined();
    expect(readme).toMatch(/^Supported versions \(`engines` in package\.json\)/m);
    expect(readme).toContain(`Node.js ${minimum} or newer`);
  });

  it('should give the devtools install with exactly the overrides this repository installs with', () => {
    const devtools = section('The ADK devtools CLI');
    const blocks = codeBlocks(devtools, 'json').map((block) => JSON.parse(block) as { overrides?: unknown });
    const withOverrides = blocks.filter((block) => block.overrides !== undefined);
    expect(withOverrides).toHaveLength(1);
    expect(manifest.overrides).toBeDefined();
    expect(withOverrides[0]?.overrides).toEqual(manifest.overrides);
    // The command names the devtools version installed here, the one the overrides were checked with.
    const installed = (
      JSON.parse(readFileSync('node_modules/@google/adk-devtools/package.json', 'utf8')) as { version: string }
    ).version;
    const commands = codeBlocks(devtools, 'sh').join('\n');
    expect(commands).toContain(`npm install --save-dev @google/adk-devtools@${installed}`);
  });
});
