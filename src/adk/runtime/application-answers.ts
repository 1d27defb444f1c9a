/**
 * The function responses an application sent itself: a long-running tool's final answer, a user's choice
 * (user-authored events; a tool's own response is authored by its agent, a confirmed tool's included). ADK places each right after its
 * call in every later request, so it can land inside what a stored summary covers; a summary that never read it must
 * not be applied over it (pipeline/unseen-answer.ts).
 */

import { answerKey } from '../../content/answer-key.js';
import type { ApplicationAnswer } from '../../pipeline/unseen-answer.js';
import { BoundedMap } from '../../collections/bounded-map.js';
import { resumeAt, scanEnd, type EventScan } from './event-scan.js';

/** A function response as an event holds it. */
interface EventResponse {
  readonly name?: string | undefined;
  readonly response?: unknown;
}

/** The parts of a session event read here. */
interface AnswerEvent {
  readonly id?: string | undefined;
  readonly author?: string | undefined;
  readonly content?: { readonly parts?: readonly { readonly functionResponse?: EventResponse }[] } | undefined;
}

/** Answers remembered per session at most (the latest): more than a session is expected to wait on. */
const MAX_ANSWERS = 512;

interface Scan extends EventScan {
  readonly answers: readonly ApplicationAnswer[];
}

/** Sessions remembered at most; the oldest are read afresh. */
const MAX_SESSIONS = 10_000;

/**
 * By session (app, user, id) and agent: ADK gives each invocation a new list of the session's events, which starts
 * with the events read before, so each call reads only the events new since (a whole read per turn cost about 0.2 ms
 * a call on the bench's 1M-token session).
 */
const scans = new BoundedMap<string, Scan>(MAX_SESSIONS);

/** The keys (content/answer-key.ts) of the responses the application sent in these events, oldest first (the latest `MAX_ANSWERS`). */
export function applicationAnswers(events: readonly AnswerEvent[], key: string): readonly ApplicationAnswer[] {
  const known = scans.get(key);
  const from = resumeAt(events, known);
  let answers = from > 0 && known ? known.answers : [];
  for (let i = from; i < events.length; i++) {
    const event = events[i];
    if (event?.author !== 'user') continue;
    for (const part of event.content?.parts ?? []) {
      const response = part.functionResponse;
      // ADK takes its own requests' answers (a confirmation, a credential) out of what it sends the model.
      if (!response || response.name?.startsWith('adk_request') === true) continue;
      const answer = answerKey(response.name, response.response);
      // Equal answers (two approvals) are two: a summary may have read one and not the other.
      if (answer) answers = [...answers, { name: response.name ?? '', key: answer }].slice(-MAX_ANSWERS);
    }
  }
  scans.set(key, { ...scanEnd(events), answers });
  return answers;
}
