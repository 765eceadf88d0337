import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConversationCategory } from '../../domain/categories.js';

/** Part of speech of a lexicon entry: WordNet's noun, verb and adjective files. */
export type LexiconPos = 'n' | 'v' | 'a';

export interface TopicWeight {
  category: ConversationCategory;
  /** the share of the word's sense mass that belongs to the category, 0.1 to 1 */
  weight: number;
}

type SerialisedLexicon = { categories: ConversationCategory[] } & Record<LexiconPos, Record<string, string>>;

const LEXICON_FILE = join(import.meta.dirname, 'lexicons', 'topic-lexicon.json');
const NONE: ReadonlyArray<TopicWeight> = [];
let lexicon: SerialisedLexicon | undefined;
// Decoded entries: a conversation repeats its words, and so do conversations.
const decoded = new Map<string, ReadonlyArray<TopicWeight>>();
const MAX_DECODED = 20_000;

/** The committed lexicon (derived from WordNet by scripts/train-topic-lexicon.ts), parsed once. */
function data(): SerialisedLexicon {
  lexicon ??= JSON.parse(readFileSync(LEXICON_FILE, 'utf8')) as SerialisedLexicon;
  return lexicon;
}

function decode(entry: string, categories: ConversationCategory[]): TopicWeight[] {
  return entry.split(' ').map((pair) => {
    const [index, tenths] = pair.split(':');
    return { category: categories[Number(index)], weight: Number(tenths) / 10 };
  });
}

/** The categories a word (or two-word compound) leans to; empty when WordNet gives none. */
export function topicWeights(word: string, pos: LexiconPos): ReadonlyArray<TopicWeight> {
  const key = `${pos}|${word}`;
  const known = decoded.get(key);
  if (known !== undefined) return known;
  const lexiconData = data();
  const entry = Object.hasOwn(lexiconData[pos], word) ? lexiconData[pos][word] : undefined;
  const weights = entry === undefined ? NONE : decode(entry, lexiconData.categories);
  if (decoded.size >= MAX_DECODED) decoded.clear();
  decoded.set(key, weights);
  return weights;
}

/** Parses the lexicon ahead of the first conversation (the engine constructor calls it). */
export function preloadTopicLexicon(): void {
  data();
}
