/**
 * Reading the fields of a record from session state, noting every value that
 * is present but out of range: such a value is dropped (read as missing), and
 * the caller warns once naming the fields (names only, never values that may
 * quote the conversation). Missing fields (`undefined`, `null`) are not noted.
 */

/** A finite, non-negative number from a number or numeric string (a JSON round trip); `undefined` otherwise. */
export function decodeCount(value: unknown, max: number = Number.MAX_SAFE_INTEGER): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number < 0 || number > max) return undefined;
  return number;
}

export interface FieldReader {
  /** A number in `[min, max]` (a whole one when `integer`). */
  number(key: string, range: { min?: number; max?: number; integer?: boolean }): number | undefined;
  /** A token count over 0 up to `max`; 0 reads as missing without a note (the guard may write it for an empty request). */
  tokens(key: string, max: number): number | undefined;
  /** A non-negative counter, floored; missing reads as 0. */
  counter(key: string): number;
  string(key: string): string | undefined;
  /** `true`/`false` (or their strings); missing reads as `false`. */
  boolean(key: string): boolean;
  /** One of `values`. */
  oneOf<T>(key: string, values: readonly T[]): T | undefined;
  /** Notes `key` as dropped (a value the caller found out of range by a rule of its own). */
  drop(key: string): undefined;
}

/**
 * The reader as a class: its methods live on the prototype. A reader is made on every decode (twice a model
 * call for the usage record), and one of eight closures cost more than the fields it read.
 */
class RecordFieldReader implements FieldReader {
  constructor(
    private readonly record: Readonly<Record<string, unknown>>,
    private readonly dropped: string[],
  ) {}

  private noted<T>(key: string, value: T | undefined): T | undefined {
    if (value === undefined && this.record[key] !== undefined && this.record[key] !== null) this.dropped.push(key);
    return value;
  }

  number(key: string, range: { min?: number; max?: number; integer?: boolean }): number | undefined {
    const { min = 0, max = Number.MAX_SAFE_INTEGER, integer = false } = range;
    const number = decodeCount(this.record[key], Number.MAX_VALUE);
    const ok = number !== undefined && number >= min && number <= max && (!integer || Number.isInteger(number));
    return this.noted(key, ok ? number : undefined);
  }

  tokens(key: string, max: number): number | undefined {
    const number = decodeCount(this.record[key], max);
    return number === 0 ? undefined : this.noted(key, number);
  }

  // A fraction is floored, as a JSON round trip through a float column may leave one; a negative count is dropped.
  counter(key: string): number {
    return Math.floor(this.number(key, {}) ?? 0);
  }

  string(key: string): string | undefined {
    const value = this.record[key];
    return this.noted(key, typeof value === 'string' ? value : undefined);
  }

  boolean(key: string): boolean {
    const value = this.record[key];
    if (value === true || value === 'true') return true;
    this.noted(key, value === false || value === 'false' ? false : undefined);
    return false;
  }

  oneOf<T>(key: string, values: readonly T[]): T | undefined {
    return this.noted(
      key,
      values.find((value) => value === this.record[key]),
    );
  }

  drop(key: string): undefined {
    return this.noted(key, undefined);
  }
}

export function fieldReader(record: Readonly<Record<string, unknown>>, dropped: string[]): FieldReader {
  return new RecordFieldReader(record, dropped);
}
