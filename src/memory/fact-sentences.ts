/**
 * What a sentence of the user's is to the durable facts (memory/fact-candidates.ts, durable-facts.ts): a candidate by
 * its words (an identifier, a constraint, who the user is), asked to be kept, a correction, or a question; and the
 * words that tie a correction to the fact it corrects.
 */

// Bounded quantifiers keep the match linear: an unbounded `[\w.-]+@` backtracks from every position
// of a long run of word characters (quadratic; minutes on a 200 KB message).
const IDENTIFIER =
  /(?:\b[A-Za-z]{1,12}[-_#]?\d[\w-]{0,64}\b)|(?:\b\d{3,}[\w-]{0,64}\b)|(?:\b[\w.-]{1,64}@[\w-]{1,64}\.[\w.]{1,64})|(?:https?:\/\/\S{1,256})|(?:(?:~|\.{1,2})?\/[\w.-]{1,128}(?:\/[\w.-]{1,128}){1,32})/;
const CONSTRAINT =
  /\b(must|never|always|only|don't|do not|without|at most|at least|no more than|deadline|budget|required?|avoid|allerg\w*|prefer(?:s|red|ence)?|forbidden|not allowed)\b/i;
/**
 * A choice the user tells the agent to make against its alternative ("Use pnpm, not npm.", "Go with vitest rather
 * than jest.", "Ship it by courier instead of post."): a rule with no constraint word (the fifty-ninth trial's "use
 * pnpm, not npm" was never a fact). Only a sentence that opens with a verb of choosing or doing: ", not" in chat or
 * status ("It works, not sure why.", "Build 412 passed, not bad.", review 53) is none, nor "not" before a state ("Run it
 * again, not sure it passed.", "Keep going, not done yet.", review 54). A candidate, not a constraint:
 * numbered lines of one shape that say it are still a template.
 */
const CHOICE_VERBS =
  'use|prefer|choose|pick|go with|stick (?:with|to)|switch to|install|run|write|ship|send|book|pay|reply|answer|' +
  'respond|explain|show|speak|teach|quote|bill|charge|price|deliver|route|connect|deploy|build|test|commit|push|' +
  'merge|sort|print|display|measure|keep|call|email|text|contact|format|store|save|put';
/** Words after "not" that say a state, not an alternative ("not sure", "not yet", "not urgent"). */
const STATES_AFTER_NOT =
  'sure|bad|yet|done|urgent|now|really|quite|working|needed|necessary|important|today|much|great|good|ready|ok|' +
  'okay|possible|likely|so|too|that|this|certain|clear|finished|happy|fine|worth|always|necessarily';
const PREFERENCE = new RegExp(
  `^(?:please,?\\s+|let's\\s+|we(?:'ll| will| should)?\\s+|I(?:'d| would) like you to\\s+)?(?:always\\s+|only\\s+|just\\s+)?` +
    `(?:${CHOICE_VERBS})\\b[^.!?\\n]{0,120}?` +
    `(?:,?\\s+(?:and |but )?not\\s+(?!(?:${STATES_AFTER_NOT})\\b)|\\binstead of\\b|\\brather than\\b)`,
  'i',
);
/**
 * A request the user asks as a question that holds for the rest of the session ("Could you always cc legal@acme.com
 * on refunds?", "Could you use EUR from now on?"): an instruction, not a question (the fifty-ninth trial ranked it
 * with the user's questions). Only "always", "never" or "make sure" right after "you", or "from now on" at its end:
 * "Can you see why the job never finishes?" is a question (review 54).
 */
const STANDING_REQUEST =
  /^(?:please,?\s+)?(?:could|can|would|will) you\b(?: (?:please )?(?:always|never|from now on|going forward|make sure)\b|[^?]{0,160}\b(?:from now on|going forward|every time)\??$)/i;
/**
 * Words that say a sentence changes what the user said before ("Actually, I changed my mind: walnut finish, please.",
 * "email is fine from now on"). Such a sentence is a fact when it shares a word with a fact already kept (the one it
 * corrects): without it, a correction in plain words was never a candidate while the sentence it corrected stayed
 * verbatim in the facts, and the agent phoned a stolen phone (the fifty-fifth outside trial). Sharing no word, it is
 * chat ("The tests no longer fail.", "Actually, thanks!"); marked, such chat pushed out what the user had asked to
 * remember (reviews 47 to 49).
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

/** Whether a sentence of the user's says it changes what they said before (a question asks, it changes nothing). */
export function isCorrection(text: string): boolean {
  return CORRECTION.test(text) && !isQuestion(text);
}

/** Whether a sentence is a correction and nothing else (no identifier, constraint or introduction of its own). */
export function correctsAlone(text: string): boolean {
  return isCorrection(text) && !isCandidate(text);
}

/** Leading list markers, any number of them: a summarizer copying the facts' block may nest its bullets. */
export const LIST_MARKERS = /^\s*(?:(?:[-*•]|\d{1,3}[.)])\s+)+/;

/** Whether a sentence states a constraint ("must", "never", "always", "don't", "at most" …). */
export function statesConstraint(sentence: string): boolean {
  return CONSTRAINT.test(sentence);
}

/** Whether a sentence is a fact candidate by its own words: an identifier, a constraint, a choice or who the user is. */
export function isCandidate(sentence: string): boolean {
  return (
    IDENTIFIER.test(sentence) ||
    statesConstraint(sentence) ||
    PREFERENCE.test(sentence.replace(LIST_MARKERS, '')) ||
    INTRODUCTION.test(sentence)
  );
}

/**
 * A question: what the user asked for, not what they stated; it ranks below their statements (trial 55). A standing
 * request asked as a question is an instruction.
 */
export function isQuestion(text: string): boolean {
  return text.trimEnd().endsWith('?') && !STANDING_REQUEST.test(text.replace(LIST_MARKERS, '').trimEnd());
}

/** Words too common to tie a correction to a fact, and the correction words themselves. */
const COMMON_WORDS = new Set(
  (
    'that this with from have will your they them then than what when were been into also just only more some like ' +
    'make made please thanks thank actually changed change mind minds longer forward going correction update scratch ' +
    'instead about here there would could should need want know does fine good great okay sure still anymore'
  ).split(' '),
);

/**
 * The words of a text that can tie a correction to the fact it corrects: four letters or more, not common ones, each
 * cut to a crude stem, the same on both sides ("invoices" and "invoice", "phoned" and "phone", "e-mail" and "email":
 * reviews 49 and 50).
 */
export function telling(text: string): string[] {
  const words =
    text
      .toLowerCase()
      .replace(/\be-mail/g, 'email')
      .match(/\p{L}{4,}/gu) ?? [];
  return words.filter((word) => !COMMON_WORDS.has(word)).map(stem);
}

/** A crude stem: an ending (-ing, -ed, -es, -s) off, then a final e, then a doubled final letter made single. */
function stem(word: string): string {
  const cut = word.replace(/(?<=\p{L}{4})(?:ing|ed)$|(?<=\p{L}{3})(?:es|s)$/u, '').replace(/(?<=\p{L}{3})e$/u, '');
  return cut.replace(/(\p{L})\1$/u, '$1');
}
