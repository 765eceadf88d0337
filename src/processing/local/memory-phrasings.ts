import type { MemoryCategory } from '../../domain/categories.js';
import { MAX_WORDS } from './memory-clauses.js';
import { isProfession } from './memory-patterns.js';
import { CALENDAR } from './memory-relatives.js';
import { KIN_WORDS, type Shape } from './memory-shapes.js';
import { parseTokens, type Token } from './nlp.js';
import { namesPerson } from './noun-kinds.js';
import { FUNCTION_WORDS } from './vocabulary.js';

/**
 * Facts said in a shape of their own that a plain third-person rewrite would garble: a favourite, a
 * home, an employer in an introduction, what the household owns, a name put to a relative, a span of
 * years without a verb. Each is rewritten around the user.
 */

/** "Horror movies are my favorite genre" → "User's favorite genre is horror movies". */
export function favoriteFact(clause: string): string | null {
  const trailing = /^(.+?) (?:is|are) my (?:all-time )?favou?rite (\w+)/i.exec(clause);
  const leading = /^my (?:all-time )?favou?rite (\w+) (?:is|are) (.+)/i.exec(clause);
  const [kind, thing] =
    trailing !== null ? [trailing[2], trailing[1]] : leading !== null ? [leading[1], leading[2]] : ['', ''];
  if (kind === '') return null;
  const named = parseTokens(thing)[0]?.pos === 'PROPN';
  const object = named ? thing : thing.charAt(0).toLowerCase() + thing.slice(1);
  return `User's favorite ${kind} ${kind.endsWith('s') ? 'are' : 'is'} ${object}`;
}

/** "Peckham is home now" → "User's home is Peckham". */
export function homeFact(clause: string): string | null {
  const match = /^((?:\p{Lu}[\p{L}'-]*\s?){1,3}) (?:is|feels like) home\b/u.exec(clause);
  return match === null ? null : `User's home is ${match[1].trim()}`;
}

/** "Hi Omar, it's Fatima from Zarqa CRM": the wearer introducing themselves by the firm they speak for. */
export function employerFact(clause: string): string | null {
  const match = /\b(?:it's|this is|I'm) \p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)? from ((?:\p{Lu}[\p{L}&'-]*\s?){1,4})/u.exec(
    clause,
  );
  return match === null ? null : `User works at ${match[1].trim()}`;
}

/** One of the wearer's people, with an order or fondness word: "my little sister", "my best friend". */
const KIN_PHRASE = `(?:little |big |older |younger |best )?${KIN_WORDS}`;
/** Words that point rather than name: "This is my sister" names nobody. */
export const POINTING = '(?!(?:This|That|Here|There|It|He|She)\\b)';
// "Jenny's my cousin": a name put to one of the wearer's people.
export const NAMED_KIN = new RegExp(`^${POINTING}(\\p{Lu}\\p{Ll}+)(?:'s| is) my (${KIN_PHRASE})\\b`, 'u');
// "My sister is Noor", "Mama is Eirini, her name day was in May": one of the wearer's people, then the name.
export const KIN_NAMED = new RegExp(
  `^(?:my )?((?:little |big |older |younger |best )?(?:${KIN_WORDS}|mama|mamá|papa|papá|mommy|daddy|nana|nani|abuela|abuelo|oma|opa))(?:'s| is) (?:called |named )?(\\p{Lu}\\p{Ll}+)(?=$|[,.;!?]| (?:and|but|so|by|from|who)\\b)`,
  'iu',
);
// "This is my sister Jess", "Here's my husband, Tom": the wearer introducing one of their people.
export const INTRODUCED_KIN = new RegExp(
  `^(?:this|that|here)(?:'s| is) my (${KIN_PHRASE}),? (\\p{Lu}\\p{Ll}+)\\b`,
  'iu',
);
const KIN_IN_ENGLISH: Record<string, string> = {
  mama: 'mother',
  mamá: 'mother',
  mommy: 'mother',
  papa: 'father',
  papá: 'father',
  daddy: 'father',
  nana: 'grandmother',
  nani: 'grandmother',
  abuela: 'grandmother',
  oma: 'grandmother',
  abuelo: 'grandfather',
  opa: 'grandfather',
};

/** The relation as a memory names it: "Mama" → "mother", "little sister" stays. */
export function kinWord(kin: string): string {
  const lower = kin.toLowerCase();
  return KIN_IN_ENGLISH[lower] ?? lower;
}

// "We have two surfboards", "We only bought the house in January": what the wearer's household owns.
const OWNED =
  /^we(?:'ve| have)? (?:only |just |finally |also )?(have|own|got|bought|adopted|rescued) ((?:a|an|two|three|four|\d+|the|our) (?:[\w-]+ ){0,2}(?:house|flat|apartment|home|cottage|cabin|caravan|car|van|truck|bike|motorbike|scooter|boat|kayak|surfboard|dog|cat|puppy|kitten|horse|rabbit|chickens|garden|allotment|piano)s?\b.*)$/i;

export function householdFact(clause: string): string | null {
  const owned = OWNED.exec(clause);
  if (owned === null) return null;
  const verb = owned[1].toLowerCase() === 'have' ? 'has' : owned[1].toLowerCase();
  return `User's household ${verb} ${owned[2].replace(/\bour\b/gi, 'their')}`;
}

// "Five years vegetarian": a way of living that a span can qualify without a verb.
const LASTING_STATE = '(?:vegetarian|vegan|pescatarian|sober|teetotal|clean|smoke-free|gluten-free)(?=$)';
const LASTING_STATE_WORD = new RegExp(`^${LASTING_STATE}`, 'i');
const COUNT = '(?:\\d+|a few|a couple of|(?:almost|nearly|over|about) \\w+|\\w+(?:-\\w+)?)';
// "Four years at an insurance company", "after five years at MercadoLibre", "my eight years in UX".
const SPAN = new RegExp(
  `^(?:(?:after|given|with|so|yeah|yep|yes|still)[,]?\\s+)*(?:my\\s+)?(${COUNT} (?:years?|decades?)) (at|in|on|as|of|with|\\p{L}+ing|an?(?= )|${LASTING_STATE}) ?((?:an?|the|my|this)?\\s*[^,.;!?]{2,40}?|)(?:\\s+(?:now|there|here))?$`,
  'iu',
);

// "Three years this September" dates the span; "sixteen years in this choir" places it.
const SPAN_END = new RegExp(
  `\\s+(?:and|but|so|(?:this|last|next) (?:year|month|week|summer|spring|autumn|fall|winter|${CALENDAR})|on (?:${CALENDAR}))\\b.*$`,
  'i',
);
// "Three years in September" dates the span; it does not say where it was spent.
const TIME_NAME = new RegExp(`^(?:${CALENDAR}|total|a row)\\b`, 'i');

/** A stretch of the wearer's life named without a verb: "Six years on nights." → "User has spent six years on nights". */
export function lifeSpan(clause: string): Shape | null {
  if (!/\b(?:years?|decades?)\b/i.test(clause)) return null;
  // "Still there, two years as sous-chef now": the span can follow a first phrase.
  for (const part of clause.split(/[,;]\s*/).slice(0, 3)) {
    const shape = spanOf(part);
    if (shape !== null) return shape;
  }
  return null;
}

function spanOf(part: string): Shape | null {
  const head = part.replace(/[.!?].*$/, '').replace(SPAN_END, '');
  const match = SPAN.exec(head.trim());
  if (
    match === null ||
    /^(?:the|last|next|few|first|second|third|fourth|fifth|final)\b/i.test(match[1]) ||
    TIME_NAME.test(match[3])
  )
    return null;
  const [, span, preposition, what] = match;
  if (LASTING_STATE_WORD.test(preposition))
    return { category: 'lifestyle', content: `User has been ${preposition.toLowerCase()} for ${span.toLowerCase()}` };
  if (what === '') return null;
  // "Twelve years of QA", "eleven years of netball": a span of a pursuit; "two years of this" names none.
  if (preposition.toLowerCase() === 'of') {
    if (/^(?:this|that|it|them|age|my life|life|hell)$/i.test(what)) return null;
    return { category: 'core', content: `User has ${span.toLowerCase()} of ${what}` };
  }
  // "Eleven years a firefighter", "five years a deacon": a span spent as what one is.
  if (/^an?$/i.test(preposition)) {
    const words = what.split(' ');
    if (!isProfession(words) && !namesPerson(words.at(-1) ?? '')) return null;
    return {
      category: 'work',
      content: `User has been ${preposition.toLowerCase()} ${what} for ${span.toLowerCase()}`,
    };
  }
  const owned = what.replace(/\bmy\b/gi, 'their').replace(/\bthis\b/gi, 'the');
  const content = `User has spent ${span.toLowerCase()} ${preposition.toLowerCase()} ${owned}`;
  const working =
    ['at', 'as'].includes(preposition.toLowerCase()) || /(?:teaching|working|coaching|nursing)$/i.test(preposition);
  return { category: working ? 'work' : 'core', content };
}

// "Senior software engineer at bKash.", "Head brewer now, four years.": a job named without a verb.
const ROLE = new RegExp(
  `^(?:(?:still|now|yeah|yes|yep)[,.]?\\s+)*((?:[\\p{L}-]+ ){0,3}?[\\p{L}-]+?)(?: (at|for|with|in) ((?:the )?(?:\\p{Lu}[\\p{L}&'-]*\\s?){1,4}))?(?:,? now)?(?:,? (${COUNT} (?:years?|months)))?(?:,? now)?$`,
  'iu',
);

/** A match of ROLE whose last word is a profession ("ICU nurse", not "permanent since 2022"). */
function isRole(match: RegExpExecArray | null): match is RegExpExecArray {
  const words = match?.[1].split(' ') ?? [];
  return words.length > 0 && isProfession([words.at(-1) ?? '']);
}

/**
 * A job the wearer names without a verb, in answer or aside: "User is a senior software engineer at
 * bKash". A bare role ("Dentist.", "Doctor…") is the wearer's job only in answer to a question about
 * them; said in passing it names an errand or addresses someone.
 */
export function roleFact(text: string, tokens: Token[], repliesToQuestion = false): string | null {
  const words = tokens.filter((token) => token.kind === 'word');
  // A verb, a pronoun or a possessive makes it a sentence of another shape ("Doctor's orders").
  // "there" and "here" point at a place, not a person.
  const shaped = words.some(
    (token) => ['VERB', 'AUX'].includes(token.pos) || (token.pos === 'PRON' && !/^(?:there|here)$/i.test(token.normal)),
  );
  if (words.length === 0 || words.length > 9 || shaped) return null;
  if (/'s\b/.test(text)) return null;
  const said = text.trim().replace(/[.!]+$/, '');
  // "Yes, ICU nurse, permanent since 2022", "Seven years there, operations manager": the role is one
  // stretch of an answer, said beside when or how long.
  const stretches = repliesToQuestion ? said.split(/,\s*/) : [];
  const match = ROLE.exec(said) ?? stretches.map((stretch) => ROLE.exec(stretch)).find(isRole) ?? null;
  if (match === null) return null;
  const [, role, preposition, place, span] = match;
  if (place === undefined && span === undefined && !repliesToQuestion) return null;
  const roleWords = role.split(' ');
  const head = roleWords.at(-1) ?? '';
  if (!isProfession([head]) || roleWords.some((word) => /^(?:the|my|your|his|her|our|their|a|an)$/i.test(word)))
    return null;
  // "Mountain Sports Physio" is a business's name, not a job.
  if (roleWords.length > 1 && roleWords.slice(1).every((word) => /^\p{Lu}/u.test(word))) return null;
  // "ICU nurse": an acronym keeps its capitals.
  const job = /^\p{Lu}{2}/u.test(role) ? role : role.charAt(0).toLowerCase() + role.slice(1);
  const aJob = `${/^[aeiou]/i.test(job) ? 'an' : 'a'} ${job}`;
  const where = place === undefined ? '' : ` ${preposition.toLowerCase()} ${place.trim()}`;
  return span === undefined ? `User is ${aJob}${where}` : `User has been ${aJob}${where} for ${span.toLowerCase()}`;
}

// "Nico and I broke up", "My wife and I are expecting our first baby": the wearer and someone, together.
const PAIR = new RegExp(
  `^((?:my|our) (?:(?:little|big|older|younger|best) )?${KIN_WORDS}|\\p{Lu}\\p{Ll}+) and I ((?:are|were|have|had|got|broke|split|met|moved|bought|live|lived|share|both|just|finally|recently|run|ran|own|started)\\b.+)$`,
  'iu',
);

export function pairFact(clause: string): string | null {
  const match = PAIR.exec(clause);
  if (match === null) return null;
  const who = match[1].replace(/^(?:my|our)\b/i, 'their');
  const rest = match[2].replace(/\b(?:our|my)\b/gi, 'their').replace(/\bme\b/gi, 'them');
  return `User and ${who} ${rest}`;
}

// "Lagos, originally.", "Still at Achimota, still teaching maths": where the wearer is from or still is.
const ORIGIN = /^(\p{Lu}[\p{L}'-]+(?: \p{Lu}[\p{L}'-]+)?),? originally[.!]?$/u;
const STILL_AT = /^still (at|in|with) ((?:the )?\p{Lu}[\p{L}'-]+(?: \p{Lu}[\p{L}'-]+)?)(?:,\s*(.+))?$/iu;

// "I'm here in Seville like an hour and a half away", "I'm stuck in Bangalore": where the wearer lives, said
// in passing; "coming home to Kano": where home is.
const CALENDAR_CAPITALISED = CALENDAR.replace(/\b\w/g, (letter) => letter.toUpperCase());
const HERE_IN = new RegExp(
  `\\b(?:(?:I'm|we're|I am|we are) (?:here|stuck|based) in|[Hh]ere in|home to) (?!(?:${CALENDAR_CAPITALISED})\\b)(\\p{Lu}[\\p{L}'-]+(?: \\p{Lu}[\\p{L}'-]+)?)`,
  'u',
);

export function placeReply(text: string): string | null {
  const here = HERE_IN.exec(text);
  if (here !== null)
    return /home to $/.test(text.slice(0, here.index + here[0].length - here[1].length))
      ? `User's home is ${here[1]}`
      : `User lives in ${here[1]}`;
  const trimmed = text.trim().replace(/[.!]+$/, '');
  const origin = ORIGIN.exec(trimmed);
  if (origin !== null) return `User is originally from ${origin[1]}`;
  const still = STILL_AT.exec(trimmed);
  if (still === null) return null;
  const rest = still[3]?.replace(/^still\s+/i, '');
  const content = `User is still ${still[1].toLowerCase()} ${still[2]}${rest === undefined ? '' : `, ${rest}`}`;
  return content.split(' ').slice(0, MAX_WORDS).join(' ');
}

// Person nouns that judge rather than describe: "I'm such an idiot" is no fact about the wearer.
const VERDICT_NOUNS = new Set(['idiot', 'fool', 'sucker', 'baby', 'genius', 'jerk', 'moron', 'loser', 'wimp']);

/** "I'm a nurse" is the wearer's work; "I'm a flight attendant", "I'm the godfather": who the wearer is. */
const INTENSIFIER = /^(?:really|very|pretty|super|quite|massive|huge|total|complete|proper|terribly)$/i;

export function identityFact(clause: string): MemoryCategory | null {
  const match = /^I(?:'m| am) (?:an?|the) ((?:[\w-]+ ){0,2}[\w-]+)/i.exec(clause);
  if (match === null) return null;
  const words = match[1].split(' ');
  if (isProfession(words)) return 'work';
  // WordNet files the noun under people (a job, a role, a way of life), and no earlier word ends the phrase.
  const head = words.findIndex((word) => namesPerson(word));
  if (head === -1 || VERDICT_NOUNS.has(words[head].toLowerCase())) return null;
  // "a really light sleeper": an intensifier before the noun's adjective ends nothing.
  const before = words.slice(0, head).filter((word) => !INTENSIFIER.test(word));
  return before.some((word) => FUNCTION_WORDS.has(word.toLowerCase())) ? null : 'core';
}

// "We have two dogs, Bruno and Mia": the names said right after the children or animals counted.
const COUNTED =
  /\bhas (?:got )?(?:a|an|another|one|two|three|four|five|six|\d+) (?:\w+ )?(?:kids?|children|sons?|daughters?|boys?|girls?|dogs?|cats?)$/;
const NAMES_AFTER =
  /\b(?:kids?|children|sons?|daughters?|boys?|girls?|dogs?|cats?),\s+(\p{Lu}\p{Ll}+(?:,\s+\p{Lu}\p{Ll}+)*(?:,?\s+and\s+\p{Lu}\p{Ll}+)?)/u;

// "two kids, Andrei is nine and Bea is five": each name's age is left out of the list of names.
const AGE_AFTER_NAME =
  /(?<=\p{Lu}\p{Ll}+)(?:'s| is) (?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|\d{1,2})(?: years? old| months?(?: old)?)?\b/gu;

export function withNamesCounted<T extends { content: string }>(fact: T, text: string): T {
  const names = COUNTED.test(fact.content) ? NAMES_AFTER.exec(text.replace(AGE_AFTER_NAME, '')) : null;
  return names === null ? fact : { ...fact, content: `${fact.content}, ${names[1]}` };
}
