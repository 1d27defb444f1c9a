/**
 * The file-system side of loading AGENTS.md files: finding the project root, reading the head of a
 * file as UTF-8 without a broken last character, and the folders that may be gone under the process.
 * Never throws: a missing or unreadable file is a result, not an error.
 */
import { open, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/**
 * The first folder at or above `start` that holds one of `markers`, or
 * `undefined` when none does up to the filesystem root.
 */
export async function findProjectRoot(start: string, markers: readonly string[]): Promise<string | undefined> {
  let folder = resolve(start);
  for (;;) {
    for (const marker of markers) {
      if (await exists(join(folder, marker))) return folder;
    }
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

export type FileRead =
  | { status: 'loaded'; text: string; bytes: number }
  | { status: 'missing' | 'unreadable' | 'empty' | 'duplicate'; reason: string; bytes: number };

/** Reads at most `limit` bytes of a file, decoded as UTF-8 without a broken last character. */
export async function readHead(path: string, limit: number): Promise<FileRead> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    const info = await stat(path);
    if (!info.isFile()) return { status: 'unreadable', reason: 'not a regular file', bytes: 0 };
    handle = await open(path, 'r');
    const buffer = Buffer.alloc(Math.min(limit, info.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    // The decoder holds back an incomplete trailing sequence instead of producing U+FFFD.
    let text = new StringDecoder('utf8').write(buffer.subarray(0, bytesRead));
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim().length === 0) return { status: 'empty', reason: 'the file is empty', bytes: info.size };
    if (bytesRead < info.size) return { status: 'loaded', text, bytes: info.size };
    // A file read whole loses its trailing blank lines; `bytes` is then the size of what is kept.
    text = text.replace(/\s+$/u, '');
    return { status: 'loaded', text, bytes: Buffer.byteLength(text) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing', reason: 'no such file', bytes: 0 };
    return { status: 'unreadable', reason: error instanceof Error ? error.message : String(error), bytes: 0 };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** A key that is equal for two paths of the same file (symbolic links resolved when the file exists). */
export async function fileIdentity(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The working directory, or '.' when it was deleted under the process (process.cwd() then throws). */
export function safeCwd(): string {
  try {
    return process.cwd();
  } catch {
    return '.';
  }
}

export function safeHomedir(): string {
  try {
    return homedir();
  } catch {
    return '';
  }
}
