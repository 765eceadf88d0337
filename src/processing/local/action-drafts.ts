import type { Candidate } from './action-cues.js';
import type { DraftSignal } from './action-model.js';
import type { ContentKey } from './similarity.js';

/** A drafted to-do before the model keeps or drops it, and the earlier drafts a follow-up points back to. */

export interface Draft {
  description: string;
  dueAt: Date | null;
  /** the due date was said with the task, not borrowed from a sentence around it */
  dueSaid?: boolean;
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

/** A draft of the same turn's last three sentences whose task starts with the same verb. */
export function sameVerbDraft(drafts: Draft[], candidate: Candidate, description: string): Draft | undefined {
  const verb = description.split(' ')[0]?.toLowerCase();
  return drafts.find(
    (draft) =>
      draft.turn === candidate.sentence.turn &&
      draft.sentenceIndex < candidate.sentenceIndex &&
      draft.sentenceIndex >= candidate.sentenceIndex - 3 &&
      draft.description.split(' ')[0]?.toLowerCase() === verb,
  );
}
