/**
 * ADK 2.0.0's streamed Interactions path (`generateContentViaInteractions` with a stream) yields a
 * function call when its step stops, again in the aggregate of the interaction's last status, and a
 * third time in the aggregate after its loop; a final text twice. ADK runs the tool for each copy and
 * stores every copy, while the server's chain holds the call once and only the last result (the
 * forty-third to fifty-first outside trials). A repeat is an answer that brings nothing new: every
 * part of it already came in a complete answer of the same call, for the same interaction, with no
 * error and no usage of its own. Dropped, the tool runs once and the session holds what the server does.
 */

/** What of a model's answer tells a repeat (plain fields of ADK's `LlmResponse`). */
export interface StreamedAnswer {
  readonly partial?: boolean | undefined;
  readonly content?: { readonly parts?: readonly unknown[] | undefined } | undefined;
  readonly errorCode?: string | undefined;
  readonly usageMetadata?: unknown;
  readonly interactionId?: string | undefined;
}

/** True for an answer of one streamed call that repeats what complete answers before it already brought. */
type RepeatCheck = (answer: StreamedAnswer) => boolean;

/** A check for one streamed call's answers, in order: it remembers the parts each complete answer brought. */
export function streamedRepeats(): RepeatCheck {
  const seen = new Set<string>();
  let interactionId: string | undefined;
  return (answer) => {
    const parts = answer.content?.parts ?? [];
    if (answer.partial || parts.length === 0) return false;
    const keys = parts.map((part) => JSON.stringify(part));
    const repeat =
      answer.errorCode === undefined &&
      answer.usageMetadata === undefined &&
      answer.interactionId === interactionId &&
      keys.every((key) => seen.has(key));
    for (const key of keys) seen.add(key);
    interactionId = answer.interactionId;
    return repeat;
  };
}
