/**
 * ADK 2.0.0's streamed Interactions path (`generateContentViaInteractions` with a stream) yields each function call
 * alone when its step stops, then the interaction's parts together (thoughts, text, calls, in the server's order)
 * in the aggregate of its last status, and that aggregate again after its loop. ADK runs a tool for each answer
 * that holds its call and stores every copy, while the server's chain holds the call once and only the last result
 * (the forty-third to fifty-first outside trials; review 47: a thought or a text before the call made a second run).
 * So, in one streamed call: a step's call is held until the first aggregate, which is handed on whole, once, in its
 * place (as the call not streamed answers); a complete answer after a held call waits behind it; a later answer that
 * brings no call not handed on already (without calls, no part) is dropped, whatever else it holds (its usage goes on
 * alone). A part is known by its object (ADK's repeats are the same objects) or a call by its id. A partial answer is
 * handed on as it comes (ADK stores none); one that is not the Interactions API's (no interaction id) or an error
 * too, the held ones first.
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
  /** A step's call and whatever came after it, in order, until the aggregate. */
  private held: T[] = [];
  /**
   * The parts handed on, as objects: ADK's repeats are the same part objects, whatever a callback wrote into them
   * since (trial 56: a call ADK gave an id, a text a callback redacted, read as new by their value). And a call's id.
   */
  private readonly handedParts = new WeakSet<object>();
  private readonly handedCalls = new Set<string>();

  /** The answers to hand on now that `answer` came. */
  take(answer: T): T[] {
    // A partial answer never carries a call ADK runs: the calls held stay held for the aggregate.
    if (answer.partial === true) return [answer];
    const parts = answer.content?.parts ?? [];
    if (answer.interactionId === undefined || answer.errorCode !== undefined || parts.length === 0)
      return [...this.end(), answer];
    if (!this.bringsNew(parts)) return this.repeatOf(answer);
    if (answer.turnComplete !== true) {
      // A step's call waits for the aggregate, and what comes after it waits behind it (trial 56: a text moved ahead).
      if (this.held.length === 0 && !parts.some(isCall)) return this.handing([answer]);
      this.held.push(answer);
      return [];
    }
    const covered = coveredBy(parts);
    const [first] = this.held;
    const unheld = this.handing(this.held.filter((held) => !covered(held)));
    this.held = [];
    // The aggregate takes the place of the held call it brings; what came after that call follows it.
    const aggregate = this.handing([answer]);
    return first !== undefined && covered(first) ? [...aggregate, ...unheld] : [...unheld, ...aggregate];
  }

  /** What is still held when the stream ends (a call no aggregate followed). */
  end(): T[] {
    const held = this.held;
    this.held = [];
    return this.handing(held);
  }

  /**
   * Whether an answer brings what was not handed on: with calls, a call not handed on (its other parts were streamed
   * as partials or came with that call: review 48, a call ran again beside a text a callback had edited); else a part.
   */
  private bringsNew(parts: readonly unknown[]): boolean {
    const calls = parts.filter(isCall);
    return (calls.length > 0 ? calls : parts).some((part) => !this.isHanded(part));
  }

  private isHanded(part: unknown): boolean {
    if (typeof part === 'object' && part !== null && this.handedParts.has(part)) return true;
    const id = callId(part);
    return id !== undefined && this.handedCalls.has(id);
  }

  /** A repeat is dropped; one carrying usage goes on without its content, so its count is read (trial 56). */
  private repeatOf(answer: T): T[] {
    return answer.usageMetadata === undefined ? [] : [{ ...answer, content: undefined }];
  }

  private handing(answers: readonly T[]): T[] {
    for (const answer of answers)
      for (const part of answer.content?.parts ?? []) {
        if (typeof part === 'object' && part !== null) this.handedParts.add(part);
        const id = callId(part);
        if (id !== undefined) this.handedCalls.add(id);
      }
    return [...answers];
  }
}

/**
 * Whether an aggregate of `parts` brings what a held answer held: its calls (by object, id, or for an id-less call its
 * name and arguments: review 50, a model that copies its answers), else its parts by object.
 */
function coveredBy(parts: readonly unknown[]): (held: StreamedAnswer) => boolean {
  const ids = new Set(parts.map(callId));
  const values = new Set(parts.filter(isCall).map(callValue));
  const within = (part: unknown): boolean =>
    parts.includes(part) ||
    (callId(part) !== undefined ? ids.has(callId(part)) : isCall(part) && values.has(callValue(part)));
  return (held) => {
    const heldParts = held.content?.parts ?? [];
    const calls = heldParts.filter(isCall);
    return (calls.length > 0 ? calls : heldParts).every(within);
  };
}

function callValue(part: unknown): string {
  const call = (part as { functionCall?: { name?: unknown; args?: unknown } }).functionCall;
  return JSON.stringify([call?.name ?? null, call?.args ?? null]);
}

function isCall(part: unknown): boolean {
  return (part as { functionCall?: unknown } | null)?.functionCall != null;
}

function callId(part: unknown): string | undefined {
  const id = (part as { functionCall?: { id?: unknown } } | null)?.functionCall?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
