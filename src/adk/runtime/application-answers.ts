/**
 * The function responses an application sent itself: a long-running tool's final answer, a user's choice
 * (user-authored events; a tool's own response is authored by its agent, a confirmed tool's included). ADK places each right after its
 * call in every later request, so it can land inside what a stored summary covers; a summary that never read it must
 * not be applied over it (pipeline/unseen-answer.ts).
 */

import { answerKey } from '../../content/answer-key.js';
import type { ApplicationAnswer } from '../../pipeline/unseen-answer.js';

/** A function response as an event holds it. */
interface EventResponse {
  readonly name?: string | undefined;
  readonly response?: unknown;
}

/** The parts of a session event read here. */
interface AnswerEvent {
  readonly author?: string | undefined;
  readonly content?: { readonly parts?: readonly { readonly functionResponse?: EventResponse }[] } | undefined;
}

/** Answers remembered per session at most (the latest): more than a session is expected to wait on. */
const MAX_ANSWERS = 512;

interface Scan {
  readonly length: number;
  readonly answers: readonly ApplicationAnswer[];
}

/** By the session's event list (ADK appends to it): each call reads only the events new since. */
const scans = new WeakMap<readonly AnswerEvent[], Scan>();

/** The keys (content/answer-key.ts) of the responses the application sent in these events, oldest first (the latest `MAX_ANSWERS`). */
export function applicationAnswers(events: readonly AnswerEvent[]): readonly ApplicationAnswer[] {
  const known = scans.get(events);
  const from = known && known.length <= events.length ? known.length : 0;
  let answers = from > 0 && known ? known.answers : [];
  for (let i = from; i < events.length; i++) {
    const event = events[i];
    if (event?.author !== 'user') continue;
    for (const part of event.content?.parts ?? []) {
      const response = part.functionResponse;
      // ADK takes its own requests' answers (a confirmation, a credential) out of what it sends the model.
      if (!response || response.name?.startsWith('adk_request') === true) continue;
      const key = answerKey(response.name, response.response);
      // Equal answers (two approvals) are two: a summary may have read one and not the other.
      if (key) answers = [...answers, { name: response.name ?? '', key }].slice(-MAX_ANSWERS);
    }
  }
  scans.set(events, { length: events.length, answers });
  return answers;
}
