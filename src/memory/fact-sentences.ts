/**
 * What a sentence of the user's is to the durable facts (memory/durable-facts.ts): a candidate (an identifier, a
 * constraint, a correction, who the user is), marked (asked to be kept, or a correction), or a question.
 */

// Bounded quantifiers keep the match linear: an unbounded `[\w.-]+@` backtracks from every position
// of a long run of word characters (quadratic; minutes on a 200 KB message).
const IDENTIFIER =
  /(?:\b[A-Za-z]{1,12}[-_#]?\d[\w-]{0,64}\b)|(?:\b\d{3,}[\w-]{0,64}\b)|(?:\b[\w.-]{1,64}@[\w-]{1,64}\.[\w.]{1,64})|(?:https?:\/\/\S{1,256})|(?:(?:~|\.{1,2})?\/[\w.-]{1,128}(?:\/[\w.-]{1,128}){1,32})/;
const CONSTRAINT =
  /\b(must|never|always|only|don't|do not|without|at most|at least|no more than|deadline|budget|required?|avoid|allerg\w*|prefer(?:s|red|ence)?|forbidden|not allowed)\b/i;
/**
 * A sentence that changes what the user said before ("Actually, I changed my mind: walnut finish, please.", "email
 * is fine from now on"): a fact, marked as one asked to be kept, so the correction outlives the stale fact it
 * corrects, which a later line of the list overrides. Without it, a correction in plain words was never a candidate
 * while the sentence it corrected stayed verbatim in the facts, and the agent phoned a stolen phone (the fifty-fifth
 * outside trial). Only words that say a change: "actually", "instead" or "is now" inside a sentence are everyday
 * chat, and marked they pushed out what the user had asked to remember (review 47).
 */
const CORRECTION =
  /\b(?:changed? (?:my|our) minds?|from now on|no longer|not any ?more|scratch that|going forward)\b|\b(?:correction|update):|^actually,/i;
/**
 * A sentence that says who the user is ("Hi, I'm Dana Whitfield."): a name is no identifier, yet it is a fact. "I am"
 * and "this is" only where a sentence (or its greeting) starts, else "I am Not Sure" would be a name.
 */
const INTRODUCTION =
  /\b(?:[Mm]y name is|[Nn]ame's|[Cc]all me)\s+\p{Lu}\p{Ll}+|^(?:(?:[Hh]i|[Hh]ello|[Hh]ey)\b[,!]?\s+)?(?:I'm|I am|[Tt]his is)\s+\p{Lu}\p{Ll}+(?:[ -]\p{Lu}\p{Ll}+)?\b/u;
/** A sentence the user asks to be kept: it outranks facts merely seen more recently. */
const ASKED_TO_KEEP =
  /\b(?<!(?:n't|not|never)\s)(?:remember|keep in mind)\b|\b(?:don'?t|do not|never) forget\b|\bfor the record\b/i;

/** Whether a sentence asks to be kept ("Remember: ...", "don't forget"). */
export function askedToKeep(text: string): boolean {
  return ASKED_TO_KEEP.test(text);
}

/** Whether a sentence of the user's is marked: asked to be kept, or a correction of what they said before (not asked). */
export function marksItself(text: string): boolean {
  return ASKED_TO_KEEP.test(text) || (CORRECTION.test(text) && !isQuestion(text));
}

/** Whether a sentence is a fact candidate: an identifier, a constraint, a correction or who the user is. */
export function isCandidate(sentence: string): boolean {
  return (
    IDENTIFIER.test(sentence) || CONSTRAINT.test(sentence) || CORRECTION.test(sentence) || INTRODUCTION.test(sentence)
  );
}

/** A question: what the user asked for, not what they stated; it ranks below their statements (trial 55). */
export function isQuestion(text: string): boolean {
  return text.trimEnd().endsWith('?');
}
