import type { ConversationCategory } from '../../domain/categories.js';
import type { Analysis, Sentence } from './analysis.js';
import { isContentToken, lemmaFrequencies, lemmaOf } from './keywords.js';
import type { Token } from './nlp.js';
import { namesCalledOut } from './participants.js';
import { topicWeights } from './topic-lexicon.js';
import { FUNCTION_WORDS } from './vocabulary.js';

/** A noun phrase that may name what the conversation is about, with its salience. */
export interface Topic {
  words: string[];
  /** the words as they read inside a sentence: names keep their capitals, other words are lowercase */
  display: string;
  lemmas: string[];
  score: number;
  /** the verbs the phrase is the object of ("book" for "book the flights"), by count */
  verbs: Map<string, number>;
  /** first sentence index */
  first: number;
  /** how often the phrase was said, and by how many speakers */
  mentions: number;
  speakers: number;
}

// Adjectives that describe the speaker's mood, not the topic, and make poor title words.
const VAGUE_ADJECTIVES = new Set(
  `good great new big little other last next first same whole bad best own old nice real sure able few many much
  several quick long short previous easy hard high low main fine okay ok happy sorry glad perfect crazy lovely`.split(
    /\s+/,
  ),
);
// Nouns too generic to name a topic ("Percent", "Point", "Details").
const GENERIC_NOUNS = new Set(
  `percent point thing way lot part kind bit detail step note number people guy stuff question fact sort type end
  side case idea one couple problem issue today tomorrow minute hour second everyone someone anything yeah okay
  self voice memo recording message chaos mess darling honey sweetheart sweetie babe guys folks worries worry
  sir ma'am madam ji sahib aye mate bro dude`.split(/\s+/),
);
const PLACEHOLDER_WORD = /^speaker(?:[\s_-]*\d+)?$/i;
// Dates say when, not what: "Tuesday" or "tomorrow" never name a topic.
const CALENDAR_WORD =
  /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|today|tomorrow|tonight|yesterday|morning|afternoon|evening|night|week|weekend|month|year|day|time|minute|hour|o'clock|[ap]\.?m\.?)s?$/i;
// Ordinals are dates or ranks ("the thirteenth"), not topics.
const ORDINAL =
  /^(?:\w+-)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\w+teenth|\w+tieth|\d+(?:st|nd|rd|th))$/i;
const MAX_PHRASE_WORDS = 3;
/** How far back from a phrase a governing verb may stand ("book the two flights"). */
const VERB_REACH = 3;
const BRIDGE_TAGS = new Set(['DET', 'ADJ', 'NUM', 'PRON', 'ADP']);
/** A head noun that belongs to the conversation's category (or to any topic at all) is more likely the topic. */
const IN_CATEGORY = 2;
const ANY_TOPIC = 1;
/** Conversations announce their subject early ("I'm calling about the brakes"). */
const EARLY_BONUS = 1.5;

function phraseToken(token: Token): boolean {
  // "fitting me in.": wink reads a sentence-final "in." as the abbreviation for inches.
  if (token.value.endsWith('.') && FUNCTION_WORDS.has(token.normal.replace(/\.+$/, ''))) return false;
  if (!isContentToken(token) || token.pos === 'VERB' || VAGUE_ADJECTIVES.has(lemmaOf(token))) return false;
  if (GENERIC_NOUNS.has(lemmaOf(token))) return false;
  return (
    !/\d/.test(token.value) &&
    !CALENDAR_WORD.test(token.value) &&
    !ORDINAL.test(token.value) &&
    !PLACEHOLDER_WORD.test(token.value)
  );
}

/** Runs of adjectives and nouns ending in a noun ("data backfill script", "Lisbon"), with their start index. */
function phrasesOf(sentence: Sentence): Array<{ tokens: Token[]; start: number }> {
  const runs: Array<{ tokens: Token[]; start: number }> = [];
  let run: number[] = [];
  const flush = () => {
    while (run.length > 0 && sentence.tokens[run[run.length - 1]].pos === 'ADJ') run.pop();
    const kept = run.slice(-MAX_PHRASE_WORDS);
    if (kept.length > 0) runs.push({ tokens: kept.map((index) => sentence.tokens[index]), start: kept[0] });
    run = [];
  };
  let note = false;
  sentence.tokens.forEach((token, index) => {
    // "[pause]", "[laughs]": a transcriber's note is not what was said.
    if (token.value === '[') note = true;
    if (token.value === ']') note = false;
    // "of course" is a discourse marker, not a course.
    const idiom = token.normal === 'course' && sentence.tokens[index - 1]?.normal === 'of';
    if (phraseToken(token) && !idiom && !note) run.push(index);
    else flush();
    // "reps. Ugly reps.": a word that carries its full stop ends the phrase.
    if (token.value.endsWith('.')) flush();
  });
  flush();
  return runs;
}

/** The verb a phrase is the object of: the nearest content verb before it, across only determiners and modifiers. */
function governingVerb(sentence: Sentence, phraseStart: number): string | undefined {
  for (let index = phraseStart - 1; index >= Math.max(0, phraseStart - 1 - VERB_REACH); index--) {
    const token = sentence.tokens[index];
    if (token.pos === 'VERB') return isContentToken(token) ? lemmaOf(token) : undefined;
    if (!BRIDGE_TAGS.has(token.pos)) return undefined;
  }
  return undefined;
}

function displayOf(tokens: Token[]): string {
  return tokens
    .map((token) =>
      token.pos === 'PROPN' || /^[A-Z0-9]{2,}$/.test(token.value) ? token.value : token.value.toLowerCase(),
    )
    .join(' ');
}

/** How strongly the phrase's head belongs to the conversation's category (WordNet topic weight). */
function topicality(head: Token, category: ConversationCategory): number {
  const pos = head.pos === 'ADJ' ? 'a' : 'n';
  const known = topicWeights(head.normal, pos);
  const weights = known.length > 0 ? known : topicWeights(lemmaOf(head), pos);
  const inCategory = weights.find((entry) => entry.category === category)?.weight ?? 0;
  const anyTopic = Math.max(0, ...weights.map((entry) => entry.weight));
  return IN_CATEGORY * inCategory + ANY_TOPIC * anyTopic;
}

/** A name said to someone ("Hannah, ..." or "..., Hannah.") addresses them; it is not a topic. */
function isVocative(sentence: Sentence, start: number, length: number): boolean {
  const before = sentence.tokens[start - 1]?.value;
  const after = sentence.tokens[start + length]?.value;
  // "Tomasz! Long time.", "Mira, come here": a name alone before a comma or an exclamation.
  return (
    (start === 0 && (after === ',' || after === '!')) ||
    (before === ',' && (after === undefined || /^[.!?]$/.test(after)))
  );
}

/**
 * "Te escucho bien, Doña Rosa.", "Sin espacios.": a sentence half of whose words are not English is
 * said in another language, and its words make no English headline. A name inside a sentence keeps
 * its capital and is not counted against it ("Lunch in Trastevere").
 */
function foreign(sentence: Sentence): boolean {
  const [first, ...rest] = sentence.tokens.filter((token) => token.kind === 'word');
  // The first word is read apart (wink's lexicon knows "mortgage" but not "Mortgage"), and a name
  // inside the sentence is neither English nor foreign.
  const words = rest.filter((token) => !/^\p{Lu}/u.test(token.value));
  const unknown = words.filter((token) => token.known === false).length;
  // One unknown word is jargon or a medicine ("The amlodipine, yes"); "Sin espacios" has two.
  if (unknown === 1 && words.length === 1) return first?.known === false;
  return unknown >= 2 && unknown * 2 > words.length;
}

/**
 * Noun phrases ranked by salience: how often their words recur, how early the phrase comes, how
 * many speakers use it, and whether its head word belongs to the conversation's category.
 */
export function rankedTopics(analysis: Analysis, category: ConversationCategory, userName = ''): Topic[] {
  const frequencies = lemmaFrequencies(analysis.sentences);
  const byKey = new Map<string, Omit<Topic, 'speakers'> & { said: Set<string> }>();
  const opening = Math.max(2, Math.ceil(analysis.sentences.length * 0.2));
  const speakers = new Set(analysis.turns.map((turn) => turn.speaker.toLowerCase()));
  // The wearer's own name ("a prescription for Priya Nair") is who talked, never what about.
  for (const part of userName.toLowerCase().split(/\s+/)) if (part.length > 1) speakers.add(part);
  analysis.sentences.forEach((sentence, sentenceIndex) => {
    if (foreign(sentence)) return;
    for (const { tokens, start } of phrasesOf(sentence)) {
      const named = tokens.every((token) => token.pos === 'PROPN');
      // A speaker, or a name called out anywhere ("Hi Carla", "Thanks Carla"), is who talked, not a topic.
      const calledOut = named && namesCalledOut(analysis).has(tokens[0].value);
      const speaker = tokens.some((token) => speakers.has(token.normal));
      if (named && (speaker || calledOut || isVocative(sentence, start, tokens.length))) continue;
      // "Mr Lindqvist", "Dr Osei": a person addressed by title is who took part, not what was discussed.
      if (named && /^(?:mr|mrs|ms|miss|mx|dr)\.?$/i.test(tokens[0].value)) continue;
      const lemmas = tokens.map(lemmaOf);
      const key = lemmas.join(' ');
      let topic = byKey.get(key);
      if (topic === undefined) {
        const recurrence =
          lemmas.reduce((sum, lemma) => sum + (frequencies.get(lemma) ?? 1), 0) / Math.sqrt(tokens.length);
        const head = tokens[tokens.length - 1];
        const early = sentenceIndex < opening ? EARLY_BONUS : 0;
        const score = recurrence + early + tokens.length * 0.3 + topicality(head, category);
        topic = {
          words: tokens.map((token) => token.value),
          display: displayOf(tokens),
          lemmas,
          score,
          verbs: new Map(),
          first: sentenceIndex,
          mentions: 0,
          said: new Set(),
        };
        byKey.set(key, topic);
      } else topic.score += 1;
      if (!topic.said.has(sentence.speaker) && topic.said.size > 0) topic.score += 0.5;
      topic.said.add(sentence.speaker);
      topic.mentions += 1;
      const verb = governingVerb(sentence, start);
      if (verb !== undefined) topic.verbs.set(verb, (topic.verbs.get(verb) ?? 0) + 1);
    }
  });
  return [...byKey.values()]
    .map(({ said, ...topic }) => ({ ...topic, speakers: said.size }))
    .sort((a, b) => b.score - a.score || a.first - b.first);
}
