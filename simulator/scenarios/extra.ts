/**
 * Scenarios for the seed's gaps: windows of 4k, 32k, 128k and 1M; images and
 * documents; many tool declarations; a real drift of the ratio within a
 * session; several agents; and a summarizer that fails, hangs, returns
 * nothing or ignores its cap.
 */
import { chain, everyNth, K, NO_TOOLS, parallel, pdf, png, single } from '../scenario-builders.js';
import type { ScenarioSpec } from '../scenario-types.js';

export const EXTRA: readonly ScenarioSpec[] = [
  {
    name: '4k_SmallModel_ToolCalls',
    group: 'extra',
    claim: 'A 4k window (small local model) with an 800-character result every second turn: no overflow.',
    window: 4 * K, turns: 30, ratio: 1.8, usage: 'always',
    turnPattern: { tools: everyNth(2, single(800, 'json')), messageChars: [160, 240], responseChars: [200, 320] },
    expect: { compactions: { min: 3 } },
  },
  {
    name: '4k_ToolResultFillsWindow',
    group: 'extra',
    claim: 'On a 4k window a 9k-character result (4k tokens) alone fills the window; it reaches the model shrunk.',
    window: 4 * K, turns: 6, ratio: 1.8, usage: 'always',
    turnPattern: { tools: [single(9 * K, 'logs'), NO_TOOLS] },
    expect: { shrunkToolResult: true, rawOverWindow: { min: 1 } },
  },
  {
    name: '32k_CodingAgent_SourceFiles',
    group: 'extra',
    claim: 'A coding agent reads two source files and a log per turn (a chain) on 32k at ratio 2.4: mid-chain compaction.',
    window: 32 * K, turns: 25, ratio: 2.4, usage: 'always',
    turnPattern: { tools: [chain([12 * K, 8 * K], 'code'), single(3 * K, 'logs')] },
    expect: { compactions: { min: 2 }, rawOverWindow: { min: 1 } },
  },
  {
    name: '128k_ManyToolDeclarations',
    group: 'extra',
    claim: 'Eighty declared tools (~100k characters of schemas) ride on every request; the guard counts them and stays inside 128k.',
    window: 128 * K, turns: 30, ratio: 2.2, usage: 'always', extraToolDeclarations: 80,
    turnPattern: { tools: [single(20 * K, 'json')] },
    expect: { compactions: { min: 1 }, rawOverWindow: { min: 1 } },
  },
  {
    name: '1M_LongHorizon_HugeResults',
    group: 'extra',
    claim: 'A 1M window (20k fixed buffer) with 240k-character results every turn: compactions near the top, no overflow.',
    window: 1_000 * K, turns: 14, ratio: 2.0, usage: 'always',
    turnPattern: { tools: [single(240 * K, 'logs')] },
    expect: { compactions: { min: 1 }, rawOverWindow: { min: 1 } },
  },
  {
    name: '32k_ImagesAndDocuments',
    group: 'extra',
    claim: 'Screenshots and PDFs attached to messages (billed per image and page, not per byte) plus a tool that returns base64 images.',
    window: 32 * K, turns: 24, ratio: 2.0, usage: 'always',
    turnPattern: {
      tools: [NO_TOOLS, single(6 * K, 'json'), NO_TOOLS, single(20 * K, 'image')],
      attachments: [[png(1_024, 768, 60 * K), png(300, 200, 8 * K)], [], [pdf(3)], []],
    },
    expect: { compactions: { min: 2 }, rawOverWindow: { min: 1 } },
  },
  {
    name: '8k_RatioDrift_Rising',
    group: 'extra',
    claim: 'The real ratio drifts from 1.5 to 3.5 over 40 turns (prose, then JSON); calibration follows it, no overflow.',
    window: 8 * K, turns: 40, ratio: { from: 1.5, to: 3.5 }, usage: 'always',
    turnPattern: { tools: [single(1_200, 'json')] },
    expect: { compactions: { min: 3 } },
  },
  {
    name: '200k_RatioDrift_Steps',
    group: 'extra',
    claim: 'The ratio jumps 1.5 → 3.5 at turn 15 and falls to 2.0 at turn 30; no overflow after either jump.',
    window: 200 * K, turns: 40, ratio: { steps: [[1, 1.5], [15, 3.5], [30, 2.0]] }, usage: 'always',
    turnPattern: { tools: [single(15 * K, 'json')] },
    expect: { compactions: { min: 1 }, rawOverWindow: { min: 1 } },
  },
  {
    name: '32k_MultiAgent_Transfer',
    group: 'extra',
    claim: 'A router transfers to a worker and back every turn; each agent sees the other\'s tool output as "For context" and each compacts with its own state.',
    window: 32 * K, turns: 20, ratio: 2.0, usage: 'always', agents: 'transfer',
    turnPattern: { tools: [single(6 * K, 'json'), parallel([3 * K, 2 * K], 'logs')] },
    expect: { everyAgentCompacted: true, rawOverWindow: { min: 1 } },
  },
  {
    name: '8k_MultiAgent_Pipeline',
    group: 'extra',
    claim: 'A SequentialAgent runs a researcher (tools) then a writer every turn in one session; both stay inside the window.',
    window: 8 * K, turns: 15, ratio: 2.0, usage: 'always', agents: 'pipeline',
    turnPattern: { tools: [single(2 * K, 'json')] },
    expect: { everyAgentCompacted: true, rawOverWindow: { min: 1 } },
  },
  {
    name: '8k_SummarizerFails',
    group: 'extra',
    claim: 'The summarizer answers 503 every time; the guard falls back to its mechanical summary and never overflows.',
    window: 8 * K, turns: 20, ratio: 2.0, usage: 'always', summarizer: { behavior: 'fail' },
    turnPattern: { tools: [single(2 * K, 'logs')] },
    expect: { fallbackSummary: true, compactions: { min: 2 } },
  },
  {
    name: '8k_SummarizerTimesOut',
    group: 'extra',
    claim: 'The summarizer hangs; the guard gives up after its timeout and uses the fallback summary.',
    window: 8 * K, turns: 12, ratio: 2.0, usage: 'always', summarizer: { behavior: ['timeout', 'ok'] }, guard: { summarizerTimeoutMs: 150 },
    turnPattern: { tools: [single(2 * K, 'logs')] },
    expect: { fallbackSummary: true, compactions: { min: 2 } },
  },
  {
    name: '8k_SummarizerReturnsEmpty',
    group: 'extra',
    claim: 'The summarizer returns empty text; the guard uses the fallback summary instead of an empty one.',
    window: 8 * K, turns: 15, ratio: 2.0, usage: 'always', summarizer: { behavior: 'empty' },
    turnPattern: { tools: [single(2 * K, 'json')] },
    expect: { fallbackSummary: true, compactions: { min: 2 } },
  },
  {
    name: '8k_SummarizerIgnoresCap',
    group: 'extra',
    claim: 'The summarizer writes three times its output cap; the guard cuts the summary so the request still fits.',
    window: 8 * K, turns: 20, ratio: 2.0, usage: 'always', summarizer: { behavior: 'overlong' },
    turnPattern: { tools: [single(2 * K, 'json')] },
    expect: { compactions: { min: 2 } },
  },
];
