import { isConditionNoun } from './memory-nouns.js';
import { RELATIVE_SUBJECT } from './memory-patterns.js';
import { KIN, type Shape, words } from './memory-shapes.js';
import type { Token } from './nlp.js';
import { escapeRegExp } from './text.js';

/**
 * The wearer's people named with their relation: "my sister Orla", "my other cat, Gio", "my boys,
 * Marcus and Jaylen", "Pablo, my brother", "your wife Kemi" said by someone else.
 */

const PET_WORDS = /^(?:cat|dog|puppy|kitten|rabbit|hamster|parrot|tortoise)$/;
export const WEARER_OWNERS: ReadonlySet<string> = new Set(['my', 'our']);
export const LISTENER_OWNERS: ReadonlySet<string> = new Set(['your']);
const KIN_ADJECTIVES = new Set(['other', 'little', 'big', 'older', 'younger', 'eldest', 'youngest', 'new', 'best']);

// Capitalised words wink tags as names that name no one: days, months, a capitalised "Little".
export const CALENDAR =
  'monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december';
const NOT_A_NAME = new RegExp(
  // "my little sister, God help us": an oath is no name.
  `^(?:${CALENDAR}|mr|mrs|ms|dr|little|big|baby|okay|hi|hey|christmas|easter|eid|diwali|ramadan|thanksgiving|hanukkah|halloween|sensei|god|jesus|christ|lord|gosh|heavens)$`,
);

/** A capitalised proper noun that can be a person's or a pet's name. */
export function isName(token: Token | undefined): token is Token {
  return (
    token !== undefined &&
    token.pos === 'PROPN' &&
    // "HbA1c", "Q3": a capital and a digit make a code, not a name.
    /^\p{Lu}\p{Ll}\p{L}*$/u.test(token.value.replace(/['’-]\p{L}+/gu, '')) &&
    !NOT_A_NAME.test(token.normal) &&
    // "Migraines, my doctor says.": a condition at the head of a sentence, tagged as a name.
    !isConditionNoun(token.normal)
  );
}

/** "Ben Salah" at `at`: a name and the surname words that follow it. */
function fullName(list: Token[], at: number): { name: string; end: number } {
  let end = at;
  while (end - at < 2 && isName(list[end + 1])) end++;
  return {
    name: list
      .slice(at, end + 1)
      .map((token) => token.value)
      .join(' '),
    end,
  };
}

/** "Marcus", "Marcus and Jaylen", "Dr. Ben Salah": the names that start at `at`. */
function namesFrom(list: Token[], at: number): string[] {
  const names: string[] = [];
  let index = list[at]?.normal === 'dr' ? at + 1 : at;
  while (isName(list[index])) {
    const { name, end } = fullName(list, index);
    names.push(name);
    if (list[end + 1]?.normal !== 'and' || !isName(list[end + 2])) break;
    index = end + 2;
  }
  return names;
}

const ELDEST = /^(?:eldest|youngest|oldest)$/;
// An apposition is set off by a comma or a dash: "Lalla Fatna — my grandmother — is coming".
const APPOSITION = /^(?:,|—|–|-)$/;

function namedContent(noun: string, names: string[]): Shape {
  const plural = names.length > 1;
  // A manager or colleague belongs to the wearer's work; family, friends and pets to the wearer's life.
  const category = /\b(?:boss|manager|colleague)s?$/.test(noun) ? 'work' : 'core';
  return { category, content: `User's ${noun} ${plural ? 'are' : 'is'} named ${names.join(' and ')}` };
}

/**
 * "my sister Orla", "my other cat, Gio", "my boys, Marcus and Jaylen", "Pablo, my brother": the relation
 * and its name. `owners` are the possessives that point at the wearer: "my" in the wearer's own words,
 * "your" in what someone says to them ("your brother Moussa").
 */
export function namedRelative(tokens: Token[], owners: ReadonlySet<string> = WEARER_OWNERS): Shape | null {
  const list = words(tokens);
  // "Order more food for Pickle, the cat's nearly out": in the wearer's words, an animal named and set
  // off by "the" is theirs.
  const petOfWearer = (at: number) => {
    if (owners !== WEARER_OWNERS || list[at].normal !== 'the' || !PET_WORDS.test(list[at + 1]?.normal ?? ''))
      return false;
    // "Rex, the dog next door": an animal placed elsewhere is someone else's.
    const after = tokens[tokens.indexOf(list[at + 1]) + 1];
    return (
      after === undefined ||
      after.kind !== 'word' ||
      after.pos === 'AUX' ||
      after.pos === 'VERB' ||
      after.normal === "'s"
    );
  };
  if (!list.some((token, at) => owners.has(token.normal) || petOfWearer(at))) return null;
  for (let index = 0; index < list.length - 1; index++) {
    const byArticle = petOfWearer(index);
    if (!owners.has(list[index].normal) && !byArticle) continue;
    let at = KIN_ADJECTIVES.has(list[index + 1]?.normal ?? '') ? index + 2 : index + 1;
    // "Lucía, my business partner": a noun before the relation says which kind.
    if (list[at]?.pos === 'NOUN' && !KIN.test(list[at].normal) && KIN.test(list[at + 1]?.normal ?? '')) at++;
    // "My eldest, Tunde, …": an eldest or youngest named without a noun is a child.
    const birthOrder = at === index + 2 && ELDEST.test(list[index + 1].normal) && isName(list[at]);
    const relation = birthOrder ? list[index + 1] : list[at];
    if (relation === undefined || (!birthOrder && !KIN.test(relation.normal))) continue;
    if (birthOrder) at = index + 1;
    // "my sister-in-law Manpreet": the relation by marriage is one word.
    const inLaw = list[at + 1]?.normal === 'in' && list[at + 2]?.normal === 'law';
    const noun = `${list
      .slice(index + 1, at + 1)
      .map((token) => token.normal)
      .join(' ')}${birthOrder ? ' child' : inLaw ? '-in-law' : ''}`;
    if (inLaw) at += 2;
    const names = byArticle ? [] : namesFrom(list, at + 1);
    if (names.length > 0) return namedContent(noun, names);
    // "Pablo, my brother": the name in apposition before the relation.
    const before = tokens.indexOf(list[index]);
    if (!APPOSITION.test(tokens[before - 1]?.value ?? '') || !isName(tokens[before - 2])) continue;
    let start = before - 2;
    while (start > before - 4 && isName(tokens[start - 1])) start--;
    // "a company in Narvarte, my cousin used them": a name after a place preposition is a place.
    if (/^(?:in|at|from|near|to|on|into|around)$/.test(tokens[start - 1]?.normal ?? '')) continue;
    // "Bilal, your mom said …": a name opening someone's sentence addresses the listener, unless the
    // relation is set off as an apposition ("Pablo, your brother, is coming").
    const opening = tokens
      .slice(0, start)
      .every((token) => token.kind !== 'word' || /^(?:and|so|oh)$/.test(token.normal));
    const closed = APPOSITION.test(tokens[tokens.indexOf(relation) + 1]?.value ?? '');
    if (owners === LISTENER_OWNERS && opening && !closed) continue;
    return namedContent(noun, [fullName(tokens, start).name]);
  }
  return null;
}

/** "My brother can't come, he just started a new job" → the second clause is a fact about the brother. */
export function relativeFact(clauses: string[]): string | null {
  const subject = RELATIVE_SUBJECT.exec(clauses[0] ?? '');
  if (subject === null) return null;
  const follow = clauses
    .slice(1)
    .find((clause) =>
      /^(?:he|she|they) (?:just |recently )?(?:started|lives|works|moved|studies|is|has|got)\b/i.test(clause),
    );
  if (follow === undefined) return null;
  // "My daughter Camila, she has an extension card": the name said beside the relation stays.
  const name = new RegExp(`^${escapeRegExp(subject[0])},? (\\p{Lu}\\p{Ll}+)$`, 'u').exec(clauses[0]);
  const who = name === null ? subject[0] : `${subject[0]} ${name[1]}`;
  return `${who} ${follow.replace(/^(?:he|she|they)\s+/i, '')}`;
}
