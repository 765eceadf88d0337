import type { ExistingActionItem, ExtractedActionItem, TranscriptInput } from '../engine.js';
import { assignWindows, type Candidate, findCandidates, RESULT_VERB, resultTask } from './action-cues.js';
import {
  carried,
  carriedTo,
  chooseDue,
  dateJustAfter,
  dateJustBefore,
  dateOfAnswer,
  dateOfConjoined,
  dayOfClosingStretch,
  dayOfSharedSubject,
  deadlineSaidAfter,
  mentionsOf,
  prescribedToday,
} from './action-dates.js';
import { type Draft, firstWord, referencedDraft, sameTask, sameVerbDraft, takesOn } from './action-drafts.js';
import { withHeadings } from './action-headings.js';
import { featuresOf, keepsTask } from './action-model.js';
import { forWhatWasNamed } from './action-named.js';
import { HAPPENING_NOW, isHypothetical, TOLD_NOW, verbAllowed } from './action-verbs.js';
import { type Analysis, analysisOf } from './analysis.js';
import { type Antecedent, antecedentFor, objectPronoun } from './antecedent.js';
import { type Clock, clockOf } from './dates.js';
import { describeClause, isPronounOnly, type Perspective, particlesOnly } from './describe.js';
import { addressedByWearer } from './participants.js';
import {
  type ContentKey,
  keyFromTagged,
  namesConflict,
  SAME_INTENT_THRESHOLD,
  similarity,
  taskKey,
} from './similarity.js';
import { acceptedByWearer, settled } from './task-outcome.js';
import { actsOnSomething, finishTask, isTopic, opensSentenceBefore, readsAsTask } from './task-text.js';
import { capitalizeFirst, isPlaceholderSpeaker, speakerAsPerson } from './text.js';
import { TASK_VERBS } from './vocabulary.js';

const RECURRENCE_CUES = /\b(?:again|another|more|one more|extra|new|second)\b/i;

function perspectiveOf(candidate: Candidate, analysis: Analysis): Perspective {
  const voice = candidate.kind === 'request' ? 'request' : 'self';
  const turnIndex = candidate.sentence.turn;
  const neighbour =
    voice === 'request'
      ? analysis.turns[turnIndex]
      : [analysis.turns[turnIndex - 1], analysis.turns[turnIndex + 1]].find(
          (turn) => turn !== undefined && !turn.isUser,
        );
  const name = neighbour?.speaker ?? '';
  // An unnamed voice is the person the wearer calls by name, when there is only one ("…, Renata.").
  const addressed = neighbour !== undefined && isPlaceholderSpeaker(name) ? addressedByWearer(analysis) : null;
  const otherParty =
    neighbour === undefined ? 'them' : isPlaceholderSpeaker(name) ? (addressed ?? 'them') : speakerAsPerson(name);
  return { voice, otherParty, dialogue: analysis.dialogue };
}

function contextOf(candidate: Candidate, analysis: Analysis): string {
  const previous = analysis.sentences[candidate.sentenceIndex - 1];
  const sameTurn = previous !== undefined && previous.turn === candidate.sentence.turn;
  return `${sameTurn ? previous.text : ''} ${candidate.sentence.text}`;
}

interface Extraction {
  analysis: Analysis;
  clock: Clock;
  drafts: Draft[];
}

/** The cue's verb names a deliverable, and the plan is neither hypothetical nor already under way. */
function accepts(candidate: Candidate, extraction: Extraction): boolean {
  if (isHypothetical(candidate) || HAPPENING_NOW.test(candidate.clause)) return false;
  if (TOLD_NOW.test(candidate.sentence.text.slice(candidate.cueStart))) return false;
  if (settled(candidate, extraction.analysis)) return false;
  // Dates are parsed only when a weak cue needs one, since chrono is the costliest step here.
  const hasDate = () => mentionsOf(extraction, candidate.sentenceIndex).some((mention) => mention.dateKnown);
  return verbAllowed(candidate, hasDate, () => acceptedByWearer(candidate, extraction.analysis));
}

/** "Your feedback in the system" → "Send my feedback in the system". */
function withImpliedVerb(candidate: Candidate, description: string): string {
  if (candidate.impliedVerb === undefined || description === '') return description;
  const [verb, object] =
    candidate.impliedVerb === RESULT_VERB ? resultTask(description) : [candidate.impliedVerb, description];
  return `${capitalizeFirst(verb)} ${object.charAt(0).toLowerCase()}${object.slice(1)}`;
}

/**
 * A follow-up on a drafted task dates it with a day of its own ("I'll send it Friday"); a day it only
 * borrowed from the sentences around it dates the task only when the task's own day was not said with it
 * ("… by next Friday, the fourth." "OK, I'll sign it and send it back." keeps the fourth).
 */
function redate(draft: Draft, ownDue: Date | null, borrowed: Date | null): void {
  if (ownDue !== null) {
    draft.dueAt = ownDue;
    draft.dueSaid = true;
  } else if (!draft.dueSaid && borrowed !== null) draft.dueAt = borrowed;
}

function consider(candidate: Candidate, extraction: Extraction): void {
  const mentions = mentionsOf(extraction, candidate.sentenceIndex);
  const perspective = perspectiveOf(candidate, extraction.analysis);
  let description = finishTask(
    withImpliedVerb(candidate, describeClause(candidate.clause, candidate.clauseStart, mentions, perspective)),
    extraction.analysis,
    candidate.sentenceIndex,
  );
  const ownDue = deadlineSaidAfter(candidate, extraction) ?? chooseDue(candidate, mentions, extraction.clock);
  let dueAt =
    ownDue ??
    dateJustAfter(candidate, extraction) ??
    dateOfAnswer(candidate, extraction) ??
    dayOfSharedSubject(candidate, mentions, extraction.clock) ??
    dayOfClosingStretch(candidate, mentions, extraction.clock) ??
    dateJustBefore(candidate, extraction) ??
    dateOfConjoined(candidate, extraction.drafts) ??
    prescribedToday(candidate, extraction.clock);
  if (description === '' || particlesOnly(description)) return;
  if (!readsAsTask(description, candidate.sentence.tokens, TASK_VERBS)) return;
  // With nothing named, a verb that is the whole task stands only with its date ("I'll register by Sunday").
  if (!description.includes(' ')) {
    const named = forWhatWasNamed(description, candidate, extraction.analysis);
    if (named !== null) description = named;
    else if (ownDue === null) return;
  }
  // What the pronoun means, once looked up (below, for a follow-up that may name a thing of its own).
  let thing: Antecedent | null | undefined;
  if (isPronounOnly(description)) {
    const referenced = referencedDraft(extraction.drafts, candidate);
    // "I'll ask him today." "Can you send everything by Friday?": "everything" gathers what was asked
    // for, not the last task with another verb.
    const gathers =
      /\beverything\b/i.test(description) && firstWord(referenced?.description ?? '') !== firstWord(description);
    // "I'll open an account. … So, statements from your own account. Can you send those by Friday?",
    // "The domain expires on the twelfth, renew it": a thing named after that task, in the same sentence
    // or as a topic of its own, is what the pronoun means when the verb is another.
    // "Do it", "make it Thursday", "ask her" stand for a task or a person, not a thing.
    const actsOnThing =
      !/^(?:do|make|sort|handle)$/.test(firstWord(description)) && !/\b(?:him|her)\b/i.test(description);
    if (referenced !== undefined && actsOnThing) thing = antecedentFor(description, candidate, extraction.analysis);
    const thingAfter =
      thing != null &&
      referenced !== undefined &&
      thing.candidate.sentenceIndex > referenced.sentenceIndex &&
      firstWord(referenced.description) !== firstWord(description) &&
      (thing.candidate.sentenceIndex === candidate.sentenceIndex ||
        isTopic(thing.candidate.sentence) ||
        opensSentenceBefore(
          description,
          thing.description,
          thing.candidate.sentenceIndex,
          candidate.sentenceIndex,
          extraction.analysis,
        ));
    if (referenced !== undefined && !gathers && !thingAfter) {
      if (sameTask(referenced, candidate)) redate(referenced, ownDue, dueAt);
      return;
    }
  }
  let tagged = candidate.sentence.tokens;
  if (objectPronoun(description, candidate.sentence.tokens) !== null) {
    // "I need to buy the fabric… Buy it by Wednesday": the same verb on "it" is the task just drafted.
    const same = sameVerbDraft(extraction.drafts, candidate, description);
    if (same !== undefined) {
      redate(same, ownDue, dueAt);
      return;
    }
    const antecedent = thing === undefined ? antecedentFor(description, candidate, extraction.analysis) : thing;
    if (antecedent === null) return;
    // "Can you send the statement to everyone?" "I'll send it on the group by Sunday.": the reply takes
    // on the task drafted from the request, and dates it; it is not a second task.
    // So does a follow-up in the same turn: "I need your self-review. Can you get that to me by Friday?"
    const requested = extraction.drafts.find((draft) => draft.sentenceIndex === antecedent.candidate.sentenceIndex);
    if (requested !== undefined) {
      redate(requested, ownDue, dueAt);
      return;
    }
    description = antecedent.description;
    tagged = [...tagged, ...antecedent.candidate.sentence.tokens];
    dueAt ??= chooseDue(
      antecedent.candidate,
      mentionsOf(extraction, antecedent.candidate.sentenceIndex),
      extraction.clock,
    );
  }
  // "Book four", "Call Christmas": a count or a day where the thing acted on should be.
  if (!actsOnSomething(description)) return;
  addDraft(extraction, {
    description,
    dueAt,
    dueSaid: ownDue !== null,
    key: keyFromTagged(description, tagged),
    turn: candidate.sentence.turn,
    sentenceIndex: candidate.sentenceIndex,
    context: contextOf(candidate, extraction.analysis),
    signal: { candidate, description, hasDue: dueAt !== null, deadline: mentions.some((mention) => mention.deadline) },
  });
}

/** Accepted cues, with date windows recomputed so a rejected cue ("I'll have it done by Thursday") claims no date. */
function acceptedCandidates(extraction: Extraction): Candidate[] {
  const bySentence = new Map<number, Candidate[]>();
  for (const candidate of findCandidates(extraction.analysis)) {
    if (!accepts(candidate, extraction)) continue;
    const group = bySentence.get(candidate.sentenceIndex) ?? [];
    group.push(candidate);
    bySentence.set(candidate.sentenceIndex, group);
  }
  return [...bySentence.values()].flatMap(assignWindows);
}

/** At most one item per topic: a draft whose content is mostly inside an earlier one merges into it. */
function addDraft(extraction: Extraction, draft: Draft): void {
  const sameTopic = extraction.drafts.find(
    (existing) =>
      (containment(existing.key, draft.key) >= SAME_INTENT_THRESHOLD || takesOn(existing, draft)) &&
      !namesConflict(existing.key, draft.key),
  );
  if (sameTopic === undefined) {
    extraction.drafts.push(draft);
    return;
  }
  if (draft.dueAt !== null && draft.sentenceIndex > sameTopic.sentenceIndex) sameTopic.dueAt = draft.dueAt;
  // "Make a ticket." "I'll make a ticket for the other four tests.": the fuller statement of the task names it.
  // The wearer's own words for a request taken on name it too.
  const fuller = keyWeight(draft.key) > keyWeight(sameTopic.key) && containment(sameTopic.key, draft.key) >= 0.99;
  if (fuller || takesOn(sameTopic, draft)) {
    sameTopic.description = draft.description;
    sameTopic.key = draft.key;
  }
}

function keyWeight(key: ContentKey): number {
  return [...key.weights.values()].reduce((total, weight) => total + weight, 0);
}

/** Shared weight over the smaller key's weight: 1 when one description's content is inside the other's. */
function containment(a: ContentKey, b: ContentKey): number {
  const smaller = Math.min(keyWeight(a), keyWeight(b));
  if (smaller === 0) return 0;
  let shared = 0;
  for (const [word, weight] of a.weights) shared += Math.min(weight, b.weights.get(word) ?? 0);
  return shared / smaller;
}

const TWELVE_HOURS = 12 * 3_600_000;

/** SPEC research §3.4: a re-mention of an open item is not re-created; "again", another deadline or person is new. */
function isRemention(draft: Draft, recent: ExistingActionItem[]): boolean {
  if (RECURRENCE_CUES.test(draft.context)) return false;
  return recent.some((item) => {
    const key = taskKey(item.description);
    if (similarity(key, draft.key) < SAME_INTENT_THRESHOLD || namesConflict(key, draft.key)) return false;
    const differentDeadline =
      item.dueAt !== null &&
      draft.dueAt !== null &&
      Math.abs(item.dueAt.getTime() - draft.dueAt.getTime()) > TWELVE_HOURS;
    return !differentDeadline;
  });
}

const MAX_ITEMS = 10;

/** Every draft the cues give, before the model and the de-duplication against recent items. */
// The keep-or-discard decision reads the drafts too; they are made once per parse.
const draftCache = new WeakMap<Analysis, { startedAt: number; timezone: string; drafts: Draft[] }>();

export function draftActionItems(input: TranscriptInput): { drafts: Draft[]; analysis: Analysis } {
  const analysis = analysisOf(input);
  const cached = draftCache.get(analysis);
  if (cached !== undefined && cached.startedAt === input.startedAt.getTime() && cached.timezone === input.timezone)
    return { drafts: cached.drafts, analysis };
  const extraction: Extraction = { analysis, clock: clockOf(input.startedAt, input.timezone), drafts: [] };
  for (const candidate of acceptedCandidates(extraction)) consider(candidate, extraction);
  for (const draft of extraction.drafts) {
    if (draft.dueAt === null && carried(draft, extraction)) draft.dueAt = carriedTo(draft, extraction);
  }
  draftCache.set(analysis, {
    startedAt: input.startedAt.getTime(),
    timezone: input.timezone,
    drafts: extraction.drafts,
  });
  return { drafts: extraction.drafts, analysis };
}

/** The draft's features for the keep-or-drop model (also read by the training script). */
export function draftFeatures(draft: Draft, analysis: Analysis, count: number): number[] {
  return featuresOf({ ...draft.signal, hasDue: draft.dueAt !== null }, analysis, count);
}

export function extractActionItems(input: TranscriptInput, recent: ExistingActionItem[]): ExtractedActionItem[] {
  const { drafts, analysis } = draftActionItems(input);
  const kept = drafts
    .filter((draft) => keepsTask(draftFeatures(draft, analysis, drafts.length)))
    .filter((draft) => !isRemention(draft, recent))
    .slice(0, MAX_ITEMS);
  const lines = withHeadings(kept, analysis);
  return kept.map((draft, index) => ({ description: lines[index], dueAt: draft.dueAt }));
}
