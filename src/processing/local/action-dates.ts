import type { Candidate } from './action-cues.js';
import type { Draft } from './action-drafts.js';
import { dueInstant } from './action-due.js';
import { ITEM_NUMBER } from './action-imperatives.js';
import type { Analysis, Sentence } from './analysis.js';
import { type Clock, type DateMention, mentionsIn } from './dates.js';
import { localToUtc } from './timezone.js';
import { TASK_VERBS } from './vocabulary.js';

/** When a drafted task is due: its own dates, a neighbouring sentence's, or the appointment it serves. */

/** What dating a task reads: the parsed conversation and its clock. */
export interface Dating {
  analysis: Analysis;
  clock: Clock;
  /** the tasks drafted so far: a sentence with a task of its own keeps its date */
  drafts?: ReadonlyArray<Pick<Draft, 'sentenceIndex'>>;
}

const URGENT = /\b(?:asap|as soon as possible|urgent|urgently|right away|immediately)\b/i;

export function mentionsOf(extraction: Dating, sentenceIndex: number): DateMention[] {
  const sentence = extraction.analysis.sentences[sentenceIndex];
  return sentence === undefined ? [] : mentionsIn(sentence, extraction.clock);
}

function bestMention(group: DateMention[]): DateMention | null {
  const ranked = [...group].sort(
    (a, b) => Number(b.deadline) - Number(a.deadline) || Number(b.dateKnown) - Number(a.dateKnown) || a.index - b.index,
  );
  return ranked[0] ?? null;
}

const JOINED_CLAUSE = /\b(?:and|but|while|whereas)\s+(?:I|I'll|I'm|we|we'll|you|he|she|they|\p{Lu}\p{Ll}+)\b/u;

// The words a speaker corrects a day with: "Friday, no wait, Thursday", "Monday — sorry, Tuesday".
const CORRECTION =
  /(?:^|[\s,;:.!?—–-])(?:no,?\s+wait|no,?\s+sorry|sorry|wait|actually|i mean|or rather|make (?:it|that))\b[\s,;:.!?—–-]*(?:(?:no|it's|on|make it)\b[\s,]*)?$/i;

/** In-clause dates first, then dates later in the sentence, then earlier ones; deadlines ("by …") win ties. */
export function chooseDue(candidate: Candidate, mentions: DateMention[], clock: Clock): Date | null {
  const inClause = mentions.filter((m) => m.index >= candidate.clauseStart && m.index < candidate.clauseEnd);
  // "sign the form — I'll put it in her bag tomorrow — and return it by Friday": an aside's day is the aside's.
  const asides = [...candidate.sentence.text.matchAll(/[—–][^—–]+[—–]/g)].map((aside) => [
    aside.index,
    aside.index + aside[0].length,
  ]);
  const outside = (m: DateMention) =>
    !asides.some(
      ([start, end]) =>
        m.index > start && m.end < end && (candidate.clauseStart < start || candidate.clauseStart > end),
    );
  const after = mentions.filter((m) => m.index >= candidate.clauseEnd && m.end <= candidate.windowEnd && outside(m));
  // "I'll call the plumber tomorrow, no wait, Thursday": the day said after the correction is the one meant.
  const own = [...inClause, ...after].sort((a, b) => a.index - b.index);
  const corrected = own.find(
    (mention, i) => i > 0 && CORRECTION.test(candidate.sentence.text.slice(own[i - 1].end, mention.index)),
  );
  if (corrected !== undefined) return dueInstant(corrected, clock);
  // "Tom will order the tiles on Monday and I will call the plumber": a date in a clause of its own,
  // joined by "and" or "but", is that clause's.
  const before = mentions.filter(
    (m) =>
      m.end <= candidate.clauseStart &&
      m.index >= candidate.windowStart &&
      !JOINED_CLAUSE.test(candidate.sentence.text.slice(m.end, candidate.clauseStart)),
  );
  for (const group of [inClause, after, before]) {
    const mention = bestMention(group);
    if (mention !== null) return dueInstant(mention, clock);
  }
  // SPEC research §3.4: "ASAP"/urgent without a date means two hours from the conversation start.
  if (URGENT.test(candidate.sentence.text)) return new Date(clock.startedAt.getTime() + 2 * 3_600_000);
  return null;
}

// "Log your protein every day": a habit has no due date, and borrows none.
const HABIT = /\b(?:every|each|daily|weekly|nightly|per (?:day|week)|(?:once|twice|\w+ times) a (?:day|week))\b/i;

const LOOK_BACK_FOR_DATE = 3;

/**
 * "Wednesday at ten then. I'll send you the quote the same day.": a task without a date of its own takes
 * a named day from the sentence just before it, or from the other speaker's turn it answers.
 */
export function dateJustBefore(candidate: Candidate, extraction: Dating): Date | null {
  if (HABIT.test(candidate.clause)) return null;
  for (let back = 1; back <= LOOK_BACK_FOR_DATE; back++) {
    const index = candidate.sentenceIndex - back;
    const previous = extraction.analysis.sentences[index];
    if (previous === undefined || previous.turn < candidate.sentence.turn - 1) return null;
    // Further back than the sentence before, only the turn being answered sets the date.
    if (back > 1 && previous.turn === candidate.sentence.turn) continue;
    // "Renew the insurance before the 20th. And book flights to Accra.": in one's own list, the date
    // said for the task before is that task's.
    const ownTask = extraction.drafts?.some((draft) => draft.sentenceIndex === index) ?? false;
    if (ownTask && previous.turn === candidate.sentence.turn) return null;
    // "Thursday the 5th. I'll check with him tonight." "Bring your payslips.": the answer's own task keeps its day.
    if (ownTask) continue;
    const mention = mentionsOf(extraction, index).find((item) => item.precise && item.dateKnown);
    if (mention !== undefined) return dueInstant(mention, extraction.clock);
  }
  return null;
}

/** The first known day of the next sentence, when the same speaker says it and `accept` lets it date the task. */
function dateOfNext(candidate: Candidate, extraction: Dating, accept: (next: Sentence) => boolean): Date | null {
  const index = candidate.sentenceIndex + 1;
  const next = extraction.analysis.sentences[index];
  if (next === undefined || next.turn !== candidate.sentence.turn || !accept(next)) return null;
  const mention = mentionsOf(extraction, index).find((item) => item.dateKnown);
  return mention === undefined ? null : dueInstant(mention, extraction.clock);
}

// "Number two: call the bank tomorrow.": the next numbered item of a list is a task of its own ("Draft
// to Kalani by the 15th." after "I'll take the training deck" says when that one is due).
const NEXT_TASK = new RegExp(`^${ITEM_NUMBER}\\s*[:.),]\\s*([a-z]+)`, 'i');

function opensTask(sentence: Sentence): boolean {
  const verb = NEXT_TASK.exec(sentence.text.trim())?.[1]?.toLowerCase();
  return verb !== undefined && TASK_VERBS.has(verb);
}

/** "Can you send me photos of the display? Today if possible.": a short afterthought of the same turn dates the task. */
export function dateJustAfter(candidate: Candidate, extraction: Dating): Date | null {
  if (HABIT.test(candidate.clause)) return null;
  return dateOfNext(
    candidate,
    extraction,
    (next) => next.tokens.filter((token) => token.kind === 'word').length <= 6 && !opensTask(next),
  );
}

// "When can you call her?" — a question about when, whoever asks it.
const WHEN_ASKED = /^(?:(?:and|so|okay|ok|right|great),?\s+)?(?:when|what time|what day|by when|how soon)\b[^?]*\?$/i;
const LOOK_AHEAD_FOR_ANSWER = 4;
const FAREWELL =
  /^(?:(?:ok(?:ay)?|great|perfect|good|right|alright|thanks?|thank you|lovely),?\s+)*(?:see you|see ya|talk (?:to you )?(?:soon|then)|speak (?:soon|then)|catch you|bye)\b/i;

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => /\p{L}|\d/u.test(word)).length;
}

/**
 * "Can you make the list?" "When do you need it?" "By Friday next week.": a task without a date of
 * its own takes the day of the exchange that settles when, within the next two turns: an answer to a
 * question about when, or a reply that is little more than a day ("Tomorrow morning.", "By the 14th.").
 */
export function dateOfAnswer(candidate: Candidate, extraction: Dating): Date | null {
  if (HABIT.test(candidate.clause)) return null;
  const { sentences } = extraction.analysis;
  let askedWhen = false;
  let assented = false;
  const last = Math.min(sentences.length - 1, candidate.sentenceIndex + LOOK_AHEAD_FOR_ANSWER);
  for (let index = candidate.sentenceIndex + 1; index <= last; index++) {
    const sentence = sentences[index];
    if (sentence.turn > candidate.sentence.turn + 2) return null;
    // A sentence with a task of its own dates that task, and ends the search.
    if (extraction.drafts?.some((draft) => draft.sentenceIndex === index)) return null;
    if (WHEN_ASKED.test(sentence.text.trim())) {
      askedWhen = true;
      continue;
    }
    const mention = mentionsOf(extraction, index).find((item) => item.dateKnown);
    if (mention === undefined) {
      // "Sure, after the merge. Probably tomorrow morning.": a short word of assent opens the reply.
      const assent = sentence.turn === candidate.sentence.turn + 1 && wordCount(sentence.text) <= 5;
      if (sentence.turn > candidate.sentence.turn && !assent) return null;
      if (sentence.turn > candidate.sentence.turn) assented = true;
      continue;
    }
    // "Perfect. See you in three weeks, Sam.": a farewell names the next meeting, not when a task is due.
    if (FAREWELL.test(sentence.text.trim())) return null;
    // "Sì, by the weekend, by Saturday.": every day said is taken out, and what is left is weighed.
    const rest = mentionsOf(extraction, index)
      .sort((a, b) => b.index - a.index)
      .reduce((text, said) => `${text.slice(0, said.index)} ${text.slice(said.end)}`, sentence.text)
      .replace(/\bby\b/gi, ' ');
    const answersWhen = askedWhen && sentence.turn > candidate.sentence.turn;
    // After a word of assent, only a day said on its own answers ("I'll leave early on Friday" is a plan of its own).
    const ownPlan = assented && /\b(?:i|i'll|i'm|we|we'll|we're)\b/i.test(rest);
    const bare = sentence.turn !== candidate.sentence.turn && wordCount(rest) <= 3 && !ownPlan;
    if (answersWhen || bare) return dueInstant(mention, extraction.clock);
    // "You upload through the portal, I'll send the link after this call.": the same speaker's plan of their
    // own, dated, leaves the question of when open.
    if (sentence.turn !== candidate.sentence.turn) return null;
  }
  return null;
}

const DUE_OF_IT =
  /^(?:and )?(?:(?:it's|it is|that's|that is|they're|they are) (?:all )?due\b|(?:the )?deadline(?:'s| is)\b)/i;
// "By the end of next month, no rush.": a deadline said on its own, with nothing more to do in it.
// "Today if possible, so I can send them on.": a day said on its own answers when, too.
const BARE_DEADLINE =
  /^(?:and |so )?(?:(?:by|before|no later than)\b[^,.;!?]*|(?:today|tonight|tomorrow(?: morning| afternoon| evening)?|this (?:morning|afternoon|evening)|(?:on )?(?:mon|tues|wednes|thurs|fri|satur|sun)day)(?: (?:if possible|please|ideally|at the latest|latest))?)(?:[.!]?$|,\s*(?:no rush|please|at the latest|latest|ideally|if possible|if you can|or sooner|okay|ok|yeah|so (?:i|we) can|and (?:then )?we|then we|so we|before)\b)/i;

/**
 * "For next week, do problem set three. It's due Monday at noon on the portal.": a deadline said of
 * the task just given, in the same turn, is its due date, before a vaguer date of its own.
 */
export function deadlineSaidAfter(candidate: Candidate, extraction: Dating): Date | null {
  // "Email Dr. Okafor tonight about an extension. It's due on the 22nd": a task with a day of its own keeps it.
  const ownDay = () => mentionsOf(extraction, candidate.sentenceIndex).some((item) => item.precise && item.dateKnown);
  const deadline = (next: Sentence) =>
    [DUE_OF_IT, BARE_DEADLINE, TIME_GIVEN].some((shape) => shape.test(next.text.trim())) && !ownDay();
  return dateOfNext(candidate, extraction, deadline) ?? timeGivenLater(candidate, extraction);
}

// "You have fourteen days from today to send those.", "If you send them by next Wednesday, …": the
// time the asker gives for what they just asked for.
const TIME_GIVEN =
  /^(?:and |so |but )?(?:you(?:'ve| have)(?: got)? (?:[\w-]+ ){1,3}(?:days?|weeks?|months?)(?: from (?:today|now))? to\b|you(?:'ve| have)? got until\b|(?:if|once|when) you (?:can )?(?:send|get|bring|return|submit|drop|email|give|upload|post) (?:me |us )?(?:it|them|those|these|that|everything|all that)\b)/i;

/** The asker's next turn, after the wearer's reply, gives the time for the request ("If you send them by Wednesday…"). */
function timeGivenLater(candidate: Candidate, extraction: Dating): Date | null {
  if (candidate.kind !== 'request' || candidate.sentence.isUser) return null;
  const { sentences } = extraction.analysis;
  for (let index = candidate.sentenceIndex + 1; index < sentences.length; index++) {
    const sentence = sentences[index];
    if (sentence.turn > candidate.sentence.turn + 2) return null;
    if (sentence.speaker !== candidate.sentence.speaker || !TIME_GIVEN.test(sentence.text.trim())) continue;
    const mention = mentionsOf(extraction, index).find((item) => item.dateKnown);
    return mention === undefined ? null : dueInstant(mention, extraction.clock);
  }
  return null;
}

const CARRIED = /^(?:Bring|Take along|Show)\b/;
// "Shall I bring anything?" "Could you make that lentil dal of yours?": food made to bring is carried too.
const MADE_TO_BRING = /^(?:Make|Bake|Cook)\b/;

/** What is carried to an occasion: brought, or made after being asked to bring something. */
export function carried(draft: Draft, extraction: Dating): boolean {
  if (CARRIED.test(draft.description)) return true;
  if (!MADE_TO_BRING.test(draft.description)) return false;
  const { sentences } = extraction.analysis;
  return sentences
    .slice(Math.max(0, draft.sentenceIndex - 3), draft.sentenceIndex)
    .some((sentence) => /\bbring\b/i.test(sentence.text));
}

/**
 * "I'll bring my residence card": what is carried to an appointment is due when it happens, the
 * nearest dated plan said before it (the appointment under discussion).
 */
export function carriedTo(draft: Draft, extraction: Dating): Date | null {
  for (let index = draft.sentenceIndex; index >= 0; index--) {
    const mention = mentionsOf(extraction, index).find((item) => item.precise && item.dateKnown);
    if (mention === undefined) continue;
    const at = dueInstant(mention, extraction.clock);
    if (at.getTime() >= extraction.clock.startedAt.getTime()) return at;
  }
  return null;
}

/** "Tomorrow I'll email Ana and call the bank": a task joined by "and" to a dated one shares its day. */
export function dateOfConjoined(candidate: Candidate, drafts: ReadonlyArray<Draft>): Date | null {
  if (!/\band\s*$/i.test(candidate.sentence.text.slice(0, candidate.clauseStart))) return null;
  return drafts.findLast((draft) => draft.sentenceIndex === candidate.sentenceIndex)?.dueAt ?? null;
}

/**
 * "I'll collect the subs, I'll chase them in the group, everyone by the end of the month": a closing
 * stretch with no subject of its own dates every task of its sentence.
 */
export function dayOfClosingStretch(candidate: Candidate, mentions: DateMention[], clock: Clock): Date | null {
  const text = candidate.sentence.text;
  const comma = text.lastIndexOf(',');
  if (comma < candidate.clauseEnd) return null;
  const tail = text.slice(comma + 1);
  if (/\b(?:I|I'll|I'm|we|we'll|you|he|she|they|it|that|this)\b/i.test(tail)) return null;
  const said = mentions.find((mention) => mention.dateKnown && mention.index > comma);
  return said === undefined ? null : dueInstant(said, clock);
}

/**
 * "I'll book it tonight and make a Kakao group": a verb joined by a bare "and" shares the day said before
 * it, even when the first verb gave no task (dateOfConjoined takes the day the draft before it got).
 */
export function dayOfSharedSubject(candidate: Candidate, mentions: DateMention[], clock: Clock): Date | null {
  if (!/\band\s*$/i.test(candidate.sentence.text.slice(0, candidate.clauseStart))) return null;
  const said = mentions.findLast((mention) => mention.dateKnown && mention.end <= candidate.clauseStart);
  return said === undefined ? null : dueInstant(said, clock);
}

/** A medicine prescribed is taken from today. */
export function prescribedToday(candidate: Candidate, clock: Clock): Date | null {
  return candidate.impliedVerb === 'take' ? localToUtc({ ...clock.today, hour: 23, minute: 59 }, clock.timezone) : null;
}
