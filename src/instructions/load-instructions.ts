/**
 * Loads the AGENTS.md hierarchy (seed 002, section 5): the user's home
 * folder, the project root and the working directory, merged in that order
 * (general to specific) under headers naming each file, within a byte limit.
 *
 * Never throws: a missing or unreadable file is skipped and reported with a
 * reason, because instructions are an optional extra and must not fail a turn.
 */
import { join, resolve } from 'node:path';
import { utf8Head } from '../text/truncate-text.js';
import { integer } from '../config/option-spec.js';
import { checkFactoryOptions, type FieldCheck } from '../validation/factory-options.js';
import {
  fileIdentity,
  findProjectRoot as findRootWith,
  readHead,
  safeCwd,
  safeHomedir,
  type FileRead,
} from './instruction-files.js';

/** Where an instructions file comes from, in merge order. */
export type InstructionSourceKind = 'home' | 'project' | 'cwd';

/** Options of `loadInstructions`. The folders are test seams as much as settings. */
export interface LoadInstructionsOptions {
  /** The user's home folder. @default os.homedir() */
  homeDir?: string;
  /** The working directory; the project root is searched upwards from here. @default process.cwd() */
  cwd?: string;
  /** File name looked for in each folder. @default 'AGENTS.md' */
  fileName?: string;
  /** Limit of the merged text, headers included, in UTF-8 bytes: an integer >= 256. @default 32,768 (32 KiB) */
  maxBytes?: number;
  /**
   * Names whose presence marks a project root; the first folder at or above
   * `cwd` holding one of them is the root.
   * @default ['.git', 'package.json', 'go.mod', 'pyproject.toml', 'Cargo.toml']
   */
  projectMarkers?: readonly string[];
}

/** What happened to one candidate file. */
export interface InstructionSource {
  readonly kind: InstructionSourceKind;
  /** Absolute path of the candidate file. */
  readonly path: string;
  /**
   * - `loaded`: in the merged text (maybe cut, see `droppedBytes`);
   * - `missing`, `unreadable`, `empty`: skipped, see `reason`;
   * - `duplicate`: the same file as an earlier source (say, the project root is the working directory);
   * - `dropped`: readable, but no room was left under `maxBytes`.
   */
  readonly status: 'loaded' | 'missing' | 'unreadable' | 'empty' | 'duplicate' | 'dropped';
  readonly reason?: string;
  /** Size of the file's text in UTF-8 bytes, trailing blank lines excluded (0 when not read). */
  readonly bytes: number;
  /** Bytes of the file left out of the merged text because of `maxBytes`. */
  readonly droppedBytes: number;
}

/** A source that lost content to the byte limit. */
export interface InstructionTruncation {
  readonly kind: InstructionSourceKind;
  readonly path: string;
  /** Bytes of that file left out. */
  readonly droppedBytes: number;
}

/** The merged instructions and how they were put together. */
export interface LoadedInstructions {
  /** Merged text, `''` when no file was found. */
  readonly text: string;
  /** UTF-8 bytes of `text`. */
  readonly bytes: number;
  /** Every candidate, in merge order (home, project, cwd). */
  readonly sources: readonly InstructionSource[];
  /** Sources cut or dropped by the byte limit; empty when everything fit. */
  readonly truncated: readonly InstructionTruncation[];
}

/** Default file name. */
const AGENTS_MD = 'AGENTS.md';
/** Default limit of the merged text: 32 KiB, as in seed 002 (and Codex's `project_doc_max_bytes`). */
const DEFAULT_INSTRUCTIONS_MAX_BYTES = 32 * 1024;
/** The loader's options as every factory that takes them checks them (validation/factory-options.ts). */
export const LOAD_INSTRUCTIONS_FIELDS = {
  homeDir: 'text',
  cwd: 'text',
  fileName: 'text',
  maxBytes: integer(256),
  projectMarkers: 'texts',
} as const satisfies Readonly<Record<keyof LoadInstructionsOptions, FieldCheck>>;

/** Default project-root markers. */
const DEFAULT_PROJECT_MARKERS: readonly string[] = Object.freeze([
  '.git',
  'package.json',
  'go.mod',
  'pyproject.toml',
  'Cargo.toml',
]);

const LABELS: Record<InstructionSourceKind, string> = {
  home: 'user home',
  project: 'project root',
  cwd: 'working directory',
};

/** The header that introduces one file in the merged text. */
export function instructionHeader(kind: InstructionSourceKind, path: string): string {
  return `# Instructions from ${path} (${LABELS[kind]})`;
}

/** The line that ends a cut file. */
function instructionCutMarker(droppedBytes: number, maxBytes: number): string {
  return `[... omitted ${droppedBytes} bytes of this file to stay within ${maxBytes} bytes ...]`;
}

const SEPARATOR = '\n\n';

/**
 * Loads and merges the AGENTS.md files. Identical paths (the project root
 * being the working directory, or a home folder inside a repository) are read
 * once, at their first place.
 *
 * Over `maxBytes`, the more specific files win the room: the working
 * directory's file is kept first, then the project's, then the home one, so
 * a long personal file cannot push out a project's rules. The file that does
 * not fit is cut at its end with a marker; the ones after it in that priority
 * are dropped. Everything cut is listed in `truncated`. The merged order stays
 * home, project, cwd.
 *
 * Rejects with a ContextGuardConfigError for an option out of range or a key that is no option.
 */
export async function loadInstructions(options: LoadInstructionsOptions = {}): Promise<LoadedInstructions> {
  checkFactoryOptions('loadInstructions()', options, LOAD_INSTRUCTIONS_FIELDS);
  const fileName = options.fileName ?? AGENTS_MD;
  const maxBytes = options.maxBytes ?? DEFAULT_INSTRUCTIONS_MAX_BYTES;
  const candidates = await listCandidates(options, fileName);
  const reads = await readCandidates(candidates, maxBytes);
  const kept = grantRoom(reads, maxBytes);
  return mergeReads(reads, kept, maxBytes);
}

interface Candidate {
  kind: InstructionSourceKind;
  path: string;
}

interface CandidateRead extends Candidate {
  read: FileRead;
}

/** What the byte limit left of one loaded file. */
interface KeptText {
  text: string;
  droppedBytes: number;
  dropped: boolean;
}

/** The candidate files in merge order: home, project, cwd. */
async function listCandidates(options: LoadInstructionsOptions, fileName: string): Promise<Candidate[]> {
  const cwd = resolve(options.cwd ?? safeCwd());
  const homeSetting = options.homeDir ?? safeHomedir();
  const home = homeSetting ? resolve(homeSetting) : undefined;
  const projectRoot = await findProjectRoot(cwd, options.projectMarkers ?? DEFAULT_PROJECT_MARKERS);

  const candidates: Candidate[] = [];
  if (home) candidates.push({ kind: 'home', path: join(home, fileName) });
  if (projectRoot) candidates.push({ kind: 'project', path: join(projectRoot, fileName) });
  candidates.push({ kind: 'cwd', path: join(cwd, fileName) });
  return candidates;
}

/** Reads each candidate once; a later path to the same file is marked a duplicate. */
async function readCandidates(candidates: readonly Candidate[], maxBytes: number): Promise<CandidateRead[]> {
  const seen = new Map<string, InstructionSourceKind>();
  const reads: CandidateRead[] = [];
  for (const candidate of candidates) {
    const identity = await fileIdentity(candidate.path);
    const earlier = seen.get(identity);
    if (earlier) {
      reads.push({
        ...candidate,
        read: { status: 'duplicate', reason: `same file as the ${LABELS[earlier]} source`, bytes: 0 },
      });
      continue;
    }
    seen.set(identity, candidate.kind);
    // Never more than the limit can use (plus a little to tell a cut apart), whatever the file's size.
    reads.push({ ...candidate, read: await readHead(candidate.path, maxBytes + 4) });
  }
  return reads;
}

/** Grants room from the most specific file to the most general; keyed by index in `reads`. */
function grantRoom(reads: readonly CandidateRead[], maxBytes: number): Map<number, KeptText> {
  const kept = new Map<number, KeptText>();
  let room = maxBytes;
  let first = true;
  const separatorBytes = Buffer.byteLength(SEPARATOR);
  for (let index = reads.length - 1; index >= 0; index -= 1) {
    const entry = reads[index];
    if (!entry || entry.read.status !== 'loaded') continue;
    const header = instructionHeader(entry.kind, entry.path);
    const body = entry.read.text;
    const fixed = Buffer.byteLength(header) + 1 + (first ? 0 : separatorBytes);
    const bodyBytes = Buffer.byteLength(body);
    const fileBytes = entry.read.bytes;
    if (fixed + bodyBytes <= room && bodyBytes === fileBytes) {
      kept.set(index, { text: `${header}\n${body}`, droppedBytes: 0, dropped: false });
      room -= fixed + bodyBytes;
      first = false;
      continue;
    }
    const cut = cutToRoom(header, body, fileBytes, room - fixed, maxBytes);
    kept.set(index, cut);
    if (cut.dropped) continue;
    room = 0;
    first = false;
  }
  return kept;
}

/** Cuts one file to `room` bytes (header and its line break excluded): its head, then the marker. */
function cutToRoom(header: string, body: string, fileBytes: number, room: number, maxBytes: number): KeptText {
  // The marker is sized for the widest count it can show.
  const marker = instructionCutMarker(fileBytes, maxBytes);
  const bodyRoom = room - Buffer.byteLength(marker) - 1;
  if (bodyRoom <= 0) return { text: '', droppedBytes: fileBytes, dropped: true };
  const head = utf8Head(body, bodyRoom);
  const droppedBytes = fileBytes - Buffer.byteLength(head);
  return {
    text: `${header}\n${head}\n${instructionCutMarker(droppedBytes, maxBytes)}`,
    droppedBytes,
    dropped: false,
  };
}

/** Joins the kept texts in merge order and reports what happened to every candidate. */
function mergeReads(
  reads: readonly CandidateRead[],
  kept: ReadonlyMap<number, KeptText>,
  maxBytes: number,
): LoadedInstructions {
  const sources: InstructionSource[] = [];
  const truncated: InstructionTruncation[] = [];
  const parts: string[] = [];
  reads.forEach((entry, index) => {
    const { read } = entry;
    if (read.status !== 'loaded') {
      sources.push({
        kind: entry.kind,
        path: entry.path,
        status: read.status,
        reason: read.reason,
        bytes: read.bytes,
        droppedBytes: 0,
      });
      return;
    }
    const outcome = kept.get(index);
    if (!outcome || outcome.dropped) {
      sources.push({
        kind: entry.kind,
        path: entry.path,
        status: 'dropped',
        reason: `no room left under ${maxBytes} bytes`,
        bytes: read.bytes,
        droppedBytes: read.bytes,
      });
      truncated.push({ kind: entry.kind, path: entry.path, droppedBytes: read.bytes });
      return;
    }
    parts.push(outcome.text);
    sources.push({
      kind: entry.kind,
      path: entry.path,
      status: 'loaded',
      bytes: read.bytes,
      droppedBytes: outcome.droppedBytes,
    });
    if (outcome.droppedBytes > 0)
      truncated.push({ kind: entry.kind, path: entry.path, droppedBytes: outcome.droppedBytes });
  });
  const text = parts.join(SEPARATOR);
  return { text, bytes: Buffer.byteLength(text), sources, truncated };
}

/**
 * The first folder at or above `start` that holds one of `markers`, or
 * `undefined` when none does up to the filesystem root.
 */
export async function findProjectRoot(
  start: string,
  markers: readonly string[] = DEFAULT_PROJECT_MARKERS,
): Promise<string | undefined> {
  return findRootWith(start, markers);
}
