import type { MemoryCategory } from '../../domain/categories.js';
import { isLastingNoun } from './memory-nouns.js';
import { IDLE, isProfession } from './memory-patterns.js';
import type { Token } from './nlp.js';

/**
 * General shapes of a lasting first-person fact, read from wink's part-of-speech tags rather than
 * from listed phrases: a copula with a noun or classifying adjective ("I'm celiac", "I'm a translator"),
 * a bare-noun possession ("I have tinnitus"), a present-simple habit with an object ("I play drums in a
 * band"), a duration of residence or employment ("I've been here nine years"), and a relative named in
 * passing ("my sister Orla", "my other cat, Gio").
 */

export interface Shape {
  category: MemoryCategory;
  /** a rewrite that replaces the clause, when the shape names a relation ("User's sister is Orla") */
  content?: string;
}

/** Adjectives of a passing state or a judgement: "I'm fine", "I'm sure" say nothing lasting. */
const PASSING = new Set(
  `fine easy good ok okay sure sorry ready happy glad sad busy late early free done right wrong back here there
  afraid aware sick ill nervous scared hungry thirsty cold hot fine great awesome lucky serious kidding
  listening coming going leaving trying looking thinking getting doing working sitting waiting calling
  home away out off in on up down around new old alone close next last first gonna able unable available
  glad grateful thankful curious interested worried tired exhausted confused excited stressed annoyed
  bored surprised shocked impressed pleased disappointed relieved embarrassed terrified lost stuck
  dead proud starving stuffed drunk hungover freezing knackered shattered jealous so such
  panicking freaking stressing dying melting buzzing shaking crying laughing joking rushing`.split(/\s+/),
);
const DETERMINERS = new Set(['a', 'an', 'the', 'my', 'our', 'your', 'his', 'her', 'their', 'this', 'that', 'some']);
/** Verbs whose present simple states no habit: mental states, perception, speech acts. */
const NON_HABIT = new Set(
  `be have do get go come see think know guess mean say tell let make take want need try like love hate feel seem
  look wait keep put give find use hear happen sound remember forget understand believe hope wish suppose agree
  promise bet swear doubt reckon imagine assume mind care bother worry wonder`.split(/\s+/),
);
const WORK_VERBS = new Set(['work', 'teach', 'lead', 'manage', 'run', 'own', 'coach', 'design', 'build', 'sell']);
/** Relatives, pets and close people a wearer names ("my sister", "your wife"). */
export const KIN_WORDS =
  '(?:wife|husband|partner|boyfriend|girlfriend|fiancée?|son|daughter|kid|child|children|boy|girl|lad|lass|baby|mom|mum|mother|dad|father|brother|sister|twin|grandma|grandmother|grandpa|grandfather|granddaughter|grandson|niece|nephew|cousin|aunt|uncle|stepson|stepdaughter|stepmother|stepfather|dog|cat|puppy|kitten|horse|rabbit|parrot|hamster|boss|manager|flatmate|roommate|neighbour|neighbor|best friend|friend|therapist|doctor|colleague)';
export const KIN = new RegExp(`^${KIN_WORDS}s?$`, 'i');

const CONTRACTED: Record<string, [string, string]> = {
  "i'm": ['i', 'am'],
  "i've": ['i', 'have'],
  "i'd": ['i', 'would'],
};

/** Words only, with "I'm" (which wink keeps as one token) split into "I" and "am". */
export function words(tokens: Token[]): Token[] {
  return tokens
    .filter((token) => token.kind === 'word' || token.kind === 'number')
    .flatMap((token) => {
      const split = CONTRACTED[token.normal];
      if (split === undefined) return [token];
      const [subject, verb] = split;
      return [
        { ...token, value: 'I', normal: subject, lemma: subject, pos: 'PRON' },
        { ...token, value: verb, normal: verb, lemma: verb === 'am' ? 'be' : verb, pos: 'AUX' },
      ];
    });
}

/** Position after "I'm"/"I am"/"I was" (and "still", "also", …), or -1. */
function afterCopula(tokens: Token[]): number {
  if (tokens[0]?.normal !== 'i') return -1;
  let index = 1;
  if (!['am', "'m", 'was'].includes(tokens[index]?.normal ?? '')) return -1;
  index++;
  while (
    ['still', 'also', 'actually', 'really', 'now', 'originally', 'basically'].includes(tokens[index]?.normal ?? '')
  )
    index++;
  return index;
}

// Nouns of a role a person holds: agent suffixes ("instructor", "gardener", "analyst", "technician").
const ROLE = /(?:er|or|ist|ian|ant|ent|eer|yst|ive|ary|tech|nurse|chef|vet|medic|student|intern|parent|mum|mom|dad)s?$/;

/** The last noun of the noun run starting at `index`: "data analyst" → "analyst". */
function headNoun(tokens: Token[], index: number): string {
  let end = index;
  while (tokens[end + 1]?.pos === 'NOUN') end++;
  return tokens[end]?.normal ?? '';
}

/** "I'm a translator" is a role; "I'm a machine", "I'm a zombie" are figures of speech. */
function indefinite(first: Token, tokens: Token[], index: number): Shape | null {
  if (!DETERMINERS.has(first.normal)) return { category: 'core' };
  const noun = headNoun(tokens, index);
  return ROLE.test(noun) || isProfession([noun]) ? { category: 'work' } : null;
}

// "as a teenager", "in school", "all through uni": a time of life that makes a past role part of a life.
const TIME_OF_LIFE =
  /^(?:teenager|teen|kid|child|boy|girl|student|school|college|uni|university|youth|junior|twenties|thirties)$/;

/**
 * A past job names a profession outright: "a teacher", not a role-shaped word such as "a beginner". A
 * role of any kind is a past part of a life when a time of life places it ("I was a competitive
 * swimmer as a teenager").
 */
function pastRole(tokens: Token[], index: number): Shape | null {
  const noun = headNoun(tokens, index);
  if (isProfession([noun])) return { category: 'work' };
  const placed = tokens.slice(index + 1).some((token) => TIME_OF_LIFE.test(token.normal));
  return placed && ROLE.test(noun) ? { category: 'hobbies' } : null;
}

function copula(tokens: Token[]): Shape | null {
  let index = afterCopula(tokens);
  if (index === -1) return null;
  // "I'm kind of panicking": the hedge says nothing; the word after it is the predicate.
  if (/^(?:kind|sort)$/.test(tokens[index]?.normal ?? '') && tokens[index + 1]?.normal === 'of') index += 2;
  const first = tokens[index];
  if (first === undefined) return null;
  // "I'm in Headingley now", "I'm from Lviv": where the wearer lives or comes from (a place name, not "in the car").
  if (
    ['in', 'from', 'based'].includes(first.normal) &&
    tokens
      .slice(index + 1, index + 3)
      .some((token) => token.pos === 'PROPN' && token.kind === 'word' && token.normal !== 'i')
  )
    return { category: 'core' };
  if (DETERMINERS.has(first.normal)) index++;
  const head = tokens[index];
  if (head === undefined || PASSING.has(head.normal) || head.normal.endsWith('ing')) return null;
  // "I was a teacher, thirty-one years": a past job is part of a life; a past state ("I was a mess") is not.
  if (tokens[1]?.normal === 'was') return /^an?$/.test(first.normal) ? pastRole(tokens, index) : null;
  // "I'm the best", "I'm the family": a definite predicate identifies or praises, it classifies nothing.
  if (first.normal === 'the' || first.normal === 'this' || first.normal === 'that') return null;
  if (head.pos === 'NOUN' || head.pos === 'PROPN') return indefinite(first, tokens, index);
  // "I'm paranoid about the restaurants", "I'm worried about it": an attitude towards something, not a trait.
  const attitude = ['about', 'with', 'for'].includes(tokens[index + 1]?.normal ?? '');
  if (head.pos === 'ADJ' && !/ed$/.test(head.normal) && !attitude) return { category: 'core' };
  return null;
}

// What one lives without, said as such: "I don't have a driving licence", "I don't have kids".
const LIVES_WITHOUT =
  /^i (?:do n't|don't|do not|never) (?:have|had|own|owned) (?:a |an |any )?(?:driving |driver's |drivers )?(?:licen[cs]e|car|kids|children|siblings|pets|tv|television|smartphone|garden)\b/;

function bareHave(tokens: Token[]): Shape | null {
  if (LIVES_WITHOUT.test(tokens.map((token) => token.normal).join(' '))) return { category: 'core' };
  if (tokens[0]?.normal !== 'i' || !['have', "'ve"].includes(tokens[1]?.normal ?? '')) return null;
  const object = tokens[2];
  // wink reads "sleep" in "I have sleep apnea" as a verb; a noun right after settles it.
  const nounlike = (token: Token | undefined) => token !== undefined && ['NOUN', 'PROPN', 'ADJ'].includes(token.pos);
  if (object === undefined || !(nounlike(object) || (object.pos === 'VERB' && tokens[3]?.pos === 'NOUN'))) return null;
  if (tokens[2]?.normal === 'got' || tokens.some((token) => token.normal === 'to')) return null;
  // "I have tinnitus", "I have sleep apnea" name a condition; "I have photos", "I have medication" the moment's things.
  const nouns = tokens.slice(2).filter((token) => token.pos === 'NOUN' || token.pos === 'ADJ');
  if (!nouns.some((token) => isLastingNoun(token.lemma) || isLastingNoun(token.normal))) return null;
  return { category: 'core' };
}

// A present simple with a date is a schedule ("I start at nine on Tuesday"), not a habit.
const SCHEDULED = /^(?:today|tonight|tomorrow|next|this|again|later|soon)$/;
const WEEKDAY = /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/;

/** "tomorrow", "on Tuesday" date the clause; "on Friday mornings" or "on Sundays" repeat. */
function scheduled(tokens: Token[]): boolean {
  return tokens.some(
    (token, index) =>
      SCHEDULED.test(token.normal) || (WEEKDAY.test(token.normal) && !/s$/.test(tokens[index + 1]?.normal ?? '')),
  );
}

function habit(tokens: Token[]): Shape | null {
  if (tokens[0]?.normal !== 'i' || scheduled(tokens)) return null;
  let index = 1;
  while (
    ['also', 'still', 'usually', 'mostly', 'normally', 'always', 'often', 'only'].includes(tokens[index]?.normal ?? '')
  )
    index++;
  const verb = tokens[index];
  const next = tokens[index + 1];
  // "I go cycling on weekends", "I go climbing": an activity named by its -ing form.
  if (verb?.normal === 'go' && next !== undefined && /ing$/.test(next.normal) && next.normal !== 'going')
    return { category: 'hobbies' };
  if (verb === undefined || verb.pos !== 'VERB' || verb.lemma !== verb.normal || NON_HABIT.has(verb.lemma)) return null;
  if (
    next === undefined ||
    next.pos === 'PART' ||
    next.normal === 'to' ||
    next.normal === 'you' ||
    next.normal === 'it'
  )
    return null;
  return { category: WORK_VERBS.has(verb.lemma) ? 'work' : 'hobbies' };
}

const IDLE_SPAN = new RegExp(`^i (?:'ve|have) been ${IDLE}\\b`);

function tenure(tokens: Token[]): Shape | null {
  const text = tokens.map((token) => token.normal).join(' ');
  return /^i (?:'ve|have) (?:been|lived|worked) .*\b(?:years?|decades?)\b/.test(text) && !IDLE_SPAN.test(text)
    ? { category: 'core' }
    : null;
}

/** Verbs of a life's course: a past "I moved", "I studied" is a lasting fact, unlike "I called". */
const LIFE_VERBS = new Set(
  'come move grow live study graduate work start quit retire marry train serve teach immigrate emigrate leave found join divorce adopt run lead manage'.split(
    ' ',
  ),
);
const RECENT = /^(?:yesterday|today|tonight|morning|week|last)$/;

/** "I came from Lviv in 2016", "I studied in Porto": a past life event placed by a name or a time span. */
function lifeEvent(tokens: Token[]): Shape | null {
  if (tokens[0]?.normal !== 'i') return null;
  const verb = tokens[1];
  if (verb === undefined || verb.pos !== 'VERB' || verb.normal === verb.lemma || !LIFE_VERBS.has(verb.lemma))
    return null;
  // "I ran into Tom", "I ran out of milk": a phrasal verb says what happened, not a life's course.
  if (verb.lemma === 'run' && /^(?:into|out|over|off|late|around|to|across)$/.test(tokens[2]?.normal ?? ''))
    return null;
  // "last week" is news; "last year" can date a change of life ("I left Deloitte last year").
  if (
    tokens.some(
      (token, index) =>
        RECENT.test(token.normal) &&
        !/^(?:year|summer|spring|autumn|fall|winter)$/.test(tokens[index + 1]?.normal ?? ''),
    )
  )
    return null;
  const placed = tokens.some(
    (token) =>
      token.pos === 'PROPN' || /^(?:19|20)\d\d$/.test(token.normal) || /^(?:years?|ago|since)$/.test(token.normal),
  );
  return placed ? { category: 'core' } : null;
}

/** "I can't take ibuprofen", "I can't eat gluten": what the wearer's body does not allow. */
function cannotConsume(tokens: Token[]): Shape | null {
  const text = tokens.map((token) => token.normal).join(' ');
  return /^i (?:ca n't|can't|cannot|can not) (?:eat|drink|take|have|tolerate|digest)\b/.test(text)
    ? { category: 'core' }
    : null;
}

/** The first shape a first-person clause takes, or null. */
export function shapeOf(tokens: Token[]): Shape | null {
  const list = words(tokens);
  return copula(list) ?? bareHave(list) ?? tenure(list) ?? lifeEvent(list) ?? cannotConsume(list) ?? habit(list);
}
