import type { MemoryCategory } from '../../domain/categories.js';
import type { ExtractedMemory, TranscriptInput } from '../engine.js';
import { type Analysis, analysisOf } from './analysis.js';
import { type Fact, memoryCandidates } from './memory-candidates.js';
import { complete } from './memory-checks.js';
import { trimFact } from './memory-clauses.js';
import { KnownMemories } from './memory-known.js';
import { MEMORY_THRESHOLD, memoryFeatures, memoryProbability } from './memory-model.js';
import { placeNamedBefore } from './memory-sources.js';
import { parseTokens } from './nlp.js';
import { squeezeSpaces } from './text.js';
import { FUNCTION_WORDS } from './vocabulary.js';

const MAX_MEMORIES = 4;
const INTERJECTION_TAIL = /,\s*(?:yes|yeah|yep|yup|hi|hello|thanks|thank you|okay|ok|right|no|honestly|anyway)\b.*$/i;

const TAG_TAGS = new Set(['NOUN', 'PROPN']);
// Third-person verbs wink sometimes tags as plural nouns after a name ("my sister lives" → "life").
const VERB_FORMS = new Set([
  'lives',
  'works',
  'loves',
  'likes',
  'hates',
  'runs',
  'plays',
  'studies',
  'teaches',
  'owns',
]);

/** 1–3 lowercase keywords: the nouns and names of the clause the fact came from. */
function tagsOf(source: string, category: MemoryCategory): string[] {
  const tags = parseTokens(trimFact(source))
    .filter((token) => TAG_TAGS.has(token.pos) && token.kind === 'word' && !VERB_FORMS.has(token.normal))
    .map((token) => token.lemma.toLowerCase())
    .filter((lemma) => lemma !== 'user' && lemma.length > 2 && !FUNCTION_WORDS.has(lemma));
  const unique = [...new Set(tags)].slice(0, 3);
  return unique.length > 0 ? unique : [category];
}

const AFTER_ROLE =
  /^(User (?:is|was|has been|had been|worked as|works as) an? [\p{L}-]+(?: [\p{L}-]+)?) (?:here|there)\b/u;
const BARE_SPAN =
  /^(User [^,]*?)(?<!\b(?:for|of|in|over|about|almost|nearly)(?: \w+)?) ((?:\w+ )?(?:years?|months|decades?))$/;

/** "User moved down there" → "User moved down to Florianópolis", when a place was just named. */
function placed(content: string, analysis: Analysis, index: number): string {
  if (!/\b(?:here|there)\b/.test(content)) return content;
  const place = placeNamedBefore(analysis, index);
  // "User has been a nurse here nine years": after what the wearer is, "here" only says where it was said.
  if (place === null) {
    const unplaced = content.replace(AFTER_ROLE, '$1');
    return unplaced === content ? content : unplaced.replace(BARE_SPAN, '$1 for $2');
  }
  // "I joined Harbour Bank here in Lagos": the place is said already; "here" only points at it.
  if (content.includes(place)) return squeezeSpaces(content.replace(/\s(?:here|there)\b/, ''));
  return content
    .replace(/\b((?:moved|came|went|relocated)(?: (?:down|up|over|back|out))?) (?:here|there)\b/, `$1 to ${place}`)
    .replace(/\b(?:here|there)\b/, `in ${place}`);
}

/** The candidates that could be stored: placed, said once, and readable on their own. */
export function viableCandidates(analysis: Analysis, userName: string): Fact[] {
  const seen = new Set<string>();
  const viable: Fact[] = [];
  for (const fact of memoryCandidates(analysis, userName)) {
    // A "here" or "there" with no place named before it says nothing and goes.
    const content = placed(fact.content, analysis, fact.order)
      // "…about pre-approval, hi, thanks", "…, yes, her mother is recovering": the fact ends at the interjection.
      .replace(INTERJECTION_TAIL, '')
      // "User has got a bad back" says no more than "User has a bad back".
      .replace(/^User has got (?!to\b|used\b|into\b)/, 'User has ')
      .replace(/\s(?:here|there)$/, '');
    // A fact said twice is judged once.
    if (seen.has(content)) continue;
    seen.add(content);
    if (complete(content)) viable.push({ ...fact, content });
  }
  return viable;
}

function saidInFull(answer: Fact, facts: Fact[]): boolean {
  const named = parseTokens(answer.source)
    .filter((token) => TAG_TAGS.has(token.pos) && token.kind === 'word')
    .map((token) => token.normal);
  if (named.length === 0) return false;
  return facts.some((other) => {
    if (other === answer || other.kind === 'answered') return false;
    const words = new Set(other.content.toLowerCase().split(/[^\p{L}\p{N}'-]+/u));
    return named.every((word) => words.has(word));
  });
}

// The keep-or-discard decision reads the facts too; they are found and scored once per parse.
const rankedCache = new WeakMap<Analysis, { userName: string; facts: Array<{ fact: Fact; score: number }> }>();

/** The candidates the model keeps, surest first; ties keep the order they were said in. */
function rankedFacts(analysis: Analysis, userName: string): Array<{ fact: Fact; score: number }> {
  const cached = rankedCache.get(analysis);
  if (cached !== undefined && cached.userName === userName) return cached.facts;
  const candidates = viableCandidates(analysis, userName);
  const facts = candidates
    .map((fact) => ({ fact, score: memoryProbability(memoryFeatures(fact, analysis, candidates.length)) }))
    .filter(({ score }) => score >= MEMORY_THRESHOLD)
    .sort((a, b) => b.score - a.score || a.fact.order - b.fact.order);
  // "Any allergies?" "Just penicillin. I'm allergic to penicillin.": the answer kept again in full is one fact.
  const kept = facts.map(({ fact }) => fact);
  // "User enjoys playing the violin every evening" already says "User plays the violin", and "User has
  // been hypothyroid since they were twenty" says "User is hypothyroid".
  const saidBeside = (fact: Fact) =>
    fact.about !== undefined &&
    kept.some(
      (other) => other !== fact && other.about === undefined && other.content.toLowerCase().includes(fact.about ?? ''),
    );
  const once = facts.filter(({ fact }) => (fact.kind !== 'answered' || !saidInFull(fact, kept)) && !saidBeside(fact));
  rankedCache.set(analysis, { userName, facts: once });
  return once;
}

export function extractMemories(
  input: TranscriptInput,
  existing: ReadonlyArray<{ content: string }>,
): ExtractedMemory[] {
  const scored = rankedFacts(analysisOf(input), input.userName);
  const known = new KnownMemories(existing);
  const chosen: Fact[] = [];
  for (const { fact } of scored) {
    if (chosen.length === MAX_MEMORIES) break;
    if (known.has(fact.content)) continue;
    known.add(fact.content);
    chosen.push(fact);
  }
  return chosen.map((fact) => ({
    content: fact.content,
    category: fact.category,
    tags: tagsOf(fact.source, fact.category),
  }));
}
