/**
 * Vitest global setup: the test run may write only under temporary folders. It records every
 * file of the repository's work tree (tracked, untracked and ignored alike; `.git`,
 * `node_modules`, the build's `dist/` and a coverage run's `coverage/` aside) before the run, and
 * fails the run when any was added, changed or removed after it. Comparing before with after,
 * not with a clean tree, keeps an engineer's uncommitted work out of it (issue 28: a CLI test had
 * overwritten the `reports/simulation.html` that `npm run simulate` had just written).
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Folders the test run may write to, or that are not the repository's: by name, at any depth for `.git` and `node_modules`. */
const SKIPPED_ANYWHERE = new Set(['.git', 'node_modules']);
const SKIPPED_AT_ROOT = new Set(['dist', 'coverage']);

/** Each file's path (relative, `/`-separated) and what a write changes: size and modification time. */
export type TreeSnapshot = ReadonlyMap<string, string>;

export function snapshotTree(root: string): TreeSnapshot {
  const files = new Map<string, string>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        const atRoot = folder === root;
        if (!SKIPPED_ANYWHERE.has(entry.name) && !(atRoot && SKIPPED_AT_ROOT.has(entry.name))) walk(path);
        continue;
      }
      const stat = lstatSync(path);
      files.set(relative(root, path).split(sep).join('/'), `${stat.size}:${stat.mtimeMs}`);
    }
  };
  walk(root);
  return files;
}

/** The files added, changed or removed between two snapshots, each marked `+`, `~` or `-`, sorted. */
export function changedFiles(before: TreeSnapshot, after: TreeSnapshot): string[] {
  const changed: string[] = [];
  for (const [path, stamp] of after) {
    const was = before.get(path);
    if (was === undefined) changed.push(`+ ${path}`);
    else if (was !== stamp) changed.push(`~ ${path}`);
  }
  for (const path of before.keys()) if (!after.has(path)) changed.push(`- ${path}`);
  return changed.sort((a, b) => a.slice(2).localeCompare(b.slice(2)));
}

export default function setup(): () => void {
  const root = process.cwd();
  const before = snapshotTree(root);
  return () => {
    const changed = changedFiles(before, snapshotTree(root));
    if (changed.length === 0) return;
    // Vitest prints an error thrown here but still exits 0: the exit code is set by hand.
    process.exitCode = 1;
    console.error(
      `\nFAIL the test run changed files in the repository (tests must write only under a temporary folder; ` +
        `or were these edited by hand during the run?):\n  ${changed.join('\n  ')}\n`,
    );
  };
}
