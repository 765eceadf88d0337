import type { TranscriptInput } from '../engine.js';
import { extractActionItems } from './action-items.js';
import { type Analysis, analysisOf } from './analysis.js';
import { clockOf, mentionsIn } from './dates.js';
import { extractEvents } from './events.js';
import { isContentToken, lemmaOf } from './keywords.js';
import { extractMemories } from './memories.js';

/** Enough distinct topic words that the snippet says something, even without a task or a fact. */
const SUBSTANCE_WORDS = 6;
/** Fewer topic words suffice for a question or a named thing, which usually matter to the speaker. */
const FOCUSED_WORDS = 4;

/** "Dentist appointment on Tuesday at three": a statement naming a thing and a future date is a note worth keeping. */
function hasDatedNote(analysis: Analysis, input: TranscriptInput): boolean {
  const clock = clockOf(input.startedAt, input.timezone);
  return analysis.sentences.some(
    (sentence) =>
      !sentence.text.trim().endsWith('?') &&
      sentence.tokens.some((token) => token.pos === 'NOUN' && isContentToken(token)) &&
      mentionsIn(sentence, clock).length > 0,
  );
}

/**
 * The local stand-in for the model tier of SPEC research §3.2: keep anything with a task, request,
 * dated plan or personal fact, or enough substance; discard throwaway snippets.
 */
export function localModelKeeps(input: TranscriptInput): boolean {
  if (extractActionItems(input, []).length > 0 || extractMemories(input, []).length > 0) return true;
  const analysis = analysisOf(input);
  // A lone question ("what's the weather tomorrow?") asks about a date; it plans nothing.
  const loneQuestion = analysis.sentences.length === 1 && analysis.sentences[0].text.trim().endsWith('?');
  if (!loneQuestion && (extractEvents(input).length > 0 || hasDatedNote(analysis, input))) return true;
  const tokens = analysis.sentences.flatMap((sentence) => sentence.tokens);
  const contentLemmas = new Set(tokens.filter(isContentToken).map(lemmaOf));
  if (contentLemmas.size >= SUBSTANCE_WORDS) return true;
  const asksOrNames =
    analysis.sentences.some((sentence) => sentence.text.includes('?')) || tokens.some((token) => token.pos === 'PROPN');
  return asksOrNames && contentLemmas.size >= FOCUSED_WORDS;
}

/** Scripts wink cannot tag: keep when there is at least a sentence's worth of words. */
export function localModelKeepsNonLatin(text: string): boolean {
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  const cjkChars = (text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu) ?? [])
    .length;
  return words.length + cjkChars / 1.5 >= 6;
}
