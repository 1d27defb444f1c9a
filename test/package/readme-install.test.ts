/**
 * What the README tells a user to install agrees with package.json: the supported Node.js
 * versions (`engines`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  engines?: Record<string, string>;
};

describe('README install instructions', () => {
  it('should state the Node.js versions package.json engines supports', () => {
    const range = manifest.engines?.['node'];
    const minimum = /^>=(\d+\.\d+)$/.exec(range ?? '')?.[1];
    expect(minimum, `engines.node is ${range}`).toBeDefined();
    expect(readme).toMatch(/^Supported versions \(`engines` in package\.json\)/m);
    expect(readme).toContain(`Node.js ${minimum} or newer`);
  });
});
