import type { ExtractedEvent, TranscriptInput } from '../engine.js';
import type { Draft } from './action-drafts.js';
import { draftActionItems } from './action-items.js';
import { type Analysis, analysisOf, type Sentence } from './analysis.js';
import { type Clock, clockOf, type DateMention, mentionInstant, mentionsIn } from './dates.js';
import { impersonal, speakersOwnTrip, THIRD_PERSON_SUBJECT } from './event-subject.js';
import { answeredTime, settleLater } from './event-times.js';
import {
  durationOf,
  eventTitle,
  eventTokenIndex,
  isBookingTime,
  NOT_CONFIRMED,
  PAST_TENSE,
  plainTitle,
  preparedThing,
  SPEAKERS_OWN_TASK,
  WITH_NAMED,
} from './event-words.js';
import { headlineCase, isPlaceholderSpeaker, speakerAsPerson, squeezeSpaces, truncateChars } from './text.js';
import { localDayKey } from './timezone.js';

const INVOLVES_USER = /\b(?:i|i'm|i've|i'll|we|we're|we'll|my|our|us|me|let's)\b/i;
const ADDRESSES_USER = /\b(?:we|our|us|you|your|let's)\b/i;
// Another speaker's "my sister", "my boss" as the subject: the plan is theirs, not the wearer's.
const SPEAKERS_OWN_SUBJECT =
  /^(?:(?:and|so|but|oh|well|also|by the way)[\s,]+)*my\s+\w+(?:\s+\p{Lu}\p{Ll}+)?\s+(?:is|are|was|has|will|'s|gets|comes|flies|arrives|leaves)\b/iu;
// "at lunch", "over dinner" say when something else happens, not that a meal is planned.
const MEAL_AS_TIME = /\b(?:at|over|during|after|before|around)\s+(?:lunch|dinner|breakfast|brunch)\b/i;
// A hedge makes the plan uncertain only in its own clause: "drinks on Thursday, if you fancy" stands.
const HEDGED = /\b(?:if|maybe|perhaps|might|unless|whether)\b/i;
const MAX_EVENTS = 8;
/** A dated line this short can take the event word of the lines before it. */
const SHORT_REPLY_WORDS = 12;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The comma- or conjunction-bounded part of the sentence that holds the event word. */
function clauseAround(text: string, word: string): string {
  const at = text.indexOf(word);
  const clauses = text.split(/(?=[,;]|\b(?:and|but|so|because)\b)/i);
  let offset = 0;
  for (const clause of clauses) {
    if (at >= offset && at < offset + clause.length) return clause;
    offset += clause.length;
  }
  return text;
}

const INVITES = /\b(?:can|could|will|would) you (?:come|make it|join (?:us|me))\b|\bdo you want to come\b/i;

/** The wearer's own plans, plans said to them, and dated arrangements of a conversation they take part in. */
function involvesUser(analysis: Analysis, sentenceIndex: number): boolean {
  const sentence = analysis.sentences[sentenceIndex];
  // "Amara's recital is on the 12th, can you come?": the wearer inviting someone goes too.
  if (sentence.isUser && INVITES.test(sentence.text)) return true;
  if (!analysis.dialogue || sentence.isUser) return INVOLVES_USER.test(sentence.text) || impersonal(sentence);
  if (ADDRESSES_USER.test(sentence.text)) return true;
  // "My brother is visiting next week", said by someone else, is their family's plan.
  return (
    analysis.attribution !== 'absent' &&
    !speakersOwnTrip(sentence, analysis.sentences[sentenceIndex + 1]) &&
    !THIRD_PERSON_SUBJECT.test(sentence.text) &&
    !SPEAKERS_OWN_SUBJECT.test(sentence.text)
  );
}

/** The date nearest after the event word, or else the nearest before it. */
function eventDate(mentions: DateMention[], sentence: Sentence, tokenIndex: number): DateMention | undefined {
  const word = sentence.tokens[tokenIndex]?.value ?? '';
  const at = sentence.text.toLowerCase().indexOf(word.toLowerCase());
  // "Send me the photos from the hiking trip by Thursday": a deadline after the word dates a task acting on
  // it, not the trip; "before Thursday's book club", "the film is due Friday" date the event.
  const taskDeadline = (mention: DateMention) =>
    mention.deadline &&
    mention.index > at &&
    !/\b(?:is|are|'s|was|due)\b/i.test(sentence.text.slice(at, mention.index));
  const precise = mentions.filter((mention) => (mention.precise || mention.counted === true) && !taskDeadline(mention));
  return precise.find((mention) => mention.index >= at) ?? precise.at(-1);
}

/** The speaker of the sentence, or the only named other party, when diarization gave a name. */
function otherParty(sentence: Sentence, analysis: Analysis): string | null {
  if (!sentence.isUser && !isPlaceholderSpeaker(sentence.speaker)) return speakerAsPerson(sentence.speaker);
  const named = new Set(
    analysis.turns
      .filter((turn) => !turn.isUser && !isPlaceholderSpeaker(turn.speaker))
      .map((turn) => speakerAsPerson(turn.speaker)),
  );
  return named.size === 1 ? ([...named][0] ?? null) : null;
}

// Units and ordinals name a time, not the plan.
/** The sentence before, when it belongs to the same exchange: "Next appointment?" "Tuesday the 3rd." */
function context(analysis: Analysis, sentenceIndex: number): Sentence | undefined {
  const sentence = analysis.sentences[sentenceIndex];
  const previous = analysis.sentences[sentenceIndex - 1];
  return previous !== undefined && sentence !== undefined && previous.turn >= sentence.turn - 1 ? previous : undefined;
}

/** The nearest of the three sentences before, within the last two turns, that names an event. */
function eventSentenceBefore(analysis: Analysis, sentenceIndex: number, clock: Clock): Sentence | undefined {
  const turn = analysis.sentences[sentenceIndex]?.turn ?? 0;
  for (let index = sentenceIndex - 1; index >= Math.max(0, sentenceIndex - 3); index--) {
    const sentence = analysis.sentences[index];
    if (sentence === undefined || sentence.turn < turn - 2) break;
    // A sentence that dated its own event lends its word to no other date.
    if (eventTokenIndex(sentence.tokens) !== -1)
      return datedMentions(sentence, clock).length === 0 ? sentence : undefined;
  }
  return undefined;
}

/** "December sixth. I'm not giving up Valencia. It's my first marathon.": a date said first, its event just after. */
function eventSentenceAfter(analysis: Analysis, sentenceIndex: number, clock: Clock): Sentence | undefined {
  const turn = analysis.sentences[sentenceIndex]?.turn;
  for (let index = sentenceIndex + 1; index <= sentenceIndex + 2; index++) {
    const sentence = analysis.sentences[index];
    if (sentence === undefined || sentence.turn !== turn || datedMentions(sentence, clock).length > 0) break;
    if (eventTokenIndex(sentence.tokens) !== -1) return sentence;
  }
  return undefined;
}

/** The plan the turn ending at `last` put, read back from its last sentence: "Our loss adjuster will come. Is the 13th okay?" */
function titleOfTurn(analysis: Analysis, last: number): string | null {
  const turn = analysis.sentences[last]?.turn;
  for (let index = last; index >= 0 && analysis.sentences[index].turn === turn; index--) {
    const title = plainTitle(analysis.sentences[index].tokens);
    if (title !== null) return title;
  }
  return null;
}

const occasionCache = new WeakMap<Analysis, string | null>();

/** The event the conversation names most, at least twice ("the anniversary", "book club"), if any. */
function mainOccasion(analysis: Analysis): string | null {
  const cached = occasionCache.get(analysis);
  if (cached !== undefined) return cached;
  const counts = new Map<string, number>();
  for (const sentence of analysis.sentences) {
    const index = eventTokenIndex(sentence.tokens);
    if (index === -1) continue;
    const title = sentence.tokens[index].lemma.toLowerCase();
    counts.set(title, (counts.get(title) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  const occasion = best !== undefined && best[1] >= 2 ? headlineCase(best[0]) : null;
  occasionCache.set(analysis, occasion);
  return occasion;
}

interface Found {
  event: ExtractedEvent;
  /** named by an event word, which ranks it above a plain dated plan */
  named: boolean;
  /** named in its own sentence, not borrowed from the one before or from the conversation */
  own: boolean;
  /** a clock time was said, not the 09:00 a bare day is placed at */
  timed: boolean;
}

function datedMentions(sentence: Sentence, clock: Clock): DateMention[] {
  return mentionsIn(sentence, clock).filter(
    (mention) => mention.dateKnown && (mention.precise || mention.counted === true),
  );
}

/** A task drafted from the conversation, with its due date. */
type DatedTask = Draft & { dueAt: Date };

function eventOf(
  analysis: Analysis,
  sentenceIndex: number,
  clock: Clock,
  tasks: ReadonlyArray<DatedTask>,
  userName: string,
): Found | null {
  const sentence = analysis.sentences[sentenceIndex];
  const text = sentence.text;
  if (NOT_CONFIRMED.test(text) || MEAL_AS_TIME.test(text) || !involvesUser(analysis, sentenceIndex)) return null;
  const mentions = datedMentions(sentence, clock);
  if (mentions.length === 0) return null;
  const before = context(analysis, sentenceIndex);
  const named = eventTokenIndex(sentence.tokens);
  // The sentence's own event word, or -1. "Pack your lunch", "bring a cake for the party": a meal or a
  // thing made ready is a task's object, not an event.
  const own = named !== -1 && preparedThing(sentence.tokens, named) ? -1 : named;
  if (!sentence.isUser && own === -1 && SPEAKERS_OWN_TASK.test(text.trim())) return null;
  let index = own;
  const mention = index === -1 ? mentions.find((item) => !item.deadline) : eventDate(mentions, sentence, index);
  if (mention === undefined) return null;
  const anchorWord = index === -1 ? text.slice(mention.index, mention.end) : sentence.tokens[index].value;
  const clause = clauseAround(text, anchorWord);
  if (PAST_TENSE.test(clause) || HEDGED.test(clause)) return null;
  if (index !== -1 && isBookingTime(sentence.tokens, index, text.slice(0, mention.index))) return null;
  // An event without a stated time is placed at 09:00 local, the start of its day.
  const start = mentionInstant(mention, clock, 9, 0);
  if (start.getTime() < clock.startedAt.getTime() - HOUR) return null;
  // "Then our loss adjuster will come to see the flat." … "Tuesday the 13th?": the event word of the exchange.
  // Only a short reply borrows it: "Today I'm writing the rollback plan, and I'll have it in the wiki
  // by Thursday" is a task of its own, not the stand-up three sentences back.
  const short = sentence.tokens.filter((token) => token.kind === 'word').length <= SHORT_REPLY_WORDS;
  const earlier = index === -1 && short ? eventSentenceBefore(analysis, sentenceIndex, clock) : undefined;
  // "Saturday the ninth. Mia's birthday party.": else the event said just after the date.
  const following =
    index === -1 && short && earlier === undefined ? eventSentenceAfter(analysis, sentenceIndex, clock) : undefined;
  const prior = index === -1 ? (earlier ?? following) : before;
  const priorTokens = prior?.tokens ?? [];
  if (index === -1 && prior !== undefined) index = eventTokenIndex(priorTokens);
  const fromPrior = index !== -1 && own === -1;
  // "…the loss adjuster will come. Is Tuesday the 13th okay?" "Yes, Tuesday the 13th works.": a short
  // reply that names nothing takes the plan the question's turn put.
  const answered =
    before !== undefined &&
    before.turn !== sentence.turn &&
    before.text.trim().endsWith('?') &&
    text.split(' ').length <= 8;
  // "Today I'm writing the rollback plan": a plan for today that names no event is a task, not a date.
  if (index === -1 && start.getTime() - clock.startedAt.getTime() < 12 * HOUR) return null;
  // "Oh and pick up the dry cleaning Thursday": a date that is a task's due date, in a sentence that names
  // no event, is the task's: it names the plan, rather than an event word borrowed from elsewhere.
  const task =
    own === -1
      ? tasks.find(
          (each) =>
            each.sentenceIndex <= sentenceIndex &&
            each.sentenceIndex >= sentenceIndex - 2 &&
            Math.abs(each.dueAt.getTime() - start.getTime()) < DAY,
        )
      : undefined;
  // A dated plan that names nothing is most likely the occasion the conversation keeps coming back to.
  const title =
    task !== undefined
      ? task.description
      : index === -1
        ? ((answered ? titleOfTurn(analysis, sentenceIndex - 1) : null) ??
          plainTitle(sentence.tokens, userName) ??
          mainOccasion(analysis))
        : eventTitle(fromPrior ? priorTokens : sentence.tokens, index);
  if (title === null || title === '') return null;
  const party = WITH_NAMED.exec(text)?.[1] ?? otherParty(sentence, analysis);
  // "Appointment with Dr Patel" already says whom it is with.
  const withParty =
    party !== null && !title.includes(party) && !/\bwith\b/i.test(title) ? `${title} with ${party}` : title;
  // The reply that settles the plan ("Yes, Thursday works, see you at the clinic") belongs to it too.
  const after = analysis.sentences[sentenceIndex + 1];
  const reply = after !== undefined && after.turn === sentence.turn + 1 ? after.text : '';
  // The event said just after the date belongs to its description too.
  const spoken = squeezeSpaces(`${before?.text ?? ''} ${text} ${following?.text ?? ''} ${reply}`);
  return {
    event: {
      title: headlineCase(truncateChars(withParty, 80)),
      description: truncateChars(spoken, 300),
      start,
      duration: durationOf(text),
    },
    named: index !== -1,
    own: own !== -1,
    timed: mention.hasTime,
  };
}

/** Concrete, dated plans that involve the user: named events first, in order of speech. */
export function extractEvents(input: TranscriptInput): ExtractedEvent[] {
  const analysis = analysisOf(input);
  const clock = clockOf(input.startedAt, input.timezone);
  // Each event's day on the wearer's wall clock, computed once (Intl is costly in a loop over every pair).
  const found: Array<Found & { order: number; day: string }> = [];
  const tasks = draftActionItems(input).drafts.filter((draft): draft is DatedTask => draft.dueAt !== null);
  analysis.sentences.forEach((_, sentenceIndex) => {
    const candidate = eventOf(analysis, sentenceIndex, clock, tasks, input.userName);
    if (candidate === null) return;
    // The same title on the same day is the same event; so is a title borrowed from the sentences just
    // before ("My biopsy is on Tuesday. I'll be there on Friday"). Otherwise another day is another event.
    const title = candidate.event.title.toLowerCase();
    const day = localDayKey(candidate.event.start, clock.timezone);
    // A reply that borrows its plan ("The 30th… yes, I can come") on the day of an event just found is that event.
    const same = (other: Found & { order: number; day: string }) => {
      const sameDay = other.day === day;
      const borrowedJustAfter = !candidate.own && sentenceIndex - other.order <= 3;
      const sameTitle = other.event.title.toLowerCase() === title;
      return (sameTitle && (sameDay || borrowedJustAfter)) || (sameDay && borrowedJustAfter);
    };
    const earlier = found.find(same);
    if (earlier !== undefined) {
      settleLater(earlier, { ...candidate, day });
      return;
    }
    if (!candidate.timed) candidate.event.start = answeredTime(analysis, sentenceIndex, candidate.event.start, clock);
    found.push({ ...candidate, order: sentenceIndex, day });
  });
  return found
    .sort((a, b) => Number(b.named) - Number(a.named) || a.order - b.order)
    .slice(0, MAX_EVENTS)
    .sort((a, b) => a.order - b.order)
    .map((item) => item.event);
}
