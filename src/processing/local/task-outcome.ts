import type { Candidate } from './action-cues.js';
import type { Analysis } from './analysis.js';

/**
 * Whether what was asked or promised stands once the conversation moves on. A request the wearer
 * declines, one another speaker takes on, and a plan withdrawn or already done are not the wearer's tasks.
 */

// An answer that declines or reports the thing done: "No, sorry, I can't", "Already did".
const DECLINES =
  /^(?:(?:oh|um|uh|well|hmm)[\s,]+)*(?:no\b|nope|nah|sorry|unfortunately|i can't|i cannot|can't|i won't|won't|i'm not|not (?:this|today|tonight|now|really|sure)\b|i don't think|i'd rather not|already\b|i already|done already|it's done|i did (?:it|that) already)/i;
// "No problem", "no worries", "sorry, yes" are acceptances despite their first word.
const ACCEPTS =
  /^(?:no (?:problem|worries|prob)|sorry[,!.]?\s+(?:yes|yeah|sure|of course)|not a problem)|\bbut i(?:'ll| will| can)\b/i;
// Another speaker taking it on: "I'll do it", "I can handle that", "leave it to me".
const TAKES_OVER =
  /^(?:(?:oh|actually|wait|no)[\s,]+)*(?:i'll (?:do|handle|take care of|sort|get) (?:it|that|this)|i can (?:do|handle|take) (?:it|that|this)|leave (?:it|that) (?:to|with) me|i've got (?:it|this|that))\b/i;
// The plan withdrawn or found unnecessary right after it was made.
const WITHDRAWN =
  /\b(?:never ?mind|forget (?:it|that|about (?:it|that))|scratch that|don't bother|no need(?: to)?(?: do (?:it|that))?[.!,]|(?:it's|it was|that's) (?:been )?(?:cancell?ed|called off|taken care of)|(?:already|just) (?:done|did (?:it|that))|i already did)\b/i;

// Taken back later in the same sentence, after a comma or a dash ("…, actually no, I already did that";
// "Book the transfer — no, wait, her son picks me up, so no transfer").
const TAKEN_BACK =
  /[,;—–-]\s*(?:(?:oh|actually|wait|no|um|uh)[,\s]+)*(?:never ?mind|scratch that|forget (?:it|that)|actually,? no\b|(?:i )?already did (?:it|that)|(?:that's|it's) (?:already )?done|no,? wait\b[^.?!]*\b(?:so no|no need|don't need|not needed)\b)/i;

function nextTurn(analysis: Analysis, turn: number): { index: number; isUser: boolean; text: string } | undefined {
  const next = analysis.turns[turn + 1];
  return next === undefined ? undefined : { index: turn + 1, isUser: next.isUser, text: next.text };
}

function declined(candidate: Candidate, analysis: Analysis): boolean {
  if (candidate.kind !== 'request' || candidate.sentence.isUser) return false;
  const reply = nextTurn(analysis, candidate.sentence.turn);
  if (reply === undefined) return false;
  const text = reply.text.trim();
  if (reply.isUser) return DECLINES.test(text) && !ACCEPTS.test(text);
  return TAKES_OVER.test(text);
}

// "Sure.", "Yes, of course", "Will do", "OK, I'll do it tonight": a reply that takes a request on.
const AGREES =
  /^(?:(?:oh|um|uh|well|right|okay|ok)[,\s]+)*(?:yes|yeah|yep|yup|sure|of course|certainly|absolutely|definitely|no problem|will do|can do|i can|i will|i'll|ok|okay|fine|sounds good|great|perfect|done|understood|got it)\b/i;

/** Another speaker's request the wearer's next turn takes on ("Could you keep a pain diary?" "Sure."). */
export function acceptedByWearer(candidate: Candidate, analysis: Analysis): boolean {
  if (candidate.sentence.isUser) return false;
  const reply = nextTurn(analysis, candidate.sentence.turn);
  if (reply === undefined || !reply.isUser) return false;
  const text = reply.text.trim();
  return AGREES.test(text) && !(DECLINES.test(text) && !ACCEPTS.test(text));
}

/** The rest of the sentence and the two after it, where a speaker would take the plan back. */
function withdrawn(candidate: Candidate, analysis: Analysis): boolean {
  // "I should text Jen back about brunch, actually no, I already did that at lunch."
  if (TAKEN_BACK.test(candidate.sentence.text.slice(candidate.clauseStart))) return true;
  const following = analysis.sentences.slice(candidate.sentenceIndex + 1, candidate.sentenceIndex + 3);
  return following.some((sentence) => sentence.turn <= candidate.sentence.turn + 1 && WITHDRAWN.test(sentence.text));
}

/** The task no longer stands: declined, taken over by someone else, withdrawn or already done. */
export function settled(candidate: Candidate, analysis: Analysis): boolean {
  return declined(candidate, analysis) || withdrawn(candidate, analysis);
}
