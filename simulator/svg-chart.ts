/**
 * One inline SVG chart: prompt tokens per model call against the threshold
 * and the window. Plain markup, no script and no external resource, so the
 * report renders offline and in any browser. Charts of one scenario share
 * their scales, so strategies compare at a glance.
 */

export interface ChartCall {
  readonly promptTokens: number;
  /** Size of the request as ADK built it (before any plugin). */
  readonly rawTokens: number;
  readonly rejected: boolean;
  readonly compacted: boolean;
  /** Virtual milliseconds the call waited for a summary (simulator/summary-waits.ts). */
  readonly waitedMs?: number | undefined;
}

export interface ChartScale {
  /** Calls on the x axis (the most any strategy made in this scenario). */
  readonly calls: number;
  /** Top of the y axis, in tokens. */
  readonly maxTokens: number;
}

export interface ChartInput {
  readonly title: string;
  readonly calls: readonly ChartCall[];
  readonly window: number;
  readonly threshold: number;
  readonly scale: ChartScale;
  /** Draw the raw (ADK-built) size as a faint line; useful when a strategy changed the requests. */
  readonly showRaw: boolean;
}

const WIDTH = 320;
const HEIGHT = 170;
const PAD = { left: 44, right: 8, top: 10, bottom: 22 };

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Tokens in a short form: 950, 8k, 1.2M. */
export function shortTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(tokens % 1_000_000 === 0 ? 0 : 1)}M`;
  if (tokens >= 1_000) return `${(tokens / 1_000).toFixed(tokens % 1_000 === 0 || tokens >= 100_000 ? 0 : 1)}k`;
  return String(Math.round(tokens));
}

/** The y-axis top for a scenario: the window with headroom, or the largest request (capped at 3 windows). */
export function chartScale(window: number, series: readonly (readonly ChartCall[])[]): ChartScale {
  let calls = 1;
  let largest = 0;
  for (const list of series) {
    calls = Math.max(calls, list.length);
    for (const call of list) largest = Math.max(largest, call.promptTokens);
  }
  return { calls, maxTokens: Math.max(window * 1.1, Math.min(largest * 1.05, window * 3)) };
}

export function renderChart(input: ChartInput): string {
  const { scale } = input;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number): number =>
    PAD.left + (scale.calls <= 1 ? plotWidth / 2 : (index / (scale.calls - 1)) * plotWidth);
  const y = (tokens: number): number =>
    PAD.top + plotHeight - (Math.min(tokens, scale.maxTokens) / scale.maxTokens) * plotHeight;
  const fmt = (value: number): string => value.toFixed(1);
  const points = (values: readonly number[]): string =>
    values.map((value, i) => `${fmt(x(i))},${fmt(y(value))}`).join(' ');

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeXml(input.title)}">`,
    `<title>${escapeXml(input.title)}</title>`,
    `<rect class="plot" x="${PAD.left}" y="${PAD.top}" width="${plotWidth}" height="${plotHeight}"/>`,
  );
  // Axis labels: 0, threshold, window; calls at both ends.
  // The threshold label goes under its line when it would overlap the window's (large windows, fixed buffer).
  const crowded = Math.abs(y(input.threshold) - y(input.window)) < 10;
  for (const [tokens, label, cls, shift] of [
    [0, '0', 'tick', 3],
    [input.threshold, shortTokens(input.threshold), 'tick threshold-label', crowded ? 10 : 3],
    [input.window, shortTokens(input.window), 'tick window-label', crowded ? 0 : 3],
  ] as const) {
    parts.push(
      `<text class="${cls}" x="${PAD.left - 4}" y="${fmt(y(tokens) + shift)}" text-anchor="end">${label}</text>`,
    );
  }
  parts.push(
    `<text class="tick" x="${PAD.left}" y="${HEIGHT - 6}">1</text>`,
    `<text class="tick" x="${WIDTH - PAD.right}" y="${HEIGHT - 6}" text-anchor="end">${scale.calls} calls</text>`,
    `<line class="window" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${fmt(y(input.window))}" y2="${fmt(y(input.window))}"/>`,
    `<line class="threshold" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${fmt(y(input.threshold))}" y2="${fmt(y(input.threshold))}"/>`,
  );
  if (input.calls.length > 0) {
    if (input.showRaw)
      parts.push(`<polyline class="raw" points="${points(input.calls.map((call) => call.rawTokens))}"/>`);
    parts.push(`<polyline class="series" points="${points(input.calls.map((call) => call.promptTokens))}"/>`);
  }
  input.calls.forEach((call, i) => {
    if (call.compacted)
      parts.push(`<path class="compaction" d="M${fmt(x(i))},${fmt(PAD.top + plotHeight)} l-3,6 h6 z"/>`);
    if ((call.waitedMs ?? 0) > 0)
      parts.push(
        `<rect class="waited" x="${fmt(x(i) - 2.5)}" y="${fmt(PAD.top + plotHeight - 11)}" width="5" height="5"><title>waited ${call.waitedMs} ms for a summary</title></rect>`,
      );
    if (call.rejected)
      parts.push(`<circle class="overflow" cx="${fmt(x(i))}" cy="${fmt(y(call.promptTokens))}" r="2.6"/>`);
  });
  parts.push('</svg>');
  return parts.join('');
}
