/**
 * Worst case: one estimate of an adversarial 1 MB input, in ms per MB.
 *
 * Each input is measured three ways: the tokenizer alone on the text, and the
 * whole per-content estimate (fingerprint + JSON + tokenizer, through a fresh
 * `ContentMeasureCache`) with the input as a text part and as a tool result.
 * Each shape is timed on three different seeds (the first sight of a text, no
 * memo of that text) after one untimed pass on another seed (an agent process
 * has compiled these code paths long before), each after a full garbage
 * collection (so one input does not pay for the garbage of the previous 1 MB
 * inputs); the slowest is reported. Small inputs are timed too: at
 * 2 KB a fixed cost dominates, so ms/MB there says how far from linear the
 * small end is, not what an agent waits for.
 */
import type { Content } from '@google/genai';
import { tiktokenTokenizer } from '../src/index.js';
import { ContentMeasureCache, fingerprintOfKept, keepCopy, safeJson } from '../src/internal.js';
import { base64Text, cjkText, logText, SeededRandom } from '../src/testing/index.js';
import { jsonRecords, payloadText } from './lib/content.js';
import { cpuMsSince } from './lib/harness.js';
import { gcFunction } from './lib/heap.js';
import { round } from './lib/stats.js';

export interface WorstCaseRow {
  readonly input: string;
  readonly bytes: number;
  readonly chars: number;
  readonly tokens: number;
  /** Tokenizer alone, slowest of the seeds (ms). */
  readonly tokenizerMs: number;
  /** Whole estimate of a content holding it as a text part / as a tool result (ms). */
  readonly textPartMs: number;
  readonly toolResultMs: number;
  /** Worst of the three, per MB of UTF-8 (wall clock). */
  readonly msPerMb: number;
  /** The same in process CPU time: what the estimate costs without the other processes of a shared machine. */
  readonly cpuMsPerMb: number;
  /**
   * For structured tool results: the parts of the slowest estimate (ms): the measure cache's copy of the content,
   * the fingerprint (walked over that copy), JSON.stringify, tokenizer.
   */
  readonly toolResultParts?:
    | {
        readonly copyMs: number;
        readonly fingerprintMs: number;
        readonly jsonMs: number;
        readonly tokenizerMs: number;
      }
    | undefined;
}

const MB = 1024 * 1024;

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function randomHan(chars: number, seed: number): string {
  const random = new SeededRandom(seed);
  let out = '';
  for (let i = 0; i < chars; i++) out += String.fromCharCode(0x4e00 + random.int(0x5000));
  return out;
}

function emoji(count: number, seed: number): string {
  const random = new SeededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const code = 0x1f300 + random.int(0x2ff);
    out.push(String.fromCodePoint(code), random.unit() < 0.2 ? '\u{1f3fd}' : '', random.unit() < 0.1 ? '\u200d' : '');
  }
  return out.join('');
}

function nestedJsonText(bytes: number): string {
  const depth = Math.floor(bytes / 2);
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** A 1 MB JSON object nested 1,000 levels deep (deeper than ~4,000 cannot be serialised by V8 at all). */
function nestedJsonObject(bytes: number, seed: number): Record<string, unknown> {
  const levels = 1_000;
  const pad = Math.max(8, Math.floor(bytes / levels) - 40);
  let node: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < levels; i++) node = { level: i, note: logText(pad, seed * 1_000 + i), child: node };
  return node;
}

/** Many nodes: 1 MB of small keyed numbers (the fingerprint walks every node). */
function wideJsonObject(bytes: number, seed: number): Record<string, unknown> {
  const random = new SeededRandom(seed);
  const out: Record<string, unknown> = {};
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const key = `k${i}`;
    const value = random.int(1_000_000);
    out[key] = value;
    size += key.length + String(value).length + 4;
  }
  return out;
}

interface Shape {
  readonly name: string;
  /** Text for the tokenizer and the text part; an object for the tool result when the shape is structured. */
  make(seed: number): { text: string; object?: Record<string, unknown> };
}

function shapes(bytes: number): Shape[] {
  const chars = bytes;
  return [
    { name: 'one repeated character', make: () => ({ text: 'a'.repeat(chars) }) },
    { name: 'spaces only', make: () => ({ text: ' '.repeat(chars) }) },
    {
      name: 'mixed whitespace',
      make: () => ({ text: ' \n\t\u00a0'.repeat(Math.ceil(chars / 5)).slice(0, Math.floor(chars / 1.25)) }),
    },
    { name: 'base64, no whitespace', make: (seed) => ({ text: base64Text(chars, seed) }) },
    { name: 'minified JSON', make: (seed) => ({ text: payloadText('json', chars, seed) }) },
    { name: 'CJK prose, no spaces', make: (seed) => ({ text: cjkText(Math.floor(chars / 3), seed) }) },
    { name: 'random Han characters', make: (seed) => ({ text: randomHan(Math.floor(chars / 3), seed) }) },
    { name: 'emoji with modifiers', make: (seed) => ({ text: emoji(Math.floor(chars / 5.5), seed) }) },
    { name: 'nested JSON text [[[...]]]', make: () => ({ text: nestedJsonText(chars) }) },
    {
      name: 'JSON object 1,000 levels deep',
      make: (seed) => {
        const object = nestedJsonObject(chars, seed);
        return { text: JSON.stringify(object), object };
      },
    },
    {
      name: 'JSON records (array of objects)',
      make: (seed) => {
        const object = jsonRecords(chars, seed);
        return { text: JSON.stringify(object), object };
      },
    },
    {
      name: 'JSON object, ~90k keys',
      make: (seed) => {
        const object = wideJsonObject(chars, seed);
        return { text: JSON.stringify(object), object };
      },
    },
  ];
}

/**
 * A full collection, then a pause for V8's concurrent sweeping to finish, so the next estimate pays for
 * its own garbage only, not for what the previous 1 MB inputs left.
 */
async function settle(): Promise<void> {
  gcFunction()();
  await new Promise((resolve) => setTimeout(resolve, 30));
}

function time(fn: () => unknown): { ms: number; cpuMs: number; value: unknown } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = fn();
  const ms = performance.now() - started;
  return { ms, cpuMs: cpuMsSince(cpu), value };
}

function measureContent(content: Content): { ms: number; cpuMs: number } {
  const cache = new ContentMeasureCache();
  return time(() => cache.measure('worst-case', [content], tiktokenTokenizer));
}

export async function runWorstCase(options: { bytes?: number; seeds?: number } = {}): Promise<WorstCaseRow[]> {
  const bytes = options.bytes ?? MB;
  const seeds = options.seeds ?? 3;
  tiktokenTokenizer.count('warm up the encoder');
  const rows: WorstCaseRow[] = [];
  for (const shape of shapes(bytes)) {
    let tokenizerMs = 0;
    let textPartMs = 0;
    let toolResultMs = 0;
    let worstCpuMs = 0;
    let parts: WorstCaseRow['toolResultParts'];
    let tokens = 0;
    let size = 0;
    let chars = 0;
    for (let seed = 0; seed <= seeds; seed++) {
      const { text, object } = shape.make(seed * 7_919 + 1);
      if (seed === 0) {
        tiktokenTokenizer.count(text);
        measureContent({ role: 'user', parts: [{ text: `w${text}` }] });
        measureContent({
          role: 'user',
          parts: [
            { functionResponse: { name: 'fetch', response: object ? { ...object, seed } : { output: `w ${text}` } } },
          ],
        });
        continue;
      }
      size = utf8Bytes(text);
      chars = text.length;
      await settle();
      const counted = time(() => tiktokenTokenizer.count(text));
      tokens = counted.value as number;
      tokenizerMs = Math.max(tokenizerMs, counted.ms);
      // A fresh variant of the text for each content measure, so no memo of the same text helps.
      const variant = `${seed}${text}`;
      await settle();
      const asText = measureContent({ role: 'user', parts: [{ text: variant }] });
      textPartMs = Math.max(textPartMs, asText.ms);
      const response = object ? { ...object, seed } : { output: `${seed} ${text}` };
      const content: Content = { role: 'user', parts: [{ functionResponse: { name: 'fetch', response } }] };
      // ADK hands the callback a fresh deep copy of every content on every step: measure one.
      await settle();
      const asTool = measureContent(structuredClone(content));
      if (object && asTool.ms >= toolResultMs) {
        await settle();
        const fresh = structuredClone(content);
        const copied = time(() => keepCopy(fresh));
        const print = time(() => fingerprintOfKept(copied.value, fresh));
        const freshResponse = structuredClone(response);
        await settle();
        const json = time(() => safeJson(freshResponse));
        await settle();
        const counted = time(() => tiktokenTokenizer.count(`${json.value as string} `));
        parts = {
          copyMs: round(copied.ms),
          fingerprintMs: round(print.ms),
          jsonMs: round(json.ms),
          tokenizerMs: round(counted.ms),
        };
      }
      toolResultMs = Math.max(toolResultMs, asTool.ms);
      worstCpuMs = Math.max(worstCpuMs, counted.cpuMs, asText.cpuMs, asTool.cpuMs);
    }
    const worst = Math.max(tokenizerMs, textPartMs, toolResultMs);
    rows.push({
      input: shape.name,
      bytes: size,
      chars,
      tokens,
      tokenizerMs: round(tokenizerMs),
      textPartMs: round(textPartMs),
      toolResultMs: round(toolResultMs),
      msPerMb: round(worst / (size / MB)),
      cpuMsPerMb: round(worstCpuMs / (size / MB)),
      toolResultParts: parts,
    });
  }
  return rows;
}

/**
 * Smaller inputs. A text of up to 2,048 characters is counted exactly, so its time is the tokenizer's
 * BPE rate plus a fixed cost, and one garbage collection landing in a 0.1 ms measurement would be
 * the whole figure: these rows are medians over many distinct inputs, with the slowest alongside.
 */
export interface SmallInputRow {
  readonly input: string;
  readonly bytes: number;
  /** Distinct inputs measured. */
  readonly samples: number;
  readonly medianMs: number;
  readonly maxMs: number;
  /** Median per MB of UTF-8. */
  readonly msPerMb: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function sampleRow(input: string, samples: number, make: (seed: number) => Content): Promise<SmallInputRow> {
  // structuredClone makes every string flat, as contents parsed from a session store are: the generators
  // build some texts by concatenation, and V8 flattening such a string on first read is not the estimate's cost.
  // An agent process has run these code paths long before: warm them up (V8 optimises a function after
  // many calls; 30 calls left 2 KB inputs at 2-3 times their later time) on other inputs first.
  const probe = structuredClone(make(1));
  const bytes = (probe.parts ?? []).reduce(
    (sum, part) => sum + utf8Bytes(part.text ?? safeJson(part.functionResponse?.response ?? '')),
    0,
  );
  const warmUps = Math.max(3, Math.min(100, Math.ceil(200_000 / bytes)));
  const contents = Array.from({ length: warmUps + samples }, (_, i) => structuredClone(make(i * 104_729 + 17)));
  for (const content of contents.slice(0, warmUps)) measureContent(content);
  await settle();
  // The pause after the collection lets the CPU idle; wake it with a few untimed estimates first.
  for (const content of contents.slice(0, 3)) measureContent(content);
  const times = contents.slice(warmUps).map((content) => measureContent(content).ms);
  const medianMs = median(times);
  return {
    input,
    bytes,
    samples,
    medianMs: round(medianMs, 4),
    maxMs: round(Math.max(...times), 3),
    msPerMb: round(medianMs / (bytes / MB), 1),
  };
}

const textContent = (text: string): Content => ({ role: 'user', parts: [{ text }] });

/** Texts of the hardest shapes at growing sizes, 2 KB texts of every kind, and contents of 512 parts of 2 KB. */
export async function runSmallInputs(): Promise<SmallInputRow[]> {
  const rows: SmallInputRow[] = [];
  const twoKb: [string, (seed: number) => string][] = [
    ['spaces', () => ' '.repeat(2_048)],
    ['ideographic spaces (U+3000)', () => '\u3000'.repeat(683)],
    ['base64', (seed) => base64Text(2_048, seed)],
    ['random Han', (seed) => randomHan(683, seed)],
    ['logs', (seed) => logText(2_048, seed)],
    ['JSON', (seed) => payloadText('json', 2_048, seed)],
    ['CJK prose', (seed) => cjkText(683, seed)],
  ];
  for (const [name, make] of twoKb)
    rows.push(await sampleRow(`2 KB ${name}`, 40, (seed) => textContent(`${seed} ${make(seed)}`)));
  for (const [name, make] of [
    ['random Han', (chars: number, seed: number) => randomHan(Math.floor(chars / 3), seed)],
    ['base64', (chars: number, seed: number) => base64Text(chars, seed)],
  ] as const) {
    for (const size of [8 * 1_024, 32 * 1_024, 128 * 1_024]) {
      rows.push(
        await sampleRow(`${size / 1_024} KB ${name}`, size > 32 * 1_024 ? 10 : 30, (seed) =>
          textContent(make(size, seed)),
        ),
      );
    }
  }
  // One content of 512 distinct 2 KB parts (every part short enough to be counted exactly on its own).
  for (const [name, part] of [
    ['random Han', (i: number) => randomHan(683, i)],
    ['base64', (i: number) => base64Text(2_048, i)],
    ['logs', (i: number) => logText(2_048, i)],
  ] as const) {
    rows.push(
      await sampleRow(`1 MB as 512 text parts of 2 KB ${name}`, 3, (seed) => ({
        role: 'user',
        parts: Array.from({ length: 512 }, (_, i) => ({ text: part(seed + i) })),
      })),
    );
    rows.push(
      await sampleRow(`1 MB as 512 tool results of 2 KB ${name}`, 3, (seed) => ({
        role: 'user',
        parts: Array.from({ length: 512 }, (_, i) => ({
          functionResponse: { name: 'fetch', response: { output: part(seed + i) } },
        })),
      })),
    );
  }
  return rows;
}
