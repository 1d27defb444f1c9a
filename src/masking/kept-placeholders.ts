/**
 * The placeholders of the last masked view built for a session and agent, kept by column for the next
 * call, which sends a fresh copy of every one whose position still holds the same content (a callback
 * that edits the request in place must not reach a later call). Reading each from its entry and the
 * entry's flat record (placeholder-copy.ts) touched two objects per placeholder, scattered over the heap
 * and cold by then (ADK's deep copy of the whole history runs between two calls); the columns are dense
 * arrays read in order, and a call keeps the leading ones with one slice each.
 */
import type { Content } from '@google/genai';
import type { MaskedEntry } from './masked-entry.js';
import { copyFlatFields, copyMasked } from './placeholder-copy.js';

export class KeptPlaceholders {
  /** Positions in the history, ascending, of the contents masking replaced. */
  readonly positions: number[];
  /** Tokens and framing of each placeholder, as its entry states them. */
  readonly tokens: number[];
  readonly framing: number[];
  /** The fields of a placeholder of the usual shape (`MaskedEntry.flat`); `others` holds any other, copied whole. */
  private readonly roles: Content['role'][];
  private readonly ids: (string | undefined)[];
  private readonly names: (string | undefined)[];
  private readonly texts: unknown[];
  private readonly others: (Content | undefined)[];

  constructor(from?: KeptPlaceholders, count = 0) {
    this.positions = from ? from.positions.slice(0, count) : [];
    this.tokens = from ? from.tokens.slice(0, count) : [];
    this.framing = from ? from.framing.slice(0, count) : [];
    this.roles = from ? from.roles.slice(0, count) : [];
    this.ids = from ? from.ids.slice(0, count) : [];
    this.names = from ? from.names.slice(0, count) : [];
    this.texts = from ? from.texts.slice(0, count) : [];
    this.others = from ? from.others.slice(0, count) : [];
  }

  get length(): number {
    return this.positions.length;
  }

  /** Adds the placeholder `masked` of `entry` at `index`, past every position kept so far. */
  add(index: number, entry: MaskedEntry, masked: Content): void {
    const { flat } = entry;
    this.positions.push(index);
    this.tokens.push(entry.tokens);
    this.framing.push(entry.framing);
    this.roles.push(flat?.role);
    this.ids.push(flat?.id);
    this.names.push(flat?.name);
    this.texts.push(flat?.text);
    this.others.push(flat ? undefined : masked);
  }

  /** Fresh objects for the `k`th placeholder, key for key the kept one. */
  copyAt(k: number): Content {
    const other = this.others[k];
    return other ? copyMasked(other) : copyFlatFields(this.roles[k], this.ids[k], this.names[k], this.texts[k]);
  }
}
