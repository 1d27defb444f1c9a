/**
 * Retention: how many facts planted early in a long session are still in the
 * request, verbatim, after many compactions. The same lossy summarizer (it
 * keeps only the latest request, like a model that paraphrases the rest away)
 * serves every strategy, so the difference is what each strategy carries
 * forward by itself. Runs the real Runner, real tools and the strict model.
 */
import type { GuardStrategyOptions } from './strategies.js';
import {
  BaseLlm,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  LlmSummarizer,
  Runner,
  TokenBasedContextCompactor,
  type BaseLlmConnection,
  type BasePlugin,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import type { Content } from '@google/genai';
import { ContextGuard, type CompactionStrategy } from '../src/index.js';
import { decodeUsageRecord, stateKeysFor } from '../src/internal.js';
import { ScriptedLlm, ratioTokenCounter, type ModelScript } from '../src/testing/index.js';
import { logText } from '../src/testing/index.js';

export const RETENTION_WINDOW = 16_000;
export const RETENTION_TURNS = 40;
export const RETENTION_FACTS = 10;

export interface RetentionResult {
  readonly strategy: string;
  readonly label: string;
  readonly facts: number;
  /** Facts found verbatim in the final request sent to the model. */
  readonly retained: number;
  /** Whether the model accepted that final request (without compaction it overflows). */
  readonly finalRequestAccepted: boolean;
  readonly overflows: number;
  readonly compactions: number;
  /** The guard's maskings of old tool results (0 for the baselines). */
  readonly maskings: number;
}

/** The fact planted at fact index `k`: a sentence with an exact identifier. */
export function plantedFact(k: number): string {
  return `The reference for item ${k + 1} is REF-${String(1000 + k * 37)}-${'QWERTYUIOPASDFGH'[k % 16]}${'ZXCVBNMLKJ'[k % 10]}.`;
}

function userText(turn: number): string {
  const k = Math.floor((turn - 1) / 3);
  const fact = (turn - 1) % 3 === 0 && k < RETENTION_FACTS ? ` ${plantedFact(k)}` : '';
  return `Turn ${turn}: check the next batch of logs.${fact}`;
}

/** A summarizer model that keeps only the latest user line of what it is asked to summarize. */
class LossySummarizerLlm extends BaseLlm {
  constructor() {
    super({ model: 'scripted-lossy-summarizer' });
  }
  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const prompt = (request.contents ?? [])
      .flatMap((content) => content.parts ?? [])
      .map((part) => part.text ?? '')
      .join('\n');
    const latest = [...prompt.matchAll(/Turn (\d+): check the next batch of logs\./g)].pop()?.[0] ?? 'the logs';
    yield {
      content: {
        role: 'model',
        parts: [
          { text: `## Current state\nThe user is reviewing logs batch by batch; the latest request was "${latest}".` },
        ],
      },
      finishReason: 'STOP' as LlmResponse['finishReason'],
    };
  }
  override async connect(): Promise<BaseLlmConnection> {
    throw new Error('not supported');
  }
}

const script: ModelScript = ({ request }) => {
  const last = request.contents[request.contents.length - 1];
  if (last?.parts?.some((part) => part.functionResponse))
    return { content: { role: 'model', parts: [{ text: 'Batch checked: nothing unusual.' }] } };
  return {
    content: {
      role: 'model',
      parts: [{ functionCall: { name: 'fetch_logs', args: { seed: request.contents.length } } }],
    },
  };
};

function requestText(contents: readonly Content[]): string {
  return contents
    .flatMap((content) => content.parts ?? [])
    .map((part) => part.text ?? JSON.stringify(part.functionResponse?.response ?? ''))
    .join('\n');
}

async function runOne(
  strategy: 'none' | 'adk-token-based' | CompactionStrategy,
  guardOptions: GuardStrategyOptions,
): Promise<RetentionResult> {
  const model = new ScriptedLlm({ window: RETENTION_WINDOW, countTokens: ratioTokenCounter(2), script });
  const lossy = new LossySummarizerLlm();
  const threshold = RETENTION_WINDOW - Math.round(RETENTION_WINDOW * 0.2);
  const tool = new FunctionTool({
    name: 'fetch_logs',
    description: 'Returns the next batch of logs.',
    parameters: { type: 'OBJECT', properties: { seed: { type: 'INTEGER' } } } as never,
    execute: (input: unknown) => ({ logs: logText(4_000, (input as { seed: number }).seed) }),
  });
  const agent = new LlmAgent({
    name: 'worker',
    model,
    instruction: 'You review logs.',
    tools: [tool],
    ...(strategy === 'adk-token-based'
      ? {
          contextCompactors: [
            new TokenBasedContextCompactor({
              tokenThreshold: threshold,
              eventRetentionSize: 4,
              summarizer: new LlmSummarizer({ llm: lossy }),
            }),
          ],
        }
      : {}),
  });
  const plugins: BasePlugin[] =
    strategy === 'none' || strategy === 'adk-token-based'
      ? []
      : [
          new ContextGuard({
            contextWindow: RETENTION_WINDOW,
            strategy,
            summarizer: lossy,
            logger: { debug() {}, info() {}, warn() {}, error() {} },
            ...guardOptions,
          }),
        ];
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'retention', agent, sessionService, plugins });
  const session = await sessionService.createSession({ appName: 'retention', userId: 'u' });
  for (let turn = 1; turn <= RETENTION_TURNS; turn++) {
    try {
      for await (const _event of runner.runAsync({
        userId: 'u',
        sessionId: session.id,
        newMessage: { role: 'user', parts: [{ text: userText(turn) }] },
      }))
        void _event;
    } catch {
      // ADK's compactor lets a summarizer or model error escape runAsync; the session goes on.
    }
  }
  const final = model.requests[model.requests.length - 1];
  const finalText = requestText(final?.contents ?? []);
  const retained = Array.from({ length: RETENTION_FACTS }, (_, k) => plantedFact(k)).filter((fact) =>
    finalText.includes(fact),
  ).length;
  const stored = await sessionService.getSession({ appName: 'retention', userId: 'u', sessionId: session.id });
  const guardUsage = decodeUsageRecord(stored?.state[stateKeysFor('worker').usage]);
  const guardCompactions = guardUsage.compactions;
  const adkCompactions =
    stored?.events.filter(
      (event) =>
        (event as { isCompacted?: boolean }).isCompacted === true ||
        (event as { compactedContent?: unknown }).compactedContent !== undefined,
    ).length ?? 0;
  const labels: Record<string, string> = {
    none: 'No compaction',
    'adk-token-based': 'ADK TokenBasedContextCompactor',
    threshold: 'ContextGuard threshold',
    'sliding-window': 'ContextGuard sliding-window',
  };
  return {
    strategy: strategy === 'none' || strategy === 'adk-token-based' ? strategy : `guard-${strategy}`,
    label: labels[strategy] ?? strategy,
    facts: RETENTION_FACTS,
    retained,
    finalRequestAccepted: final !== undefined && !final.rejected,
    overflows: model.rejectedRequests.length,
    compactions: strategy === 'adk-token-based' ? adkCompactions : guardCompactions,
    maskings: strategy === 'adk-token-based' ? 0 : guardUsage.maskings,
  };
}

/** Runs the retention experiment for both baselines and both ContextGuard strategies. */
export async function runRetention(guardOptions: GuardStrategyOptions = {}): Promise<RetentionResult[]> {
  const results: RetentionResult[] = [];
  for (const strategy of ['none', 'adk-token-based', 'threshold', 'sliding-window'] as const)
    results.push(await runOne(strategy, guardOptions));
  return results;
}

export function renderRetentionTable(results: readonly RetentionResult[]): string {
  const lines = [
    `Retention: ${RETENTION_FACTS} facts planted in the first ${RETENTION_FACTS * 3} of ${RETENTION_TURNS} turns (window ${RETENTION_WINDOW}), found verbatim in the final request`,
  ];
  for (const result of results) {
    const verdict = result.finalRequestAccepted ? '' : ' (the model rejected that request: over the window)';
    lines.push(
      `  ${result.label.padEnd(32)} ${String(result.retained).padStart(2)}/${result.facts} retained${verdict} · ${result.compactions} compactions · ${result.maskings} maskings · ${result.overflows} overflows`,
    );
  }
  return lines.join('\n');
}

/** The retention table as an HTML section of the report. */
export function renderRetentionSection(results: readonly RetentionResult[], escape: (text: string) => string): string {
  const rows = results
    .map(
      (result) =>
        `<tr><td class="name">${escape(result.label)}</td><td>${result.retained}/${result.facts}</td><td>${result.finalRequestAccepted ? 'yes' : '<b class="fail">no (overflow)</b>'}</td><td>${result.compactions}</td><td>${result.overflows}</td></tr>`,
    )
    .join('');
  return (
    `<section class="retention" id="retention"><h2>Retention of planted facts</h2>` +
    `<p class="claim">${RETENTION_FACTS} facts (sentences with an exact identifier) planted in the first ${RETENTION_FACTS * 3} of ${RETENTION_TURNS} tool-heavy turns on a ${RETENTION_WINDOW}-token window, with a summarizer that keeps only the latest request; counted verbatim in the final request.</p>` +
    `<table><tr><th class="name">strategy</th><th>retained</th><th>final request accepted</th><th>compactions</th><th>overflows</th></tr>${rows}</table></section>`
  );
}
