import { parseTokens, type Token } from './nlp.js';
import { isFiller } from './relevance.js';
import { normalizeText } from './text.js';
import { FUNCTION_WORDS } from './vocabulary.js';

/** Content words of a short text, weighted: verbs count half, since "send"/"call" rarely tell tasks apart. */
export interface ContentKey {
  weights: Map<string, number>;
  /** proper names, lowercased: a different person means a different item */
  names: Set<string>;
}

// Verbs that say the same thing in a task ("grab milk" = "buy milk", "ring mom" = "call mom").
const VERB_SYNONYMS: Record<string, string> = {
  grab: 'buy',
  purchase: 'buy',
  get: 'buy',
  pick: 'buy',
  phone: 'call',
  ring: 'call',
  mail: 'email',
  message: 'text',
  resubmit: 'submit',
  redo: 'do',
};

const CONTENT_TAGS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'NUM']);

function keyOfToken(token: Token): string | null {
  if (!CONTENT_TAGS.has(token.pos) || token.kind === 'punctuation') return null;
  const lemma = token.lemma.toLowerCase();
  if (FUNCTION_WORDS.has(lemma) || isFiller(lemma) || lemma.length < 2) return null;
  return token.pos === 'VERB' ? (VERB_SYNONYMS[lemma] ?? lemma) : lemma;
}

function keyOfTokens(tokens: Iterable<Token>): ContentKey {
  const weights = new Map<string, number>();
  const names = new Set<string>();
  for (const token of tokens) {
    const key = keyOfToken(token);
    if (key === null) continue;
    weights.set(key, Math.max(weights.get(key) ?? 0, token.pos === 'VERB' ? 0.5 : 1));
    if (token.pos === 'PROPN') names.add(key);
  }
  return { weights, names };
}

export function contentKey(text: string): ContentKey {
  return keyOfTokens(parseTokens(normalizeText(text)));
}

/**
 * The key of a text made from words of already tagged sentences (a task description cut from its
 * sentence), without a second wink pass; a word not found there counts as a noun, or a name when capitalised.
 */
export function keyFromTagged(text: string, tagged: ReadonlyArray<Token>): ContentKey {
  const byNormal = new Map(tagged.map((token) => [token.normal, token]));
  const words = normalizeText(text)
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((word) => word !== '');
  const tokens = words.map((word, index): Token => {
    const normal = word.toLowerCase();
    const known = byNormal.get(normal);
    // A to-do opens with its verb, whatever the tagger made of it in the sentence ("and ring/NOUN Gran").
    if (known !== undefined) return index === 0 && known.pos !== 'VERB' ? { ...known, pos: 'VERB' } : known;
    const pos = index > 0 && /^\p{Lu}/u.test(word) ? 'PROPN' : 'NOUN';
    return { value: word, normal, lemma: normal, pos, kind: 'word' };
  });
  return keyOfTokens(tokens);
}

function totalWeight(key: ContentKey): number {
  let sum = 0;
  for (const weight of key.weights.values()) sum += weight;
  return sum;
}

/** Weighted Dice coefficient of two content keys, 0…1. */
export function similarity(a: ContentKey, b: ContentKey): number {
  const total = totalWeight(a) + totalWeight(b);
  if (total === 0) return 0;
  let shared = 0;
  for (const [word, weight] of a.weights) {
    const other = b.weights.get(word);
    if (other !== undefined) shared += Math.min(weight, other);
  }
  return (2 * shared) / total;
}

/** Both name someone, and the names differ: "email Sarah" is not "email Mark". */
export function namesConflict(a: ContentKey, b: ContentKey): boolean {
  if (a.names.size === 0 || b.names.size === 0) return false;
  for (const name of a.names) if (b.names.has(name)) return false;
  return true;
}

/**
 * Same intent when the weighted Dice reaches 0.7: a shared verb and object survive one extra
 * modifier ("finish report" ~ "finish quarterly report" = 0.75) but not a different object
 * ("email Sarah budget" vs "email Sarah slides" = 0.6).
 */
export const SAME_INTENT_THRESHOLD = 0.7;

export function sameIntent(a: ContentKey, b: ContentKey): boolean {
  return similarity(a, b) >= SAME_INTENT_THRESHOLD && !namesConflict(a, b);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

const SUBJECT_FIRST = /^(?:i|he|she|they|we|my|his|her|their|our)\b/i;

/**
 * Memories read "User lives in Lisbon" or just "Lives in Lisbon"; wink tags such subjectless or
 * "User"-led text poorly ("lives" → the noun "life"), so it is keyed as a plain "She …" sentence.
 */
export function memoryKey(content: string): ContentKey {
  const trimmed = content.trim();
  const asSentence = /^user's\b/i.test(trimmed)
    ? trimmed.replace(/^user's\b/i, 'Her')
    : /^user\b/i.test(trimmed)
      ? trimmed.replace(/^user\b/i, 'She')
      : SUBJECT_FIRST.test(trimmed)
        ? trimmed
        : `She ${lowerFirst(trimmed)}`;
  return contentKey(asSentence);
}

/** To-do lines start with a bare verb ("Call the plumber"); "I call the plumber" tags the verb reliably. */
export function taskKey(description: string): ContentKey {
  return contentKey(`I ${lowerFirst(description.trim())}`);
}
