import type { Sentence } from './analysis.js';
import type { Token } from './nlp.js';
import { isFiller } from './relevance.js';
import { FUNCTION_WORDS, LIGHT_VERBS } from './vocabulary.js';

const CONTENT_TAGS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ']);

/** A word that carries topic: a noun, name, verb or adjective that is not a function word or filler. */
export function isContentToken(token: Token): boolean {
  if (!CONTENT_TAGS.has(token.pos) || token.kind !== 'word') return false;
  const lemma = token.lemma.toLowerCase();
  if (lemma.length < 2 || FUNCTION_WORDS.has(lemma) || FUNCTION_WORDS.has(token.normal) || isFiller(token.normal)) {
    return false;
  }
  return !(token.pos === 'VERB' && LIGHT_VERBS.has(lemma));
}

/** "of course" is a discourse marker, not a course of study. */
export function isIdiom(tokens: ReadonlyArray<Token>, index: number): boolean {
  return tokens[index].normal === 'course' && tokens[index - 1]?.normal === 'of';
}

export function lemmaOf(token: Token): string {
  return token.lemma.toLowerCase();
}

const frequencyCache = new WeakMap<ReadonlyArray<Sentence>, Map<string, number>>();

/** How often each content lemma occurs in the conversation (computed once per parsed conversation). */
export function lemmaFrequencies(sentences: ReadonlyArray<Sentence>): Map<string, number> {
  const cached = frequencyCache.get(sentences);
  if (cached !== undefined) return cached;
  const counts = new Map<string, number>();
  for (const sentence of sentences) {
    for (const token of sentence.tokens) {
      if (isContentToken(token)) counts.set(lemmaOf(token), (counts.get(lemmaOf(token)) ?? 0) + 1);
    }
  }
  frequencyCache.set(sentences, counts);
  return counts;
}
