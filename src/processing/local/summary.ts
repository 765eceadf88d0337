import type { ConversationCategory } from '../../domain/categories.js';
import type { Analysis, Sentence } from './analysis.js';
import { isContentToken, lemmaFrequencies, lemmaOf } from './keywords.js';
import type { Token } from './nlp.js';
import { capitalizeFirst, headlineCase, squeezeSpaces, truncateChars, truncateWords } from './text.js';

const MAX_TITLE_WORDS = 10;
const MAX_OVERVIEW_CHARS = 400;
// Adjectives that describe the speaker's mood, not the topic, and make poor title words.
const VAGUE_ADJECTIVES = new Set(
  `good great new big little other last next first same whole bad best own old nice real sure able few many much
  several quick long short previous easy hard high low main`.split(/\s+/),
);

// Nouns too generic to name a topic ("Percent", "Point", "Details").
const GENERIC_NOUNS = new Set(
  'percent point thing way lot part kind bit detail step note number people guy stuff question fact sort type end side case idea one couple'.split(
    ' ',
  ),
);
const PLACEHOLDER_WORD = /^speaker(?:[\s_-]*\d+)?$/i;
// Dates say when, not what: "Tuesday" or "tomorrow" never make a title.
const CALENDAR_WORD =
  /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|today|tomorrow|tonight|yesterday|morning|afternoon|evening|night|week|weekend|month|year|day|time|minute|hour)s?$/i;

interface Phrase {
  words: string[];
  lemmas: string[];
  score: number;
}

function phraseToken(token: Token): boolean {
  if (!isContentToken(token) || token.pos === 'VERB' || VAGUE_ADJECTIVES.has(lemmaOf(token))) return false;
  if (GENERIC_NOUNS.has(lemmaOf(token))) return false;
  return !/^\d+$/.test(token.value) && !CALENDAR_WORD.test(token.value) && !PLACEHOLDER_WORD.test(token.value);
}

/** Runs of adjectives and nouns ending in a noun ("data backfill script", "Lisbon"). */
function phrasesOf(sentence: Sentence): Token[][] {
  const runs: Token[][] = [];
  let run: Token[] = [];
  const flush = () => {
    while (run.length > 0 && run[run.length - 1].pos === 'ADJ') run.shift();
    if (run.length > 0) runs.push(run.slice(-4));
    run = [];
  };
  for (const token of sentence.tokens) {
    if (phraseToken(token)) run.push(token);
    else flush();
  }
  flush();
  return runs;
}

function rankedPhrases(analysis: Analysis): Phrase[] {
  const frequencies = lemmaFrequencies(analysis.sentences);
  const byKey = new Map<string, Phrase>();
  for (const sentence of analysis.sentences) {
    for (const run of phrasesOf(sentence)) {
      const lemmas = run.map(lemmaOf);
      const key = lemmas.join(' ');
      const weight = lemmas.reduce((sum, lemma) => sum + (frequencies.get(lemma) ?? 1), 0) / Math.sqrt(run.length);
      const named = run.some((token) => token.pos === 'PROPN') ? 0.5 : 0;
      const existing = byKey.get(key);
      if (existing !== undefined) existing.score += 1;
      else byKey.set(key, { words: run.map((token) => token.value), lemmas, score: weight + named + run.length * 0.3 });
    }
  }
  return [...byKey.values()].sort((a, b) => b.score - a.score);
}

const CATEGORY_LABEL: Partial<Record<ConversationCategory, string>> = { real: 'Real Estate', other: 'Conversation' };

function firstWords(analysis: Analysis, count: number): string {
  return truncateWords(squeezeSpaces((analysis.sentences[0]?.text ?? '').replace(/[.!?…]+$/u, '')), count);
}

/** A fallback title that is never empty: the category, or the opening words when wink cannot tag the language. */
function fallbackTitle(analysis: Analysis, category: ConversationCategory): string {
  const opening = firstWords(analysis, 6);
  if (/[^\p{Script=Latin}\p{P}\p{N}\s]/u.test(opening) && /\p{L}/u.test(opening)) return truncateChars(opening, 60);
  const label = CATEGORY_LABEL[category] ?? capitalizeFirst(category);
  return category === 'other' ? 'Short Conversation' : `${label} Conversation`;
}

/** Up to two topic phrases in Headline Case ("Billing Migration and Pull Request"); other languages keep their opening words. */
export function buildTitle(analysis: Analysis, category: ConversationCategory, language: string): string {
  const english = language.trim() === '' || /^en\b/i.test(language);
  if (!english && /\p{L}/u.test(firstWords(analysis, 8)))
    return truncateChars(capitalizeFirst(firstWords(analysis, 8)), 80);
  const phrases = rankedPhrases(analysis);
  const best = phrases[0];
  if (best === undefined) return fallbackTitle(analysis, category);
  const second = phrases.find(
    (phrase) =>
      phrase !== best &&
      phrase.score >= best.score * 0.6 &&
      !phrase.lemmas.some((lemma) => best.lemmas.includes(lemma)),
  );
  const words =
    second !== undefined && best.words.length + second.words.length <= 7
      ? [...best.words, 'and', ...second.words]
      : best.words;
  return headlineCase(truncateWords(words.join(' '), MAX_TITLE_WORDS));
}

const LEADING_FILLERS =
  /^(?:(?:yeah|yes|okay|ok|so|um|uh|well|oh|right|alright|sure|honestly|anyway|hmm|like|and|but|i mean|you know)\b[,.!]?\s+)+/i;

function sentenceScore(sentence: Sentence, frequencies: Map<string, number>): number {
  const lemmas = new Set(sentence.tokens.filter(isContentToken).map(lemmaOf));
  if (lemmas.size < 2) return 0;
  let centrality = 0;
  for (const lemma of lemmas) centrality += (frequencies.get(lemma) ?? 1) - 1 + 0.5;
  const questionPenalty = sentence.text.trim().endsWith('?') ? 0.6 : 1;
  return (centrality / Math.sqrt(sentence.tokens.length)) * questionPenalty;
}

/** Extractive overview: the 1–3 most central sentences, in spoken order, capped at ~400 characters. */
export function buildOverview(analysis: Analysis): string {
  const frequencies = lemmaFrequencies(analysis.sentences);
  const count = analysis.sentences.length <= 3 ? 1 : analysis.sentences.length <= 8 ? 2 : 3;
  const chosen = analysis.sentences
    .map((sentence, index) => ({ sentence, index, score: sentenceScore(sentence, frequencies) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, count)
    .sort((a, b) => a.index - b.index)
    .map((entry) => capitalizeFirst(squeezeSpaces(entry.sentence.text.replace(LEADING_FILLERS, ''))));
  const overview =
    chosen.length > 0 ? chosen.join(' ') : squeezeSpaces(analysis.turns.map((turn) => turn.text).join(' '));
  return truncateChars(overview, MAX_OVERVIEW_CHARS);
}
