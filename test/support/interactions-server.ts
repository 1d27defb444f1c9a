/**
 * Gemini's Interactions API, emulated offline for ADK's real `Gemini` code path
 * (`generateContentViaInteractions`): a `Gemini` subclass (dummy API key, `useInteractionsApi: true`)
 * whose `_apiClient.interactions.create` keeps every chain by id, answers with a new id, reports
 * `total_input_tokens` (the whole chain) and fails an interaction whose chain is over the window,
 * as a response (`status: 'failed'`), not a throw. Streamed, it sends the events ADK reads (no usage, as the
 * API streams). A tool-using model: it calls `fetch_logs` on a
 * user message and answers once it has the result.
 */
import { Gemini } from '@google/adk';
import { logText } from '../../src/testing/index.js';

/** One step of an interaction's input or output, as ADK's interactions_utils builds and reads them. */
interface Step {
  readonly type: string;
  readonly id?: string;
  readonly call_id?: string;
  readonly name?: string;
  readonly arguments?: unknown;
  readonly result?: unknown;
  readonly content?: readonly { readonly type: string; readonly text?: string }[];
}

interface CreateParams {
  readonly input: readonly Step[];
  readonly previous_interaction_id?: string;
  readonly system_instruction?: string;
  readonly tools?: readonly unknown[];
  readonly stream?: boolean;
}

/** One `interactions.create` as the server saw it. */
export interface ServedInteraction {
  readonly previousId: string | undefined;
  readonly input: readonly Step[];
  /** The chain's input tokens for this call (history + this input + system + tools). */
  readonly totalInputTokens: number;
  readonly failed: boolean;
}

/** JSON characters / 2.5, rounded up: the server's own count, near the guard's estimate of these texts (calibration learns the rest). */
function tokensOf(value: unknown): number {
  return value === undefined ? 0 : Math.ceil(JSON.stringify(value).length / 2.5);
}

export class InteractionsServer {
  readonly served: ServedInteraction[] = [];
  /** History tokens of each chain, by the id of its last interaction. */
  private readonly chains = new Map<string, number>();
  private readonly emitted = new Set<string>();
  private next = 0;

  constructor(
    private readonly window: number,
    private readonly toolSize: number,
    /** A text step before each call ("Let me look."), as a model that says what it does first answers. */
    private readonly textBeforeCall = false,
  ) {}

  /** The API key is never used: every call goes to this emulated client. */
  model(): Gemini {
    const model = new Gemini({ model: 'gemini-2.5-flash', apiKey: 'offline-dummy-key', useInteractionsApi: true });
    Object.assign(model, { _apiClient: { interactions: { create: (params: CreateParams) => this.create(params) } } });
    return model;
  }

  private async create(params: CreateParams): Promise<unknown> {
    await new Promise((resolve) => setTimeout(resolve, 2));
    const previousId = params.previous_interaction_id;
    const before = previousId === undefined ? 0 : this.chains.get(previousId);
    if (before === undefined) throw new Error(JSON.stringify({ error: { code: 404, message: 'unknown interaction' } }));
    // A function call ADK sends again with its result is already in the chain (the server made it).
    const input = params.input.filter((step) => !(step.type === 'function_call' && this.emitted.has(step.id ?? '')));
    const history = before + tokensOf(input);
    const total = history + tokensOf(params.system_instruction) + tokensOf(params.tools);
    const id = `interaction-${++this.next}`;
    const failed = total > this.window;
    this.served.push({ previousId, input: params.input, totalInputTokens: total, failed });
    if (failed) {
      // The failed interaction keeps its chain: continuing from it fails again.
      this.chains.set(id, history);
      const message = `The input token count (${total}) exceeds the maximum number of tokens allowed (${this.window}).`;
      const error = { code: 'INVALID_ARGUMENT', message };
      if (params.stream) return streamedFailure(id, error);
      return { id, status: 'failed', error };
    }
    const steps = this.answer(params.input);
    this.chains.set(id, history + tokensOf(steps));
    const status = steps[0]?.type === 'function_call' ? 'requires_action' : 'completed';
    if (params.stream) return streamed(id, steps, status);
    return { id, status, steps, usage: { total_input_tokens: total, total_output_tokens: tokensOf(steps) } };
  }

  /** A tool call on a user message, an answer once the result is in; a summary when asked for one. */
  private answer(input: readonly Step[]): Step[] {
    const last = input[input.length - 1];
    if (last?.type === 'user_input' && last.content?.[0]?.text?.startsWith('Stop here: do not answer'))
      return [
        { type: 'model_output', content: [{ type: 'text', text: `Summary ${this.next}: the logs were checked.` }] },
      ];
    if (last?.type === 'function_result')
      return [
        {
          type: 'model_output',
          content: [{ type: 'text', text: `Analysis ${this.next}: ${logText(120, this.next)}` }],
        },
      ];
    const id = `call-${this.next}`;
    this.emitted.add(id);
    const call = { type: 'function_call', id, name: 'fetch_logs', arguments: { size: this.toolSize, seed: this.next } };
    return this.textBeforeCall
      ? [{ type: 'model_output', content: [{ type: 'text', text: 'Let me look.' }] }, call]
      : [call];
  }
}

/** An interaction's answer as the API streams it: a start, each step (a text in chunks), the last status; no usage. */
async function* streamed(id: string, steps: readonly Step[], status: string): AsyncGenerator<unknown> {
  yield { event_type: 'interaction.start', interaction: { id } };
  for (const step of steps) {
    if (step.type === 'function_call') {
      yield {
        event_type: 'step.start',
        interaction_id: id,
        step: { type: 'function_call', id: step.id, name: step.name },
      };
      const delta = { type: 'arguments_delta', arguments: JSON.stringify(step.arguments) };
      yield { event_type: 'step.delta', interaction_id: id, delta };
    } else {
      const text = step.content?.[0]?.text ?? '';
      yield { event_type: 'step.start', interaction_id: id, step: { type: 'model_output' } };
      for (let at = 0; at < text.length; at += 200)
        yield { event_type: 'step.delta', interaction_id: id, delta: { type: 'text', text: text.slice(at, at + 200) } };
    }
    yield { event_type: 'step.stop', interaction_id: id };
  }
  yield { event_type: 'interaction.status_update', interaction_id: id, status };
}

async function* streamedFailure(id: string, error: { readonly code: string; readonly message: string }) {
  yield { event_type: 'interaction.start', interaction: { id } };
  yield { event_type: 'interaction.status_update', interaction_id: id, status: 'failed', error };
}
