/**
 * The HTML report: one self-contained file (inline CSS and SVG, no CDN, no
 * external resource) with a summary matrix and, per scenario, one chart per
 * strategy of prompt tokens per model call against the threshold and window.
 *
 * A short inline script only annotates the page once the browser has laid the
 * charts out (`data-charts-rendered` on <body>); the page is complete without
 * it. The browser test reads that attribute.
 */
import { renderRecallSection, type RecallResult } from './recall.js';
import { renderRetentionSection, type RetentionResult } from './retention.js';
import { renderReplayCostSection, replayCost } from './replay-cost.js';
import type { ScenarioResult } from './scenario-result.js';
import { renderToolWorkSection } from './tool-work-report.js';
import { formatUsd } from './summary-table.js';
import { chartScale, escapeXml, renderChart, shortTokens } from './svg-chart.js';

export interface ReportMeta {
  readonly generatedAt: string;
  readonly command: string;
  readonly groundTruth: string;
  readonly durationMs: number;
  /** The retention experiment's results, when it ran. */
  readonly retention?: readonly RetentionResult[] | undefined;
  /** The recall experiment's results, when it ran. */
  readonly recall?: readonly RecallResult[] | undefined;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1760px;padding:16px 24px;color:#1d2430;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 2px}
.meta,.claim{color:#4a5566;margin:2px 0}.claim{font-style:italic}
table{border-collapse:collapse;font-size:12px}th,td{border:1px solid #d5dbe3;padding:3px 6px;text-align:right;white-space:nowrap}
th{background:#f1f4f8;position:sticky;top:0}td.name,th.name{text-align:left}
td.pass{background:#e7f6ea}td.fail{background:#fde4e1}td.base-fail{background:#fff4d6}
.charts{display:flex;flex-wrap:wrap;gap:10px}figure{margin:0;border:1px solid #e1e6ee;border-radius:4px;padding:4px}
figcaption{font-size:12px;color:#3a4556;max-width:320px}figcaption b.pass{color:#1f7a35}figcaption b.fail{color:#b3261e}figcaption b.base{color:#8a5a00}
svg.chart .plot{fill:#fbfcfe;stroke:#dfe4ec}svg.chart .tick{font-size:9px;fill:#6b7686}
svg.chart .window{stroke:#c62828;stroke-dasharray:5 3;stroke-width:1.2}svg.chart .threshold{stroke:#ef8f00;stroke-dasharray:3 3;stroke-width:1}
svg.chart .window-label{fill:#c62828}svg.chart .threshold-label{fill:#b86e00}
svg.chart .series{fill:none;stroke:#1565c0;stroke-width:1.4}svg.chart .raw{fill:none;stroke:#9aa5b4;stroke-width:1;stroke-dasharray:2 2}
svg.chart .overflow{fill:#c62828}svg.chart .compaction{fill:#2e7d32}svg.chart .waited{fill:#ef6c00}
.legend span{margin-right:14px;font-size:12px}.legend i{display:inline-block;width:18px;height:0;border-top:2px solid;vertical-align:middle;margin-right:4px}
details{margin:4px 0}details li{font-size:12px;color:#7a1d15}
nav a{margin-right:8px;font-size:12px}
`;

/** Marks the page once every chart has been laid out with a non-empty line. */
const ANNOTATE = `
(function(){var charts=document.querySelectorAll('svg.chart');var drawn=0;var length=0;
charts.forEach(function(svg){var rect=svg.getBoundingClientRect();var line=svg.querySelector('polyline.series');
var ok=rect.width>0&&rect.height>0;
if(ok&&line){var n=line.points.numberOfItems;var l=line.getTotalLength();length+=l;ok=n<2||(l>0&&line.getBBox().width>0);}
if(ok){drawn++;}});
document.body.setAttribute('data-charts-total',String(charts.length));
document.body.setAttribute('data-charts-rendered',String(drawn));
document.body.setAttribute('data-series-length',String(Math.round(length)));})();
`;

function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

function slug(name: string): string {
  return `scenario-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

function verdictClass(result: ScenarioResult): string {
  if (result.passed) return 'pass';
  return result.baseline ? 'base-fail' : 'fail';
}

function caption(result: ScenarioResult): string {
  const baselineVerdict =
    result.overflows > 0
      ? 'overflows'
      : `${result.violations.length} violation${result.violations.length === 1 ? '' : 's'}`;
  const verdict = result.passed
    ? '<b class="pass">pass</b>'
    : result.baseline
      ? `<b class="base">${baselineVerdict}</b>`
      : '<b class="fail">FAIL</b>';
  return (
    `${escapeXml(result.strategyLabel)} · ${verdict}<br>` +
    `${result.modelCalls} calls · ${result.overflows} overflow${result.overflows === 1 ? '' : 's'} · ${result.compactions} compaction${result.compactions === 1 ? '' : 's'} · ${result.maskings} masking${result.maskings === 1 ? '' : 's'} · ` +
    `peak ${percent(result.peakWindowUse)} · billed ${shortTokens(result.billedPromptTokens)} (${shortTokens(result.cachedPromptTokens)} cached) · ` +
    `${result.summarizerCalls} summarizer call${result.summarizerCalls === 1 ? '' : 's'} · ` +
    `${result.turnsWaitedForSummary} turn${result.turnsWaitedForSummary === 1 ? '' : 's'} waited for a summary (+${(result.summaryWaitMs / 1000).toFixed(1)} s) · $${formatUsd(result.costUsd)}`
  );
}

function summaryMatrix(
  names: readonly string[],
  strategies: readonly string[],
  byKey: Map<string, ScenarioResult>,
): string {
  const head = `<tr><th class="name">scenario</th><th>window</th>${strategies.map((s) => `<th>${escapeXml(s)}<br>overflows · compactions · peak · summarizer · cost $</th>`).join('')}</tr>`;
  const rows = names.map((name) => {
    const first = strategies.map((s) => byKey.get(`${name}\u0000${s}`)).find((r) => r !== undefined);
    const cells = strategies.map((strategy) => {
      const result = byKey.get(`${name}\u0000${strategy}`);
      if (!result) return '<td></td>';
      return `<td class="${verdictClass(result)}">${result.overflows} · ${result.compactions} · ${percent(result.peakWindowUse)} · ${result.summarizerCalls} · ${formatUsd(result.costUsd)}</td>`;
    });
    return `<tr><td class="name"><a href="#${slug(name)}">${escapeXml(name)}</a></td><td>${first ? shortTokens(first.window) : ''}</td>${cells.join('')}</tr>`;
  });
  return `<table><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
}

function scenarioSection(name: string, results: readonly ScenarioResult[]): string {
  const first = results[0];
  if (!first) return '';
  const scale = chartScale(
    first.window,
    results.map((result) => result.calls),
  );
  const figures = results.map((result) => {
    const chart = renderChart({
      title: `${name}, ${result.strategyLabel}: prompt tokens per model call`,
      calls: result.calls.map((call, i) => ({ ...call, waitedMs: result.summaryWaitsMs[i] ?? 0 })),
      window: result.window,
      threshold: result.threshold,
      scale,
      showRaw: !result.baseline,
    });
    return `<figure data-strategy="${escapeXml(result.strategy)}">${chart}<figcaption>${caption(result)}</figcaption></figure>`;
  });
  const failures = results
    .filter((result) => result.violations.length > 0)
    .map(
      (result) =>
        `<details${result.baseline ? '' : ' open'}><summary>${escapeXml(result.strategyLabel)}: ${result.violations.length} violation(s)</summary><ul>${result.violations
          .map((violation) => `<li>${escapeXml(violation)}</li>`)
          .join('')}</ul></details>`,
    );
  return (
    `<section class="scenario" id="${slug(name)}"><h2>${escapeXml(name)}</h2>` +
    `<p class="claim">${escapeXml(first.claim)}</p>` +
    `<p class="meta">${escapeXml(first.group)} · window ${shortTokens(first.window)} · threshold ${shortTokens(first.threshold)} · ${first.turns} turns · ratio ${escapeXml(first.ratio)} · usage metadata ${escapeXml(first.usage)}</p>` +
    `<div class="charts">${figures.join('')}</div>${failures.join('')}</section>`
  );
}

export function renderReport(results: readonly ScenarioResult[], meta: ReportMeta): string {
  const names: string[] = [];
  const strategies: string[] = [];
  const byKey = new Map<string, ScenarioResult>();
  for (const result of results) {
    if (!names.includes(result.name)) names.push(result.name);
    if (!strategies.includes(result.strategy)) strategies.push(result.strategy);
    byKey.set(`${result.name}\u0000${result.strategy}`, result);
  }
  const guard = results.filter((result) => !result.baseline);
  const guardFailed = guard.filter((result) => !result.passed);
  const baselineTotals = strategies
    .map((strategy) => results.filter((result) => result.strategy === strategy && result.baseline))
    .filter((list) => list.length > 0)
    .map(
      (list) =>
        `${escapeXml(list[0]?.strategyLabel ?? '')}: ${list.reduce((sum, r) => sum + r.overflows, 0)} overflows in ${list.filter((r) => r.overflows > 0).length} of ${list.length} scenarios`,
    );
  const sections = names.map((name) =>
    scenarioSection(
      name,
      strategies.map((s) => byKey.get(`${name}\u0000${s}`)).filter((r): r is ScenarioResult => r !== undefined),
    ),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>ContextGuard simulation report</title><style>${STYLE}</style></head>
<body>
<h1>ContextGuard simulation</h1>
<p class="meta">${escapeXml(meta.generatedAt)} · ground truth: ${escapeXml(meta.groundTruth)} · ${names.length} scenarios × ${strategies.length} strategies · ${(meta.durationMs / 1000).toFixed(1)} s · <code>${escapeXml(meta.command)}</code></p>
<p><b class="${guardFailed.length === 0 ? 'pass' : 'fail'}">ContextGuard: ${guard.length - guardFailed.length} of ${guard.length} runs passed</b>${baselineTotals.length > 0 ? ` · baselines: ${baselineTotals.join(' · ')}` : ''}</p>
<p class="legend"><span><i style="border-color:#1565c0"></i>prompt tokens sent</span><span><i style="border-color:#9aa5b4;border-top-style:dashed"></i>as ADK built it</span><span><i style="border-color:#ef8f00;border-top-style:dashed"></i>threshold (window − buffer)</span><span><i style="border-color:#c62828;border-top-style:dashed"></i>window</span><span style="color:#c62828">● rejected (overflow)</span><span style="color:#2e7d32">▲ compaction</span><span style="color:#ef6c00">■ waited for a summary</span></p>
${summaryMatrix(names, strategies, byKey)}
${renderReplayCostSection(replayCost(results), escapeXml)}
${renderToolWorkSection(results, escapeXml)}
${meta.retention ? renderRetentionSection(meta.retention, escapeXml) : ''}
${meta.recall ? renderRecallSection(meta.recall, escapeXml) : ''}
${sections.join('\n')}
<script>${ANNOTATE}</script>
</body></html>
`;
}
