import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The nouns that name a lasting fact when said of oneself: a health condition, a pastime, a musical
 * instrument, a language, a field of study. They come from WordNet (scripts/train-memory-lexicon.ts),
 * with the newer pastimes WordNet predates listed there too.
 */

export type NounKind = 'condition' | 'pastime' | 'instrument' | 'language' | 'study';

let nouns: Map<string, NounKind> | undefined;

export function lexicon(): Map<string, NounKind> {
  if (nouns !== undefined) return nouns;
  const file = join(import.meta.dirname, 'lexicons', 'memory-nouns.json');
  const { kinds } = JSON.parse(readFileSync(file, 'utf8')) as { kinds: Record<NounKind, string[]> };
  const loaded = new Map<string, NounKind>();
  // A word WordNet files under two kinds keeps the first (a condition before a pastime).
  for (const [kind, words] of Object.entries(kinds) as Array<[NounKind, string[]]>)
    for (const word of words) if (!loaded.has(word)) loaded.set(word, kind);
  nouns = loaded;
  return loaded;
}

/** Whether WordNet files the noun (lemma) under a lasting kind: a condition, pastime, instrument, language or study. */
export function isLastingNoun(noun: string): boolean {
  const word = noun.toLowerCase();
  return lexicon().has(word) || CONDITION_FORM.test(word);
}

/** Conditions newer than WordNet still have a clinical form: "aphantasia", "long-covid myalgia". */
const CONDITION_FORM = /^[a-z-]{4,}(?:itis|osis|emia|aemia|pathy|algia|plegia|phobia|lexia|somnia)$|^[a-z]{6,}ia$/;

/**
 * Whether WordNet files the word (lemma) under health conditions: "Migraines, my doctor says" names no
 * doctor. The lexicon only, not CONDITION_FORM, whose "-ia" would take Victoria or Patricia for one.
 */
export function isConditionNoun(word: string): boolean {
  const lower = word.toLowerCase();
  return lexicon().get(lower) === 'condition' || lexicon().get(lower.replace(/(?<=[^s])s$/, '')) === 'condition';
}
