/** Small statistics and formatting helpers for the benchmark. */

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const a = sorted[low] as number;
  const b = sorted[high] as number;
  return a + (b - a) * (position - low);
}

export interface Summary {
  readonly n: number;
  readonly median: number;
  readonly p95: number;
  readonly max: number;
  readonly mean: number;
}

export function summarize(values: readonly number[]): Summary {
  const n = values.length;
  const mean = n === 0 ? Number.NaN : values.reduce((sum, v) => sum + v, 0) / n;
  return {
    n,
    median: quantile(values, 0.5),
    p95: quantile(values, 0.95),
    max: n === 0 ? Number.NaN : Math.max(...values),
    mean,
  };
}

/** Rounds for the JSON report (3 significant decimals below 10, 1 decimal above). */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return '-';
  if (value < 0.1) return `${(value * 1000).toFixed(0)} µs`;
  if (value < 10) return `${value.toFixed(2)} ms`;
  return `${value.toFixed(0)} ms`;
}

export function ratio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(value < 10 ? 2 : 0)}x` : '-';
}

export function kb(bytes: number): string {
  if (bytes < 1024) return `${bytes.toFixed(0)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A plain-text table: first row is the header. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  const line = (row: readonly string[]): string =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const [head, ...body] = rows;
  return [line(head ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** Heap in use after a full collection (needs a `gc` function; see heap.ts). */
export function now(): number {
  return performance.now();
}
