import type { ConversationCategory } from '../../domain/categories.js';
import type { Analysis } from './analysis.js';
import { CATEGORY_LEXICON } from './lexicon.js';
import { escapeRegExp } from './text.js';

interface CompiledLexicon {
  category: ConversationCategory;
  strong: ReadonlySet<string>;
  weak: ReadonlySet<string>;
  phrases: ReadonlyArray<string>;
}

const STRONG_WEIGHT = 3;
const WEAK_WEIGHT = 1;
const PHRASE_WEIGHT = 3;
/** Repeating a word keeps adding evidence, but only up to three times, so one word cannot swamp a topic. */
const MAX_COUNTED = 3;

const COMPILED: CompiledLexicon[] = Object.entries(CATEGORY_LEXICON).map(([category, lexicon]) => ({
  category: category as ConversationCategory,
  strong: new Set(lexicon.strong.split(/\s+/)),
  weak: new Set(lexicon.weak.split(/\s+/)),
  phrases: lexicon.phrases ?? [],
}));

interface WordStats {
  counts: Map<string, number>;
  firstSeen: Map<string, number>;
  phrases: Map<string, number>;
}

function wordStats(analysis: Analysis): WordStats {
  const counts = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  let position = 0;
  for (const sentence of analysis.sentences) {
    for (const token of sentence.tokens) {
      position++;
      if (token.kind !== 'word' && token.kind !== 'number') continue;
      const forms = new Set([token.lemma.toLowerCase(), token.normal]);
      for (const form of forms) {
        counts.set(form, (counts.get(form) ?? 0) + 1);
        if (!firstSeen.has(form)) firstSeen.set(form, position);
      }
    }
  }
  const text = analysis.sentences.map((sentence) => sentence.text.toLowerCase()).join(' ');
  return { counts, firstSeen, phrases: phraseCounts(text) };
}

const ALL_PHRASES = [...new Set(COMPILED.flatMap((lexicon) => lexicon.phrases))].sort((a, b) => b.length - a.length);
const PHRASE_PATTERN = new RegExp(ALL_PHRASES.map(escapeRegExp).join('|'), 'g');

/** Every lexicon phrase in the text, counted in one scan rather than one search per phrase. */
function phraseCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(PHRASE_PATTERN)) counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  return counts;
}

interface Score {
  category: ConversationCategory;
  score: number;
  distinct: number;
  first: number;
}

function scoreOf(lexicon: CompiledLexicon, stats: WordStats): Score {
  const result: Score = { category: lexicon.category, score: 0, distinct: 0, first: Number.POSITIVE_INFINITY };
  const add = (words: ReadonlySet<string>, weight: number) => {
    for (const word of words) {
      const count = stats.counts.get(word) ?? 0;
      if (count === 0) continue;
      result.score += weight * Math.min(count, MAX_COUNTED);
      result.distinct++;
      result.first = Math.min(result.first, stats.firstSeen.get(word) ?? result.first);
    }
  };
  add(lexicon.strong, STRONG_WEIGHT);
  add(lexicon.weak, WEAK_WEIGHT);
  for (const phrase of lexicon.phrases) {
    const count = Math.min(stats.phrases.get(phrase) ?? 0, MAX_COUNTED);
    if (count > 0) {
      result.score += PHRASE_WEIGHT * count;
      result.distinct++;
    }
  }
  return result;
}

/** Lexicon scoring over all categories; ties go to more distinct evidence, then to the topic raised first. */
export function handLexiconScores(analysis: Analysis): Map<ConversationCategory, number> {
  const stats = wordStats(analysis);
  return new Map(COMPILED.map((lexicon) => [lexicon.category, scoreOf(lexicon, stats).score / STRONG_WEIGHT]));
}
