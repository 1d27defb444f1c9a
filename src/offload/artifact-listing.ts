/**
 * ADK's `LoadArtifactsTool` lists every artifact of the session in the system instruction of every request, the
 * guard's offloaded tool results among them: the tenth outside trial's 150 turns on an 8k window listed 96 such names,
 * 13.8 KB of instruction that nothing could remove, and the user got 400s. The model reads those results with the
 * recall tool, from the handle in the cut result, not with `load_artifacts` (which would put a whole result back in
 * the request): the listing drops them, and the whole block when none is left, as ADK writes none for no artifact.
 */

/** ADK 2.0.0's words around the list (`dist/esm/tools/load_artifacts_tool.js`), exactly. */
const LISTING_START = 'You have a list of artifacts:\n  ';
const LISTING_END =
  '\n\n  When the user asks questions about any of the artifacts, you should call the\n' +
  '  `load_artifacts` function to load the artifact. Always call load_artifacts\n' +
  '  before answering questions related to the artifacts, regardless of whether the\n' +
  '  artifacts have been loaded before. Do not depend on prior answers about the\n' +
  '  artifacts.';

/**
 * `instruction` with the names `isOwn` says are the guard's taken out of ADK's artifact listing, of every listing
 * (each `LoadArtifactsTool` of the agent appends one).
 */
export function withoutOwnArtifacts(instruction: string, isOwn: (name: string) => boolean): string {
  let edited = instruction;
  for (let from = edited.indexOf(LISTING_START); from >= 0;) {
    const next = withoutOwnAt(edited, from, isOwn);
    // A block taken away leaves the next one where this one began, less its separator.
    from = next.indexOf(LISTING_START, next.length < edited.length ? Math.max(0, from - 2) : from + 1);
    edited = next;
  }
  return edited;
}

/** `instruction` with its listing at `start` edited; unchanged when that is not ADK's listing. */
function withoutOwnAt(instruction: string, start: number, isOwn: (name: string) => boolean): string {
  const listFrom = start + LISTING_START.length;
  const end = instruction.indexOf(LISTING_END, listFrom);
  const names = end < 0 ? undefined : namesIn(instruction.slice(listFrom, end));
  if (!names) return instruction;
  const kept = names.filter((name) => !isOwn(name));
  if (kept.length === names.length) return instruction;
  if (kept.length > 0) return instruction.slice(0, listFrom) + JSON.stringify(kept) + instruction.slice(end);
  // ADK joins instructions with a blank line: the block goes with the one before it.
  const head = instruction.slice(0, start);
  return (head.endsWith('\n\n') ? head.slice(0, -2) : head) + instruction.slice(end + LISTING_END.length);
}

/** The names of a JSON array of strings; undefined for anything else. */
function namesIn(text: string): string[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((name) => typeof name === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}
