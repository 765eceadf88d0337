import type { MemoryCategory } from '../../domain/categories.js';
import type { Sentence } from './analysis.js';
import { asWearer, NOT_A_FACT, rewrite } from './memory-clauses.js';
import { lexicon, type NounKind } from './memory-nouns.js';

/**
 * Lasting facts found by what they name rather than by how they are phrased: a health condition, a
 * pastime, a musical instrument, a language, a field of study, said by the wearer about themselves.
 * "It's migraines, apparently", "Pickleball, every Sunday", "we've got capoeira on Tuesdays" have no
 * shape in common, but each names a thing that, said of oneself, is worth remembering (the nouns:
 * memory-nouns.ts).
 */

const CATEGORY: Record<NounKind, MemoryCategory> = {
  condition: 'core',
  pastime: 'hobbies',
  instrument: 'hobbies',
  language: 'skills',
  study: 'learnings',
};

export interface NamedThing {
  noun: string;
  kind: NounKind;
  category: MemoryCategory;
}

// WordNet files these under conditions, but they name none in particular: "User has complaint" and
// "User has suffering" say nothing worth keeping.
const GENERIC_CONDITIONS = new Set([
  'complaint',
  'suffering',
  'condition',
  'illness',
  'sickness',
  'disease',
  'disorder',
  'ailment',
  'malady',
  'affliction',
  'trouble',
  'problem',
  'symptom',
  'pain',
  'discomfort',
  'injury',
  'stress',
]);

/** The first lasting-fact noun a sentence names (a two-word name before its parts). */
export function namedThing(sentence: Sentence): NamedThing | null {
  const words = sentence.tokens.filter((token) => token.kind === 'word');
  const known = lexicon();
  for (let index = 0; index < words.length; index++) {
    const token = words[index];
    if (token.pos !== 'NOUN' && token.pos !== 'PROPN' && token.pos !== 'ADJ' && token.pos !== 'VERB') continue;
    if (token.normal.length < 4) continue;
    const pair = `${token.normal} ${words[index + 1]?.normal ?? ''}`;
    const singular = token.normal.replace(/(?<=[^s])s$/, '');
    for (const candidate of [pair, token.normal, token.lemma.toLowerCase(), singular]) {
      const kind = known.get(candidate);
      // A verb counts only as the activity's name ("climbing", "running"), never as "play" or "run".
      if (kind === undefined || (token.pos === 'VERB' && !/ing$/.test(token.normal))) continue;
      if (kind === 'condition' && GENERIC_CONDITIONS.has(candidate.replace(/s$/, ''))) continue;
      if (token.pos === 'ADJ' && kind !== 'condition' && kind !== 'language') continue;
      return { noun: candidate, kind, category: CATEGORY[kind] };
    }
  }
  return null;
}

// "I need beef bones", "we should go swimming": an errand or advice, not a lasting fact.
const OBLIGATION = /\b(?:need|needs|should|shouldn't|have to|has to|got to|gotta|must)\b/i;
const FIRST_PERSON_SUBJECT = /^(?:I|I'm|I've|I'd|we|we're|we've|my|our)\b/i;
const KIND_LABEL = {
  condition: 'health condition',
  pastime: 'pastime',
  instrument: 'instrument',
  language: 'language',
  study: 'field of study',
} as const;

/**
 * A clause of the wearer's that names a lasting-fact noun (memory-nouns.ts): rewritten whole when
 * the wearer is its subject ("I've been doing capoeira for a year"), else a condition said with a
 * first person about ("It's migraines, apparently, my doctor says") or a short reply that names one.
 */
export function lexicalFact(
  sentence: Sentence,
  clauses: string[],
  repliesToQuestion: boolean,
): { content: string; category: MemoryCategory; source: string } | null {
  const thing = namedThing(sentence);
  if (thing === null) return null;
  const clause = clauses.find((item) => item.toLowerCase().includes(thing.noun.split(' ')[0]));
  if (clause === undefined || NOT_A_FACT.test(clause) || OBLIGATION.test(clause)) return null;
  if (FIRST_PERSON_SUBJECT.test(clause)) {
    const content = rewrite(asWearer(clause));
    return content.toLowerCase().includes(thing.noun.split(' ')[0])
      ? { content, category: thing.category, source: clause }
      : null;
  }
  const words = sentence.text.split(/\s+/).length;
  const aboutSelf = /\b(?:I|I'm|I've|my|me)\b/.test(sentence.text);
  // "It's migraines, apparently.", "Celiac doesn't go away.": a short line of the wearer's names their own.
  // "Since the doctor found the anemia in January": a finding the wearer reports of themselves.
  const found = /\b(?:doctor|gp|diagnos\w*|found|tests? showed)\b/i.test(sentence.text);
  // "Melanoma, when she was forty-eight.", "the rabies booster for Tofu": someone else's condition.
  const someoneElse =
    /\b(?:she|he|her|his|him|they|their|them)\b/i.test(sentence.text) ||
    /\b(?:booster|vaccines?|jab)\b/i.test(sentence.text);
  if (thing.kind === 'condition' && !someoneElse && (aboutSelf || words <= 6 || found)) {
    const content = `User has ${thing.noun}`;
    return { content, category: thing.category, source: content };
  }
  if (words <= 6 && repliesToQuestion) {
    const content = `User's ${KIND_LABEL[thing.kind]}: ${thing.noun}`;
    return { content, category: thing.category, source: content };
  }
  return null;
}
