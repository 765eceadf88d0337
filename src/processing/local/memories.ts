import type { MemoryCategory } from '../../domain/categories.js';
import type { ExtractedMemory, TranscriptInput } from '../engine.js';
import { analysisOf } from './analysis.js';
import { type Fact, memoryCandidates, placed, trimFact } from './memory-candidates.js';
import { complete } from './memory-checks.js';
import { KnownMemories } from './memory-known.js';
import { CATEGORY_PRIORITY } from './memory-patterns.js';
import { parseTokens } from './nlp.js';
import { FUNCTION_WORDS } from './vocabulary.js';

const MAX_MEMORIES = 4;

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

/** Category first; within it, a fact that names something (a place, a person, a number) before a generic one. */
function rank(fact: Fact): number {
  const specific = /\s(?:\p{Lu}|\d)/u.test(fact.content.replace(/^User(?:'s)?\s/, ''));
  return CATEGORY_PRIORITY[fact.category] + (specific ? 1 : 0);
}

export function extractMemories(
  input: TranscriptInput,
  existing: ReadonlyArray<{ content: string }>,
): ExtractedMemory[] {
  const analysis = analysisOf(input);
  const ranked = memoryCandidates(analysis, input.userName)
    .map((fact) => ({ fact, rank: rank(fact) }))
    .sort((a, b) => b.rank - a.rank || a.fact.order - b.fact.order);
  // Ranked first, then checked one by one until four are kept: only the facts that could be stored are parsed again.
  const known = new KnownMemories(existing);
  const chosen: Fact[] = [];
  const seen = new Set<string>();
  for (const { fact } of ranked) {
    if (chosen.length === MAX_MEMORIES) break;
    const content = placed(fact.content, analysis, fact.order);
    // A fact said twice is judged once.
    if (seen.has(content)) continue;
    seen.add(content);
    if (!complete(content) || known.has(content)) continue;
    known.add(content);
    chosen.push({ ...fact, content });
  }
  return chosen.map((fact) => ({
    content: fact.content,
    category: fact.category,
    tags: tagsOf(fact.source, fact.category),
  }));
}
