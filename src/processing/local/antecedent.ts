import type { Candidate } from './action-cues.js';
import type { Analysis } from './analysis.js';
import { parseTokens, type Token } from './nlp.js';
import { namesIn } from './task-text.js';

export interface Antecedent {
  description: string;
  /** a candidate spanning the antecedent's sentence, so its dates can be read */
  candidate: Candidate;
}

type Pointer = 'plural' | 'person' | 'thing';

const CHUNK_TAGS = new Set(['ADJ', 'NOUN', 'PROPN', 'NUM']);
const POINTERS: Record<string, Pointer> = {
  them: 'plural',
  those: 'plural',
  these: 'plural',
  him: 'person',
  her: 'person',
  it: 'thing',
  that: 'thing',
  this: 'thing',
};
const PARTICLES = new Set(['up', 'out', 'off', 'back', 'down', 'over', 'in']);
const LOOK_BACK_SENTENCES = 3;
// Words that open the noun phrase a recipient pronoun is followed by ("send them the file", "email him a copy").
const RECIPIENT_BEFORE =
  /^(?:the|a|an|my|your|our|his|her|their|some|any|all|both|this|that|these|those|everything|anything|something|\d+|one|two|three|four|five)$/;

function isPlural(token: Token): boolean {
  return token.pos === 'NOUN' && token.lemma !== token.normal && token.normal.endsWith('s');
}

/** Noun phrases of a token run, each cut at a plural noun when one is wanted ("glasses prescription" → "glasses"). */
function chunksOf(tokens: Token[], pointer: Pointer): string[] {
  const chunks: string[] = [];
  let run: Token[] = [];
  const flush = () => {
    const cut = pointer === 'plural' ? run.findIndex(isPlural) : run.length - 1;
    const phrase = run.slice(0, cut + 1);
    const head = phrase.at(-1);
    const fits =
      head !== undefined &&
      (pointer === 'plural'
        ? isPlural(head)
        : pointer === 'person'
          ? head.pos === 'PROPN'
          : head.pos === 'NOUN' && !isPlural(head));
    if (fits) chunks.push(phrase.map((token) => token.value).join(' '));
    run = [];
  };
  for (const token of tokens) {
    if (CHUNK_TAGS.has(token.pos) && token.kind === 'word') run.push(token);
    else flush();
  }
  flush();
  return chunks;
}

/** The pronoun right after the verb (and an optional particle): "Pick them up …" → "them". */
export function objectPronoun(description: string): { index: number; pointer: Pointer } | null {
  const words = description.split(/\s+/).map((word) => word.toLowerCase());
  const index = PARTICLES.has(words[1] ?? '') ? 2 : 1;
  const pointer = POINTERS[words[index] ?? ''];
  // "Send them the proposal": a pronoun followed by a noun phrase is the recipient, not the thing.
  const next = words[index + 1];
  if (pointer === undefined || (next !== undefined && RECIPIENT_BEFORE.test(next))) return null;
  return { index, pointer };
}

function spanning(candidate: Candidate, analysis: Analysis, sentenceIndex: number): Candidate {
  const sentence = analysis.sentences[sentenceIndex];
  const length = sentence.text.length;
  const end = sentenceIndex === candidate.sentenceIndex ? candidate.cueStart : length;
  return {
    ...candidate,
    sentence,
    sentenceIndex,
    cueStart: 0,
    clauseStart: 0,
    clauseEnd: end,
    windowStart: 0,
    windowEnd: end,
    clause: sentence.text.slice(0, end),
  };
}

/**
 * Resolves "I have to buy them" to the nearest earlier noun phrase that fits the pronoun: the
 * start of the same sentence first, then up to three sentences back within the last two turns.
 */
export function antecedentFor(description: string, candidate: Candidate, analysis: Analysis): Antecedent | null {
  const pronoun = objectPronoun(description);
  if (pronoun === null) return null;
  for (let back = 0; back <= LOOK_BACK_SENTENCES; back++) {
    const index = candidate.sentenceIndex - back;
    const sentence = analysis.sentences[index];
    if (sentence === undefined || sentence.turn < candidate.sentence.turn - 2) break;
    const tokens = back === 0 ? parseTokens(sentence.text.slice(0, candidate.cueStart)) : sentence.tokens;
    // A person is named by a name that reads as one (not "Saturdays", not a sentence's first word).
    const phrase = pronoun.pointer === 'person' ? namesIn(tokens).at(-1) : chunksOf(tokens, pronoun.pointer).at(-1);
    if (phrase === undefined) continue;
    const words = description.split(/\s+/);
    words[pronoun.index] = phrase.replace(/^(?:my|your|our|his|her|their)\s+/i, '');
    return { description: words.join(' '), candidate: spanning(candidate, analysis, index) };
  }
  return null;
}
