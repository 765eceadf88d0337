import { tokenIndexAt } from './action-clauses.js';
import type { Candidate } from './action-cues.js';
import type { DraftSignal } from './action-model.js';
import { TIME_NOUN, withoutIdioms } from './antecedent.js';
import type { ContentKey } from './similarity.js';

/** A drafted to-do before the model keeps or drops it, and the earlier drafts a follow-up points back to. */

export interface Draft {
  description: string;
  dueAt: Date | null;
  /** the due date was said with the task, not borrowed from a sentence around it */
  dueSaid: boolean;
  key: ContentKey;
  turn: number;
  sentenceIndex: number;
  /** the sentence and the one before it, where "again"/"another" would be said */
  context: string;
  /** how the task was said, for the keep-or-drop model */
  signal: DraftSignal;
}

/** The draft a pronoun-only follow-up ("I'll send it tonight") refers to: one from the last two sentences or turns. */
export function referencedDraft(drafts: Draft[], candidate: Candidate): Draft | undefined {
  const recentEnough = (draft: Draft) =>
    draft.sentenceIndex >= candidate.sentenceIndex - 2 ||
    (draft.turn !== candidate.sentence.turn && draft.turn >= candidate.sentence.turn - 2);
  return [...drafts].reverse().find(recentEnough);
}

/**
 * Whether a pronoun-only follow-up is that draft's task again. It is, unless the sentence opens on a
 * new topic, a phrase without a verb, which the pronoun then means: "Tell Mr. Asante I'm coming in late.
 * And the letter from HR — I'll email them first thing tomorrow." writes to HR.
 */
export function sameTask(draft: Draft, candidate: Candidate): boolean {
  const named = draft.description.toLowerCase();
  const cue = tokenIndexAt(candidate.sentence, candidate.cueStart);
  const opening = withoutIdioms(candidate.sentence.tokens.slice(0, Math.max(0, cue)));
  if (opening.some((token) => token.pos === 'VERB' || token.pos === 'AUX')) return true;
  return !opening.some(
    (token) =>
      (token.pos === 'NOUN' || token.pos === 'PROPN') &&
      token.kind === 'word' &&
      !TIME_NOUN.test(token.normal) &&
      !named.includes(token.normal),
  );
}

/** The verb a task description opens with, lower-cased. */
export function firstWord(description: string): string {
  return description.split(' ')[0]?.toLowerCase() ?? '';
}

/** A draft of the same turn's last three sentences whose task starts with the same verb. */
export function sameVerbDraft(drafts: Draft[], candidate: Candidate, description: string): Draft | undefined {
  const verb = firstWord(description);
  return drafts.find(
    (draft) =>
      draft.turn === candidate.sentence.turn &&
      draft.sentenceIndex < candidate.sentenceIndex &&
      draft.sentenceIndex >= candidate.sentenceIndex - 3 &&
      firstWord(draft.description) === verb,
  );
}

/**
 * The wearer's answer to a request, in the next turn, that names the request's verb and its thing:
 * "Can you measure the stairwell at the turn?" "Okay, I'll measure the stairwell tonight and email you."
 * is one task, dated by the answer.
 */
export function takesOn(request: Draft, answer: Draft): boolean {
  if (request.signal.candidate.kind !== 'request' || answer.signal.candidate.kind === 'request') return false;
  if (answer.turn !== request.turn + 1 || firstWord(request.description) !== firstWord(answer.description))
    return false;
  // A thing the answer's sentence names, in both descriptions (the request's as resolved: "share them" →
  // "the new screenshots").
  const asked = request.description.toLowerCase();
  const answered = answer.description.toLowerCase();
  return answer.signal.candidate.sentence.tokens.some((token) => {
    const lemma = token.lemma.toLowerCase();
    return token.pos === 'NOUN' && token.kind === 'word' && asked.includes(lemma) && answered.includes(lemma);
  });
}
