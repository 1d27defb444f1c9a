/** Bounded memos of piece counts: pieces repeat (words, keys, indentation), and so do the chunks of a run of one character. */

/** Pieces up to this many UTF-16 units are memoised. */
export const MEMO_PIECE_CHARS = 64;
/** Entries of the piece memo before it is cleared (pieces of up to 64 UTF-16 units: a few MB at most). */
const PIECE_MEMO_LIMIT = 50_000;

/** A memo of counts that is cleared when full (bounded memory, no bookkeeping per hit). */
class CountMemo {
  private entries = new Map<string, number>();

  constructor(private readonly limit: number) {}

  get(key: string): number | undefined {
    return this.entries.get(key);
  }

  set(key: string, count: number): void {
    if (this.entries.size >= this.limit) this.entries = new Map();
    // A short substring is a copy; a longer one may be a slice that keeps its whole source text alive.
    this.entries.set(key.length < 13 ? key : detach(key), count);
  }
}

/** A copy of `text` that does not share storage with a larger string. */
function detach(text: string): string {
  return (' ' + text).slice(1);
}

export const pieceMemo = new CountMemo(PIECE_MEMO_LIMIT);

/** Counts of the chunks of runs of one character, by character code and chunk length. */
export const runChunkMemo = new Map<number, number>();
/** Entries of `runChunkMemo` before it is cleared (at most 128 chunk lengths per character). */
export const RUN_CHUNK_MEMO_LIMIT = 4_096;
