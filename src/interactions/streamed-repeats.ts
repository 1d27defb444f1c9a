/**
 * ADK 2.0.0's streamed Interactions path (`generateContentViaInteractions` with a stream) yields each function call
 * alone when its step stops, then the interaction's parts together (thoughts, text, calls, in the server's order)
 * in the aggregate of its last status, and that aggregate again after its loop. ADK runs a tool for each answer
 * that holds its call and stores every copy, while the server's chain holds the call once and only the last result
 * (the forty-third to fifty-first outside trials; review 47: a thought or a text before the call made a second run).
 * So, in one streamed call: a step's call is held until the first aggregate, which is handed on whole, once, in its
 * place (as the call not streamed answers); a later answer that brings no call not handed on already (without calls,
 * no part) is dropped, whatever else it holds.
 * A partial answer is handed on as it comes; one that is not the Interactions API's (no interaction id), an error
 * or one with usage too, the held calls first.
 */

/** What of a model's answer this reads (plain fields of ADK's `LlmResponse`). */
export interface StreamedAnswer {
  readonly partial?: boolean | undefined;
  readonly turnComplete?: boolean | undefined;
  readonly content?: { readonly parts?: readonly unknown[] | undefined } | undefined;
  readonly errorCode?: string | undefined;
  readonly usageMetadata?: unknown;
  readonly interactionId?: string | undefined;
}

/** One streamed call's answers as ADK should act on them: `take` each as it comes, then `end`. */
export class StreamedRepeats<T extends StreamedAnswer> {
  private held: T[] = [];
  /** Keys of the parts handed on complete (a call by its id: a callback may have edited its arguments since). */
  private readonly handed = new Set<string>();

  /** The answers to hand on now that `answer` came. */
  take(answer: T): T[] {
    // A partial answer never carries a call ADK runs: the calls held stay held for the aggregate.
    if (answer.partial === true) return [answer];
    const keys = partKeys(answer);
    const plain =
      answer.interactionId === undefined ||
      answer.errorCode !== undefined ||
      answer.usageMetadata !== undefined ||
      keys.length === 0;
    if (plain) return [...this.end(), answer];
    if (!this.bringsNew(keys)) return [];
    if (answer.turnComplete !== true) {
      // A step's call waits for the aggregate; anything else of a step (an image, say) goes on, the calls still held.
      if (!keys.some(isCallKey)) return this.handing([answer]);
      this.held.push(answer);
      return [];
    }
    const unheld = this.held.filter((held) => !partKeys(held).every((key) => keys.includes(key)));
    this.held = [];
    return [...this.handing(unheld), ...this.handing([answer])];
  }

  /**
   * Whether an answer brings what was not handed on: with calls, a call not handed on (its other parts were streamed
   * as partials or came with that call: review 48, a call ran again beside a text a callback had edited); else a part.
   */
  private bringsNew(keys: readonly string[]): boolean {
    const calls = keys.filter(isCallKey);
    return (calls.length > 0 ? calls : keys).some((key) => !this.handed.has(key));
  }

  /** What is still held when the stream ends (a call no aggregate followed). */
  end(): T[] {
    const held = this.held;
    this.held = [];
    return this.handing(held);
  }

  private handing(answers: readonly T[]): T[] {
    for (const answer of answers) for (const key of partKeys(answer)) this.handed.add(key);
    return [...answers];
  }
}

const CALL_KEY = 'call\u0000';

function isCallKey(key: string): boolean {
  return key.startsWith(CALL_KEY);
}

function partKeys(answer: StreamedAnswer): string[] {
  return (answer.content?.parts ?? []).map(partKey);
}

function partKey(part: unknown): string {
  const call = (part as { functionCall?: { id?: unknown; name?: unknown; args?: unknown } } | null)?.functionCall;
  if (call && typeof call.id === 'string' && call.id !== '') return `${CALL_KEY}${call.id}`;
  if (call) return `${CALL_KEY}${String(call.name)}\u0000${JSON.stringify(call.args ?? null)}`;
  return JSON.stringify(part);
}
