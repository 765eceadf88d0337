import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isIdiom } from './keywords.js';
import type { Token } from './nlp.js';
import { headlineCase } from './text.js';

/** What names an event: its word in a sentence, and the title made from it. */

/** Nouns (and a few verbs) of things that happen at a time the user has to be there. */
const EVENT_WORDS = new Set(
  `meeting meet appointment dinner lunch breakfast brunch interview flight fly trip party wedding concert gig
  rehearsal class lesson exam session conference presentation demo checkup surgery physio cleanup hike match game
  anniversary birthday ceremony funeral club workshop webinar meetup drinks festival recital screening tour
  reservation table standup visit retreat massage haircut practice night call date offsite kickoff launch deadline marathon race`.split(
    /\s+/,
  ),
);
/**
 * Nouns WordNet files under meetings, visits, classes, medical procedures, trips, shows, ceremonies
 * and contests (derived by scripts/train-event-lexicon.ts): "biopsy", "recital", "seminar"… The
 * list above adds everyday words WordNet ranks elsewhere ("dinner", "physio") and the verbs.
 */
let eventNouns: ReadonlySet<string> | undefined;
export function isEventNoun(lemma: string): boolean {
  eventNouns ??= new Set(
    (JSON.parse(readFileSync(join(import.meta.dirname, 'lexicons', 'event-nouns.json'), 'utf8')) as { words: string[] })
      .words,
  );
  return eventNouns.has(lemma);
}
const VERB_TITLES: Record<string, string> = { fly: 'Flight', meet: 'Meeting', visit: 'Visit' };
export const CALENDAR_NAME =
  /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|june|july|august|september|october|november|december|today|tonight|tomorrow|morning|evening|afternoon|weekend)$/i;
// Words that name an event only in some company: "book a table", "game night", "a proper date", "a call at 3".
const CONTEXT_BOUND: Record<string, RegExp> = {
  table: /\b(?:book|reserve)\b/,
  night: /\b(?:game|movie|quiz|date)\s+night\b/,
  date: /\b(?:a|our|proper|first|dinner|lunch)\s+date\b/,
  call: /\b(?:a|the|our|conference|video|zoom|phone)\s+call\s+(?:at|on|with)\b/,
  // "a medication review on Tuesday", "your annual review": a review one attends, not one writes.
  review:
    /\b(?:medication|annual|performance|mid-year|midyear|year-end|salary|pay|case|care|asthma|diabetes|blood pressure|six-month|six month|yearly)\s+review\b|\b(?:a|your|my|the)\s+review\s+(?:on|at|with)\b/,
};

// Events spoken as hyphenated compounds, which the tagger splits ("follow - up").
const HYPHENATED_EVENTS = new Set(
  'follow-up check-up catch-up meet-up kick-off get-together walk-through run-through sit-down send-off stand-up one-on-one drop-off'.split(
    ' ',
  ),
);
// Events named by an -ing noun the tagger may read as a verb or adjective ("a final fitting").
const ING_EVENTS = new Set('fitting viewing tasting screening hearing signing christening briefing reading'.split(' '));

// "Dentist on the 3rd at half past two": a line of a memo that names whom one sees, and no verb.
const PROVIDERS = new Set(
  'dentist doctor gp vet physio physiotherapist optician hairdresser barber orthodontist dermatologist therapist chiropractor osteopath midwife'.split(
    ' ',
  ),
);

/** "Dentist", "GP": whom one sees at an appointment. */
export function isProvider(word: string): boolean {
  return PROVIDERS.has(word.toLowerCase());
}

export function eventTokenIndex(tokens: Token[]): number {
  const first = tokens.find((token) => token.kind === 'word');
  if (
    first !== undefined &&
    PROVIDERS.has(first.normal) &&
    !tokens.some((token) => token.pos === 'VERB' || token.pos === 'AUX')
  )
    return tokens.indexOf(first);
  const compound = tokens.findIndex(
    (token, index) =>
      tokens[index + 1]?.value === '-' &&
      HYPHENATED_EVENTS.has(
        `${token.normal}-${tokens[index + 2]?.normal ?? ''}${tokens[index + 3]?.value === '-' ? `-${tokens[index + 4]?.normal ?? ''}` : ''}`,
      ),
  );
  if (compound !== -1) return compound;
  // After a determiner or an adjective the -ing word is the event, not an action ("a final fitting").
  const gerund = tokens.findIndex(
    (token, index) => ING_EVENTS.has(token.normal) && ['DET', 'ADJ'].includes(tokens[index - 1]?.pos ?? ''),
  );
  if (gerund !== -1) return gerund;
  const text = tokens.map((token) => token.normal).join(' ');
  const everyday = tokens.findIndex((token) => {
    const lemma = token.lemma.toLowerCase();
    const context = CONTEXT_BOUND[lemma];
    if (context !== undefined) return token.pos === 'NOUN' && context.test(text);
    return EVENT_WORDS.has(lemma) && (token.pos === 'NOUN' || token.pos === 'VERB' || token.pos === 'PROPN');
  });
  if (everyday !== -1) return everyday;
  // "your seventieth on Saturday the 23rd", "Appa's sixtieth": a milestone birthday named by its ordinal.
  const milestone = tokens.findIndex(
    (token, index) =>
      MILESTONE.test(token.normal) &&
      (POSSESSOR.test(tokens[index - 1]?.normal ?? '') || tokens[index - 1]?.normal === "'s") &&
      !['NOUN', 'PROPN'].includes(tokens[index + 1]?.pos ?? ''),
  );
  if (milestone !== -1) return milestone;
  return tokens.findIndex(
    (token, index) => token.pos === 'NOUN' && !isIdiom(tokens, index) && isEventNoun(token.lemma.toLowerCase()),
  );
}

const MILESTONE = /^(?:\w+tieth|eighteenth|twenty-first|\w+-(?:first|fifth)|hundredth)$/i;
const POSSESSOR = /^(?:your|his|her|my|our|their)$/i;

/** " with Sarah", " at the Lido", " to Cleveland": a preposition and a name right after the event word. */
function qualifier(tokens: Token[], from: number): string[] {
  const offset = tokens.slice(from, from + 4).findIndex((token) => ['with', 'at', 'to', 'in'].includes(token.normal));
  if (offset === -1) return [];
  let index = from + offset + 1;
  const words = [tokens[from + offset].value];
  if (tokens[index]?.pos === 'DET') words.push(tokens[index++].value);
  const names: string[] = [];
  while (tokens[index]?.pos === 'PROPN' && !CALENDAR_NAME.test(tokens[index].value) && names.length < 3) {
    names.push(tokens[index++].value);
  }
  return names.length > 0 ? [...words, ...names] : [];
}

/** "Dentist Appointment", "Gig at the Lido", "Flight to Cleveland". */
export function eventTitle(tokens: Token[], index: number): string {
  let start = index;
  while (start > 0 && ['NOUN', 'PROPN', 'ADJ'].includes(tokens[start - 1].pos) && index - start < 3) start--;
  let end = index + 1;
  while (end < tokens.length && tokens[end].pos === 'NOUN' && end - start < 4) end++;
  const anchor = tokens[index];
  // "The oncology follow-up": the compound and the words before it.
  if (tokens[index + 1]?.value === '-') {
    let last = index + 2;
    while (tokens[last + 1]?.value === '-' && tokens[last + 2] !== undefined) last += 2;
    const compound = tokens
      .slice(index, last + 1)
      .map((token) => token.value)
      .join('');
    const before = tokens.slice(start, index).map((token) => token.value);
    return headlineCase([...before, compound, ...qualifier(tokens, last + 1)].slice(0, 8).join(' '));
  }
  // "your seventieth" is a birthday ("their fortieth anniversary" is anchored on "anniversary", an event word).
  if (MILESTONE.test(anchor.normal) && !['NOUN', 'PROPN'].includes(tokens[index + 1]?.pos ?? ''))
    return headlineCase(`${anchor.value} birthday`);
  const verbTitle = anchor.pos === 'VERB' ? VERB_TITLES[anchor.lemma.toLowerCase()] : undefined;
  const head =
    verbTitle !== undefined
      ? [verbTitle]
      : tokens
          .slice(start, end)
          .map((token) => token.value)
          .filter((word) => !CALENDAR_NAME.test(word));
  return headlineCase([...head, ...qualifier(tokens, end)].slice(0, 8).join(' '));
}

const TIME_NOUN =
  /^(?:sec|second|minute|hour|day|date|week|month|year|time|o'clock|am|pm|night|morning|evening|afternoon|end|start|beginning|way|number|dollar|euro|pound|\w*(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|teenth|tieth))s?$/i;
// Words wink may tag as nouns that name no plan: "Funny", "Right", "Self", a title without its name.
// "Tuesday the 13th works": the verbs of a reply that accepts a time, which wink may tag as nouns.
const NOT_A_PLAN =
  /^(?:right|funny|little|new|last|next|self|revised|mr|mrs|ms|dr|head|text|phone|place|i'm|it's|that's|works|suits|sounds|fits|reminder|note|thing|things|stuff|god|problem|voice|memo|list|errands|guys|folks|people|money|deal|question|way|lot|sir|madam|mate|boss)$/i;

/** Words between square brackets ("[typing]", "[laughs]") are a transcriber's note, not what was said. */
function inNote(tokens: Token[], position: number): boolean {
  const open = tokens.slice(0, position).findLastIndex((token) => token.value === '[');
  return open !== -1 && !tokens.slice(open, position).some((token) => token.value === ']');
}

/** Without an event word, the sentence's first noun that is not a calendar or time word names the plan. */
export function plainTitle(tokens: Token[], wearer = ''): string | null {
  const index = tokens.findIndex((token, position) => {
    // "Tom, can you pair with Alex tomorrow?": the wearer's own name names no plan of theirs.
    if (wearer !== '' && token.value.toLowerCase() === wearer.toLowerCase()) return false;
    const next = tokens[position + 1];
    // "Calibration is on the 23rd": a noun opening the sentence names the plan when a verb follows.
    if (position === 0 && !(next !== undefined && (next.pos === 'AUX' || next.pos === 'VERB'))) return false;
    // "a follow-up": wink tags the verb; after a determiner it is a noun.
    const nominal =
      token.pos === 'NOUN' || token.pos === 'PROPN' || (token.pos === 'VERB' && tokens[position - 1]?.pos === 'DET');
    // "Of course I'll be there": an idiom, not a course.
    if (token.normal === 'course' && tokens[position - 1]?.normal === 'of') return false;
    // "[typing]", "[laughs]": a transcriber's note names no plan.
    if (inNote(tokens, position)) return false;
    return (
      nominal &&
      /^\p{L}[\p{Ll}-]{2,}$/u.test(token.value) &&
      token.kind === 'word' &&
      !CALENDAR_NAME.test(token.value) &&
      !TIME_NOUN.test(token.value) &&
      !NOT_A_PLAN.test(token.value)
    );
  });
  if (index === -1) return null;
  const hyphenated = tokens[index + 1]?.value === '-' && tokens[index + 2] !== undefined;
  return hyphenated
    ? headlineCase(`${tokens[index].value}-${tokens[index + 2]?.value ?? ''}`)
    : eventTitle(tokens, index);
}

const PREPARE = new Set(['pack', 'make', 'cook', 'prepare', 'buy', 'grab', 'eat', 'finish', 'order', 'heat', 'bake']);

/** The event word is the object of a verb that makes or fetches a thing ("pack your lunch"). */
export function preparedThing(tokens: ReadonlyArray<Token>, index: number): boolean {
  for (let back = 1; back <= 3 && index - back >= 0; back++) {
    const token = tokens[index - back];
    // wink may tag "pack" in "and pack your lunch" as a noun.
    if (PREPARE.has(token.normal)) return true;
    if (token.pos === 'VERB') return PREPARE.has(token.lemma.toLowerCase());
    if (!['DET', 'PRON', 'ADJ'].includes(token.pos)) return false;
  }
  return false;
}

const DURATION = /\bfor (an?|one|two|three|four|\d+(?:\.\d+)?) (hours?|minutes?|mins?)\b/i;
const COUNTS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4 };
const DEFAULT_DURATION = 30;
const MAX_DURATION = 180;

/** SPEC §2.1: 30 minutes unless the sentence says "for two hours"; capped at three hours. */
export function durationOf(text: string): number {
  const match = DURATION.exec(text);
  if (match === null) return DEFAULT_DURATION;
  const amount = COUNTS[match[1].toLowerCase()] ?? Number(match[1]);
  const minutes = match[2].toLowerCase().startsWith('h') ? amount * 60 : amount;
  return Math.min(MAX_DURATION, Math.max(5, Math.round(minutes)));
}

const SCHEDULING_VERBS = new Set(['book', 'reserve', 'schedule', 'arrange', 'organize', 'plan', 'set', 'buy', 'order']);

/** "book the flights tonight" dates the booking, not the flight; "book a table for Saturday" dates the table. */
export function isBookingTime(tokens: Token[], eventIndex: number, textBeforeDate: string): boolean {
  const scheduled = tokens
    .slice(Math.max(0, eventIndex - 4), eventIndex)
    .some((token) => token.pos === 'VERB' && SCHEDULING_VERBS.has(token.lemma));
  return scheduled && !/\bfor\s+$/i.test(textBeforeDate);
}

// "I'll sort out the parking permits on Friday", said by someone else: their own task, not the wearer's
// date ("I'll pencil in the fourteenth for move-in" schedules the wearer, though, and "I'll send a
// plumber on Friday" visits them).
export const SPEAKERS_OWN_TASK =
  /^(?:(?:ok(?:ay)?|right|so|and|sure|fine|well)[\s,]+)*(?:I'll|I will|I'm going to|I am going to|I'm gonna|I need to|I have to)\s+(?!(?:pencil|book|schedule|put|set|arrange|reserve|confirm|hold)\b|send (?:(?:a|an|the|our|my) )?(?:someone|somebody|plumber|electrician|engineer|technician|fitter|surveyor|inspector|courier|driver|nurse|cleaner|locksmith|builder|handyman|team|crew)\b|(?:see|meet|pick|call|ring|text|email|visit|join|come|bring|drive|take)\s+(?:you|up|over|round|by)\b)/i;
// "a follow-up on Thursday at 4:15 with Aoife": whom the plan is with, said in it.
export const WITH_NAMED = /\bwith (?:(?:Dr|Doctor|Mr|Mrs|Ms)\.? )?(\p{Lu}\p{Ll}+)\b/u;

// "We had dinner on Friday" is over; "the meeting was moved to Tuesday" is not.
// "The boiler died again on Friday night": something that befell is over too.
export const PAST_TENSE =
  /\b(?:was|were|had|did|went|died|broke|crashed|flooded|burst|leaked|happened|fell)\b(?!\s+(?:moved|rescheduled|pushed|postponed|changed|booked|confirmed|set))/i;
// A plan called off or being moved ("I have a cleaning on Tuesday, but I need to reschedule") is not on,
// and one kept every week ("pottery on Thursday evenings") is a habit, not a date.
export const NOT_CONFIRMED =
  /\b(?:(?:cancel(?:l?ed)?|called off|every)\b|(?:need|have|want|'d like) to (?:reschedule|postpone|move)(?: (?:it|that|this))?(?=\s*[,.!?]|\s*$)|on (?:mon|tues|wednes|thurs|fri|satur|sun)day(?:s| (?:mornings|afternoons|evenings|nights))\b)/i;
