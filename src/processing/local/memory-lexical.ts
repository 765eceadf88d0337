import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryCategory } from '../../domain/categories.js';
import type { Sentence } from './analysis.js';

/**
 * Lasting facts found by what they name rather than by how they are phrased: a health condition, a
 * pastime, a musical instrument, a language, a field of study, said by the wearer about themselves.
 * "It's migraines, apparently", "Pickleball, every Sunday", "we've got capoeira on Tuesdays" have no
 * shape in common, but each names a thing that, said of oneself, is worth remembering. The nouns
 * come from WordNet (scripts/train-memory-lexicon.ts), with the newer pastimes WordNet predates.
 */

type NounKind = 'condition' | 'pastime' | 'instrument' | 'language' | 'study';

const CATEGORY: Record<NounKind, MemoryCategory> = {
  condition: 'core',
  pastime: 'hobbies',
  instrument: 'hobbies',
  language: 'skills',
  study: 'learnings',
};

// Pastimes and conditions that are newer than WordNet 3.1 or spelled otherwise there.
const ADDED: Record<NounKind, string> = {
  condition:
    'celiac coeliac prediabetes prediabetic adhd ibs endometriosis hypothyroid hyperthyroid anaemic anemic diabetic asthmatic epileptic',
  pastime:
    'pickleball padel bouldering floorball crossfit parkrun pilates yoga capoeira pottery ceramics crochet quilting birdwatching birding cycling climbing running hiking triathlon kayaking woodworking gaming netball rugby cricket choir',
  instrument: 'tabla taiko ukulele',
  language: 'mandarin cantonese korean japanese portuguese hindi arabic swahili polish turkish',
  study: 'history architecture law nursing accounting',
};

// WordNet senses too rare for talk: "same" is a language, "show" a pastime, "bite" a condition.
const COMMON = new Set(
  'same show long heavy lit jumping retake bite scratch stopping swing catch bridge twist base pool cards tag hide rush drive shot limp limping surgery'.split(
    ' ',
  ),
);

let nouns: Map<string, NounKind> | undefined;

function lexicon(): Map<string, NounKind> {
  if (nouns !== undefined) return nouns;
  const file = join(import.meta.dirname, 'lexicons', 'memory-nouns.json');
  const { kinds } = JSON.parse(readFileSync(file, 'utf8')) as { kinds: Record<NounKind, string[]> };
  const loaded = new Map<string, NounKind>();
  for (const [kind, words] of Object.entries(kinds) as Array<[NounKind, string[]]>)
    for (const word of words) if (!loaded.has(word) && !COMMON.has(word)) loaded.set(word, kind);
  for (const [kind, words] of Object.entries(ADDED) as Array<[NounKind, string]>)
    for (const word of words.split(' ')) loaded.set(word, kind);
  nouns = loaded;
  return loaded;
}

export interface NamedThing {
  noun: string;
  kind: NounKind;
  category: MemoryCategory;
}

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
      if (token.pos === 'ADJ' && kind !== 'condition' && kind !== 'language') continue;
      return { noun: candidate, kind, category: CATEGORY[kind] };
    }
  }
  return null;
}
