import type { ExistingActionItem, ExtractedActionItem, TranscriptInput } from '../engine.js';
import { assignWindows, type Candidate, findCandidates, tokenIndexAt } from './action-cues.js';
import { type DraftSignal, featuresOf, keepsTask } from './action-model.js';
import { type Analysis, analysisOf } from './analysis.js';
import { antecedentFor, objectPronoun } from './antecedent.js';
import { type Clock, clockOf, type DateMention, mentionInstant, mentionsIn } from './dates.js';
import { describeClause, isPronounOnly, type Perspective } from './describe.js';
import type { Token } from './nlp.js';
import {
  type ContentKey,
  keyFromTagged,
  namesConflict,
  SAME_INTENT_THRESHOLD,
  similarity,
  taskKey,
} from './similarity.js';
import { settled } from './task-outcome.js';
import { finishTask, readsAsTask } from './task-text.js';
import { capitalizeFirst, isPlaceholderSpeaker } from './text.js';
import { HABIT_VERBS, LIGHT_VERBS, TASK_VERBS } from './vocabulary.js';

export interface Draft {
  description: string;
  dueAt: Date | null;
  key: ContentKey;
  turn: number;
  sentenceIndex: number;
  /** the sentence and the one before it, where "again"/"another" would be said */
  context: string;
  /** how the task was said, for the keep-or-drop model */
  signal: DraftSignal;
}

/** Verbs after "I'll"/"I need to" that state no deliverable ("I'll see", "I have to say"). */
const NON_TASK_VERBS = new Set(
  'be have see think know guess mean say let try want like love feel wait stay miss hate bet admit hope wonder sleep relax'.split(
    ' ',
  ),
);
/** Prepositions, particles and place adverbs: after a verb they show it has no direct object. */
const INTRANSITIVE_NEXT =
  /^(?:to|out|off|up|in|on|at|from|into|onto|over|back|away|home|around|there|here|with|for|by|down|through|across|along|abroad|today|tonight|tomorrow|this|next|later|soon|now)\b|^$/;
const HYPOTHETICAL_BEFORE = /\b(?:if|unless|whether|maybe|perhaps|someday|some day|one day|in case|would)\b/i;
const HYPOTHETICAL_INSIDE =
  /\b(?:maybe|someday|some day|one day|might|possibly|perhaps|sometime|at some point|one of these days|eventually|if i (?:can|have time|get (?:a|the) chance))\b/i;
const HAPPENING_NOW = /\b(?:right now|now|at the moment|currently)\b/i;
const URGENT = /\b(?:asap|as soon as possible|urgent|urgently|right away|immediately)\b/i;
const RECURRENCE_CUES = /\b(?:again|another|more|one more|extra|new|second)\b/i;

// "hand in my notice", "look up the forms": a particle followed by a noun phrase is a phrasal verb's object.
const PHRASAL_OBJECT =
  /^(?:up|out|off|in|on|over|back|down|away|through) (?:the|a|an|my|your|his|her|their|our|some|this|that|these|those|all)$/;

function hasObject(next: string): boolean {
  return PHRASAL_OBJECT.test(next) || !INTRANSITIVE_NEXT.test(next);
}

function verbAllowed(candidate: Candidate, verb: string, next: string, hasDate: () => boolean): boolean {
  // A need is the wearer's task when it is theirs to meet ("your number", "signed by you") or has a deadline.
  if (candidate.impliedVerb !== undefined) return /\byour?\b/i.test(candidate.clause) || hasDate();
  if (verb === '' || NON_TASK_VERBS.has(verb)) return false;
  if (HABIT_VERBS.has(verb) && (next.split(' ')[0] ?? '').endsWith('ing')) return false;
  if (verb === 'go' && !/^to (?:the|a|an|my)$/.test(next)) return false;
  // "I'll leave early", "I'll drive Friday": beyond the task verbs, a to-do acts on something.
  if (!TASK_VERBS.has(verb) && candidate.impliedVerb === undefined && !hasObject(next)) return false;
  // "I want you to keep a headache diary": addressed to the wearer, any verb acting on a named thing asks for a task.
  if (candidate.strength === 'medium') return TASK_VERBS.has(verb) || otherVerbAsks(candidate, hasDate);
  if (candidate.strength === 'weak') return TASK_VERBS.has(verb) && hasDate();
  // "I'm flying out tomorrow" is a journey, "I'm calling the landlord tonight" a task: the plan needs an object.
  if (candidate.strength === 'planned') return plansAhead(candidate, verb, next) && hasDate();
  return true;
}

const HABITUAL =
  /\b(?:every|each|usually|always|often|never|sometimes|normally|on (?:\w+days|weekends)|\w+ times|once a|twice a|a (?:day|week|month))\b/i;

/**
 * A plan stated in the present needs a verb in the present (not "I called"), an object (not "I'm flying
 * out"), a verb that is not a light one, and no sign of a habit ("I walk the dog every morning").
 */
function plansAhead(candidate: Candidate, verb: string, next: string): boolean {
  if (LIGHT_VERBS.has(verb) || NON_TASK_VERBS.has(verb) || !hasObject(next)) return false;
  if (HABITUAL.test(candidate.sentence.text) || candidate.sentence.text.trim().endsWith('?')) return false;
  const { verbToken, object } = verbAndObject(candidate);
  const inPresent =
    verbToken !== undefined && (verbToken.normal.endsWith('ing') || verbToken.lemma === verbToken.normal);
  return inPresent && verbToken.pos === 'VERB' && object !== undefined && OBJECT_START.has(object.pos);
}

const OBJECT_START = new Set(['DET', 'NOUN', 'PROPN', 'NUM', 'ADJ', 'PRON']);
const THING_START = new Set(['DET', 'NOUN', 'PROPN', 'NUM', 'ADJ']);

/** The clause's verb and the first word of what it acts on, right after it or its particle ("pick up the keys"). */
function verbAndObject(candidate: Candidate): { verbToken: Token | undefined; object: Token | undefined } {
  // The tags of the sentence as said: alone, "call the fundi" reads as a noun phrase.
  const start = tokenIndexAt(candidate.sentence, candidate.clauseStart);
  if (start === -1) return { verbToken: undefined, object: undefined };
  const tokens = candidate.sentence.tokens.slice(start, start + 3);
  const object = tokens[1]?.pos === 'ADP' && tokens[2] !== undefined ? tokens[2] : tokens[1];
  return { verbToken: tokens[0], object };
}

/**
 * Beyond the task verbs, a verb acting on a named thing asks for a task when told to the wearer ("I want
 * you to keep a headache diary"), or when a day is set: asked in a question ("could you pass the salt?")
 * or written in a memo, it is more often done on the spot.
 */
function otherVerbAsks(candidate: Candidate, hasDate: () => boolean): boolean {
  if (candidate.kind !== 'request' && candidate.kind !== 'imperative') return false;
  if (!actsOnThing(candidate)) return false;
  const told = candidate.kind === 'request' && !candidate.sentence.text.trim().endsWith('?');
  return told || hasDate();
}

/** A verb in its base form acting on a noun phrase ("use the drops"), not on a pronoun ("hear me", "take it"). */
function actsOnThing(candidate: Candidate): boolean {
  const { verbToken, object } = verbAndObject(candidate);
  if (verbToken === undefined || verbToken.pos !== 'VERB' || verbToken.lemma !== verbToken.normal) return false;
  return object !== undefined && THING_START.has(object.pos) && object.normal !== 'sure';
}

function leadingVerb(candidate: Candidate): { verb: string; next: string } {
  const words = candidate.clause.toLowerCase().match(/[a-z']+/g) ?? [];
  if (candidate.impliedVerb !== undefined) return { verb: candidate.impliedVerb, next: words.slice(0, 2).join(' ') };
  const token = candidate.sentence.tokens.find((item) => item.normal === words[0]);
  const verb = token !== undefined && token.pos === 'VERB' ? token.lemma : (words[0] ?? '');
  return { verb, next: words.slice(1, 3).join(' ') };
}

function isHypothetical(candidate: Candidate): boolean {
  const before = candidate.sentence.text.slice(0, candidate.cueStart);
  return HYPOTHETICAL_BEFORE.test(before) || HYPOTHETICAL_INSIDE.test(candidate.clause);
}

function bestMention(group: DateMention[]): DateMention | null {
  const ranked = [...group].sort(
    (a, b) => Number(b.deadline) - Number(a.deadline) || Number(b.dateKnown) - Number(a.dateKnown) || a.index - b.index,
  );
  return ranked[0] ?? null;
}

/** In-clause dates first, then dates later in the sentence, then earlier ones; deadlines ("by …") win ties. */
function chooseDue(candidate: Candidate, mentions: DateMention[], clock: Clock): Date | null {
  const inClause = mentions.filter((m) => m.index >= candidate.clauseStart && m.index < candidate.clauseEnd);
  const after = mentions.filter((m) => m.index >= candidate.clauseEnd && m.end <= candidate.windowEnd);
  const before = mentions.filter((m) => m.end <= candidate.clauseStart && m.index >= candidate.windowStart);
  for (const group of [inClause, after, before]) {
    const mention = bestMention(group);
    if (mention !== null) return mentionInstant(mention, clock, 23, 59);
  }
  // SPEC research §3.4: "ASAP"/urgent without a date means two hours from the conversation start.
  if (URGENT.test(candidate.sentence.text)) return new Date(clock.startedAt.getTime() + 2 * 3_600_000);
  return null;
}

/**
 * "Wednesday at ten then. I'll send you the quote the same day.": a task without a date of its own takes
 * a named day from the sentence just before it, or from the other speaker's turn it answers.
 */
const LOOK_BACK_FOR_DATE = 3;

function dateJustBefore(candidate: Candidate, extraction: Extraction): Date | null {
  for (let back = 1; back <= LOOK_BACK_FOR_DATE; back++) {
    const index = candidate.sentenceIndex - back;
    const previous = extraction.analysis.sentences[index];
    if (previous === undefined || previous.turn < candidate.sentence.turn - 1) return null;
    // Further back than the sentence before, only the turn being answered sets the date.
    if (back > 1 && previous.turn === candidate.sentence.turn) continue;
    const mention = mentionsOf(extraction, index).find((item) => item.precise && item.dateKnown);
    if (mention !== undefined) return mentionInstant(mention, extraction.clock, 23, 59);
  }
  return null;
}

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
  const otherParty = neighbour === undefined || isPlaceholderSpeaker(name) ? 'them' : name;
  return { voice, otherParty, dialogue: analysis.dialogue };
}

function contextOf(candidate: Candidate, analysis: Analysis): string {
  const previous = analysis.sentences[candidate.sentenceIndex - 1];
  const sameTurn = previous !== undefined && previous.turn === candidate.sentence.turn;
  return `${sameTurn ? previous.text : ''} ${candidate.sentence.text}`;
}

/** The draft a pronoun-only follow-up ("I'll send it tonight") refers to: one from the last two sentences or turns. */
function referencedDraft(drafts: Draft[], candidate: Candidate): Draft | undefined {
  const recentEnough = (draft: Draft) =>
    draft.sentenceIndex >= candidate.sentenceIndex - 2 ||
    (draft.turn !== candidate.sentence.turn && draft.turn >= candidate.sentence.turn - 2);
  return [...drafts].reverse().find(recentEnough);
}

interface Extraction {
  analysis: Analysis;
  clock: Clock;
  drafts: Draft[];
}

function mentionsOf(extraction: Extraction, sentenceIndex: number): DateMention[] {
  const sentence = extraction.analysis.sentences[sentenceIndex];
  return sentence === undefined ? [] : mentionsIn(sentence, extraction.clock);
}

/** The cue's verb names a deliverable, and the plan is neither hypothetical nor already under way. */
function accepts(candidate: Candidate, extraction: Extraction): boolean {
  if (isHypothetical(candidate) || HAPPENING_NOW.test(candidate.clause)) return false;
  if (settled(candidate, extraction.analysis)) return false;
  const { verb, next } = leadingVerb(candidate);
  // Dates are parsed only when a weak cue needs one, since chrono is the costliest step here.
  const hasDate = () => mentionsOf(extraction, candidate.sentenceIndex).some((mention) => mention.dateKnown);
  return verbAllowed(candidate, verb, next, hasDate);
}

/** "Your feedback in the system" → "Send my feedback in the system". */
function withImpliedVerb(candidate: Candidate, description: string): string {
  if (candidate.impliedVerb === undefined || description === '') return description;
  return `${capitalizeFirst(candidate.impliedVerb)} ${description.charAt(0).toLowerCase()}${description.slice(1)}`;
}

function consider(candidate: Candidate, extraction: Extraction): void {
  const mentions = mentionsOf(extraction, candidate.sentenceIndex);
  const perspective = perspectiveOf(candidate, extraction.analysis);
  let description = finishTask(
    withImpliedVerb(candidate, describeClause(candidate.clause, candidate.clauseStart, mentions, perspective)),
    extraction.analysis,
    candidate.sentenceIndex,
  );
  let dueAt = chooseDue(candidate, mentions, extraction.clock) ?? dateJustBefore(candidate, extraction);
  if (description === '' || !readsAsTask(description, candidate.sentence.tokens, TASK_VERBS)) return;
  if (isPronounOnly(description)) {
    const referenced = referencedDraft(extraction.drafts, candidate);
    if (referenced !== undefined) {
      if (dueAt !== null) referenced.dueAt = dueAt;
      return;
    }
  }
  let tagged = candidate.sentence.tokens;
  if (objectPronoun(description) !== null) {
    const antecedent = antecedentFor(description, candidate, extraction.analysis);
    if (antecedent === null) return;
    description = antecedent.description;
    tagged = [...tagged, ...antecedent.candidate.sentence.tokens];
    dueAt ??= chooseDue(
      antecedent.candidate,
      mentionsOf(extraction, antecedent.candidate.sentenceIndex),
      extraction.clock,
    );
  }
  addDraft(extraction, {
    description,
    dueAt,
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
      containment(existing.key, draft.key) >= SAME_INTENT_THRESHOLD && !namesConflict(existing.key, draft.key),
  );
  if (sameTopic === undefined) {
    extraction.drafts.push(draft);
    return;
  }
  if (draft.dueAt !== null && draft.sentenceIndex > sameTopic.sentenceIndex) sameTopic.dueAt = draft.dueAt;
}

/** Shared weight over the smaller key's weight: 1 when one description's content is inside the other's. */
function containment(a: ContentKey, b: ContentKey): number {
  const sum = (key: ContentKey) => [...key.weights.values()].reduce((total, weight) => total + weight, 0);
  const smaller = Math.min(sum(a), sum(b));
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
export function draftActionItems(input: TranscriptInput): { drafts: Draft[]; analysis: Analysis } {
  const analysis = analysisOf(input);
  const extraction: Extraction = { analysis, clock: clockOf(input.startedAt, input.timezone), drafts: [] };
  for (const candidate of acceptedCandidates(extraction)) consider(candidate, extraction);
  return { drafts: extraction.drafts, analysis };
}

/** The draft's features for the keep-or-drop model (also read by the training script). */
export function draftFeatures(draft: Draft, analysis: Analysis, count: number): number[] {
  return featuresOf({ ...draft.signal, hasDue: draft.dueAt !== null }, analysis, count);
}

export function extractActionItems(input: TranscriptInput, recent: ExistingActionItem[]): ExtractedActionItem[] {
  const { drafts, analysis } = draftActionItems(input);
  return drafts
    .filter((draft) => keepsTask(draftFeatures(draft, analysis, drafts.length)))
    .filter((draft) => !isRemention(draft, recent))
    .slice(0, MAX_ITEMS)
    .map((draft) => ({ description: draft.description, dueAt: draft.dueAt }));
}
