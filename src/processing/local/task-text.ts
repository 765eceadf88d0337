import { withTopicForPronoun } from './action-headings.js';
import { withoutOthersGuess } from './action-verbs.js';
import type { Analysis, Sentence } from './analysis.js';
import { parseTokens, type Token } from './nlp.js';
import { namesPerson } from './noun-kinds.js';
import { closingVocative } from './participants.js';
import { speakerNumber } from './speakers.js';
import { capitalizeFirst, escapeRegExp } from './text.js';
import { TASK_VERBS } from './vocabulary.js';

/**
 * Finishing touches on a to-do line, so it reads as an instruction: the verb in its base form
 * ("Calling the landlord" → "Call the landlord") and third-person pronouns resolved to the person
 * last named, or dropped with their preposition when nobody was ("Send the slides to her" → "Send the slides").
 */

const PERSON_PRONOUN = /\b(him|her|his)\b/i;
const PRONOUN_PHRASE = /\s+(?:to|with|for|from|about|of)\s+(?:him|her)\b/gi;
const CALENDAR =
  /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|today|tomorrow|tonight|ok|okay|yes|yeah|no|hi|hey|thanks|sure)$/i;
const LOOK_BACK = 4;
const PLACE_PREPOSITIONS = new Set(['at', 'in', 'from', 'near', 'into', 'on', 'outside', 'inside', 'across']);
const JOURNEY =
  /^(?:minutes?|hours?|days?|km|kilometres?|kilometers?|miles?|way|road|trip|journey|flight|train|bus|ferry|drive|driving|fly|flying|go|going|went|move|moving|moved|travel|travelling|traveling|commute|head|heading|back|down|up|over|out|ride|walk|return|relocate|relocating)$/;
// "her" before a noun is a possessive ("her passport"); before a determiner or particle, an object ("send her the file").
const HER_POSSESSIVE =
  /\bher\b(?=\s+(?!(?:the|a|an|some|this|that|these|those|it|them|back|up|down|away|around|over|out|off|to|for|about|on|in|at|by|with|and|know|again)\b)\p{Ll}+)/gu;

/** "Calling" → "Call": the lemma of a progressive verb opening the line. */
function baseForm(description: string, tokens: Token[]): string {
  const [first, ...rest] = description.split(' ');
  if (first === undefined || !/ing$/i.test(first)) return description;
  const inSentence = tokens.find((item) => item.normal === first.toLowerCase() && item.pos === 'VERB');
  // wink may tag a fronted "mailing" as a noun; in "I was mailing" it is the verb it lemmatises.
  const token = inSentence ?? parseTokens(`I was ${first.toLowerCase()} it`).find((item) => item.pos === 'VERB');
  if (token === undefined || token.lemma === token.normal || token.lemma === '') return description;
  return [capitalizeFirst(token.lemma), ...rest].join(' ');
}

/** Name-like tokens: proper nouns that are not calendar words or backchannels, nor diarization labels. */
const STREET = /^(?:Road|Rd|Street|St|Avenue|Ave|Lane|Drive|Way|Close|Crescent|Terrace|Boulevard|Place|Square)$/;
const SUBJECTLESS_MODAL = /^(?:gotta|gonna|wanna|hafta|gotsta|need|must|should)$/i;

export function namesIn(tokens: Token[]): string[] {
  const names: string[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.pos !== 'PROPN' || token.kind !== 'word' || CALENDAR.test(token.value)) continue;
    if (!/^\p{Lu}\p{Ll}/u.test(token.value) || speakerNumber(token.value) !== null || /^speaker$/i.test(token.value))
      continue;
    const previous = tokens[index - 1];
    // "at Lumière", "in Porto": a name after a place preposition names a place, not a person.
    if (previous !== undefined && PLACE_PREPOSITIONS.has(previous.normal)) continue;
    // "his acoustic, the Yamaha", "the Erasmus application": a name after "the" is a thing or a brand.
    if (previous?.normal === 'the') continue;
    // "three hours to Porto", "drive to Sintra": "to" after a stretch of time or a journey points at a place.
    if (previous?.normal === 'to' && JOURNEY.test(tokens[index - 2]?.lemma.toLowerCase() ?? '')) continue;
    // "14 Aldridge Road": a name after a house number, or ending in a street word, is an address.
    if (previous?.pos === 'NUM' || STREET.test(token.value) || STREET.test(tokens[index + 1]?.value ?? '')) continue;
    // A capitalised first word ("Great, …", "Perfect.") is a name only when a verb follows it ("Maria said").
    const next = tokens[index + 1];
    if (index === 0 && !(next !== undefined && (next.pos === 'VERB' || next.pos === 'AUX' || next.pos === 'PROPN')))
      continue;
    // "Ring Mum about Sunday": a task verb opening the sentence is no first name.
    if (index === 0 && TASK_VERBS.has(token.normal)) continue;
    // "Gotta explain that to her": a dropped "I've" before a verb, not someone named.
    if (index === 0 && SUBJECTLESS_MODAL.test(token.value)) continue;
    if (/s$/.test(token.value) && CALENDAR.test(token.value.slice(0, -1))) continue;
    // "Dr. Patel", "Anna Maria": a run of proper nouns is one name.
    if (previous?.pos === 'PROPN' && names.length > 0 && index > 0) names[names.length - 1] += ` ${token.value}`;
    else names.push(token.value);
  }
  return names;
}

/**
 * The names in a sentence that a later "him" or "her" can mean: not the name another speaker closes
 * on, which is the wearer they talk to ("I can't do another phone call today, Fi."), nor a possessor
 * with nothing after it ("because he did Grandpa's."; "Gunnar's birthday … call him" is Gunnar).
 */
export function referableNames(sentence: Sentence, names = namesIn(sentence.tokens)): string[] {
  const vocative = sentence.isUser ? null : closingVocative(sentence);
  return names.filter(
    (named) =>
      named !== vocative &&
      !/['’]s$/.test(named) &&
      !new RegExp(`\\b${escapeRegExp(named)}['’]s(?!\\s+\\p{L})`, 'u').test(sentence.text),
  );
}

/** The last name in the tokens (of the sentence, or its part before a cue) that "him" or "her" can mean. */
export function personNamedIn(sentence: Sentence, tokens: Token[]): string | undefined {
  return referableNames(sentence, namesIn(tokens)).at(-1);
}

/** The person most recently named before (or in) the sentence, within a few sentences and two turns. */
function lastNamedPerson(analysis: Analysis, sentenceIndex: number): string | null {
  const turn = analysis.sentences[sentenceIndex]?.turn ?? 0;
  for (let index = sentenceIndex; index >= Math.max(0, sentenceIndex - LOOK_BACK); index--) {
    const sentence = analysis.sentences[index];
    if (sentence === undefined || sentence.turn < turn - 2) break;
    const name = referableNames(sentence).at(-1);
    // "I'll send a plumber … let him in": someone brought in by their trade, said after any name.
    const trade = tradeIn(sentence.tokens, name);
    if (trade !== undefined) return trade;
    if (name !== undefined) return name;
  }
  return null;
}

/**
 * "I'll send a plumber": someone brought in by their trade, as "the plumber"; "She's an angel" says what
 * someone is and brings nobody in. Undefined when the token is no such person.
 */
export function personIntroduced(tokens: Token[], index: number): string | undefined {
  const token = tokens[index];
  const article = tokens[index - 1]?.normal;
  if (article !== 'a' && article !== 'an') return undefined;
  if (tokens[index - 2]?.lemma === 'be' || token.pos !== 'NOUN' || !namesPerson(token.lemma)) return undefined;
  return `the ${token.normal}`;
}

function tradeIn(tokens: Token[], lastName: string | undefined): string | undefined {
  const after = lastName === undefined ? 0 : tokens.findLastIndex((token) => lastName.endsWith(token.value)) + 1;
  for (let index = tokens.length - 1; index > after; index--) {
    const trade = personIntroduced(tokens, index);
    if (trade !== undefined) return trade;
  }
  return undefined;
}

function resolvePersons(description: string, analysis: Analysis, sentenceIndex: number): string {
  if (!PERSON_PRONOUN.test(description)) return description;
  const name = lastNamedPerson(analysis, sentenceIndex);
  if (name !== null && !description.includes(name)) {
    // "I promised Kofi I'd return his drill" → "Return Kofi's drill": "his" only for a name in the same sentence.
    const named = /^\p{Lu}\p{Ll}+$/u.test(name) && (analysis.sentences[sentenceIndex]?.text.includes(name) ?? false);
    return description
      .replace(HER_POSSESSIVE, `${name}'s`)
      .replace(/\bhis\b(?=\s+\p{Ll})/gu, (his) => (named ? `${name}'s` : his))
      .replace(/\b(?:him|her)\b/gi, name);
  }
  const dropped = description.replace(PRONOUN_PHRASE, '');
  return dropped.split(' ').length >= 2 ? dropped : description;
}

// Time said by reference to something else ("the same day", "before then"), which the due date carries.
const REFERRED_TIME =
  /\s+(?:on |by |before |after )?(?:the same day|that same day|that day|the day|that morning|that evening|then|before then|by then|after that|after this|right after this)$/i;

const PHRASAL =
  /\b(?:let|hand|drop|fill|put|turn|switch|log|plug|pop|pencil|check|send|bring|let's)\s+(?:\S+\s+){1,4}(?:in|on)$/i;

/** The description as the wearer's own instruction. */
const DANGLING_END =
  /(?:,\s*|\s+)(?:of|with|for|to|the|a|an|and|or|at|on|in|from|by|before|after|until|till|about|is|are|was|were|sometime)\s*$/i;

/** "And the logbook.", "So, the statements from your account": a sentence naming a thing, without a verb. */
export function isTopic(sentence: Sentence): boolean {
  const { tokens } = sentence;
  return (
    // "the missing forms": a participle after a determiner describes the thing.
    !tokens.some((token, at) => (token.pos === 'VERB' && tokens[at - 1]?.pos !== 'DET') || token.pos === 'AUX') &&
    tokens.some((token) => token.pos === 'DET')
  );
}

// "Upload all of that to the portal. The missing 1099s, the square footage…": the list said next is what it gathers.
const GATHERED = /\b(?:all of that|all that|all of it|it all|all of those|the following)\b/i;

function listedNext(description: string, analysis: Analysis, sentenceIndex: number): string {
  const sentence = analysis.sentences[sentenceIndex];
  const next = analysis.sentences[sentenceIndex + 1];
  if (!GATHERED.test(description) || next === undefined || next.turn !== sentence?.turn || !isTopic(next))
    return description;
  // "Friday the twenty-fifth?": a date said next says when, not what.
  if (next.text.trim().endsWith('?') || CALENDAR.test(next.tokens.find((token) => token.kind === 'word')?.value ?? ''))
    return description;
  const list = next.text.replace(/^(?:and|so|like|i mean)[,\s]+/i, '').replace(/[.!?]+$/, '');
  return description.replace(GATHERED, list.charAt(0).toLowerCase() + list.slice(1));
}

export function finishTask(description: string, analysis: Analysis, sentenceIndex: number): string {
  const sentence = analysis.sentences[sentenceIndex];
  const tokens = sentence?.tokens ?? [];
  // "…, Renata." addresses the listener; the name is not part of the task.
  const vocative = sentence === undefined ? null : closingVocative(sentence);
  const addressed = vocative === null ? description : description.replace(new RegExp(`,?\\s+${vocative}$`), '');
  const untimed = withoutOthersGuess(addressed.replace(REFERRED_TIME, ''));
  // "Send the final list, with table numbers roughly, of": a clause cut after a preposition ends before it.
  let whole = untimed;
  // "let the technician in", "hand the form in": after a verb that takes one, "in" or "on" is its particle.
  if (!PHRASAL.test(whole))
    for (let cut = whole.replace(DANGLING_END, ''); cut !== whole; cut = whole.replace(DANGLING_END, '')) whole = cut;
  // "…the day after tomorrow, and again at the weekend": once the times are out, "and again" is left over.
  whole = whole.replace(/,?\s+and again$/i, '');
  const headed = withTopicForPronoun(listedNext(whole, analysis, sentenceIndex), analysis, sentenceIndex);
  return resolvePersons(baseForm(headed, tokens), analysis, sentenceIndex);
}

// Verbs of what befalls one or what one feels: nobody can tick off "Lose my mind" or "Forget it".
const NOT_DONE = new Set(['forget', 'lose', 'love', 'hate', 'hope', 'wish', 'die', 'panic', 'cry', 'worry', 'freak']);

/**
 * A to-do is a verb and what it acts on: "Come", "The office", "Notice is" are not. The first word
 * must be read as a verb in the sentence it came from (or be a task verb wink mis-tagged).
 */
export function readsAsTask(description: string, tokens: Token[], taskVerbs: ReadonlySet<string>): boolean {
  const words = description.split(' ');
  if (words.length < 2) return SELF_CONTAINED.test(description);
  const first = (words[0] ?? '').toLowerCase().replace(/[,.;:!?]+$/, '');
  if (NOT_DONE.has(first)) return false;
  // "Email is fine", "WhatsApp is enough": the first word is the subject of a statement, not a verb.
  // "Change of topic": a noun with its "of" is no instruction either.
  if (/^(?:is|are|was|were|isn't|aren't|works|sounds|looks|of)$/i.test(words[1] ?? '')) return false;
  if (taskVerbs.has(first)) return true;
  // "It's officially one month…", "There's…": a pronoun and its verb open a statement, not a task.
  if (/^(?:it|there|that|this|he|she|they|we|i|you)(?:['’]\w+)?$/.test(first)) return false;
  const token = tokens.find((item) => item.normal === first);
  return token === undefined || token.pos === 'VERB';
}

// What a verb cannot act on alone: a count, a share, a time or a manner ("Book four", "Finish half",
// "Call Christmas", "Ask first"), a pronoun with nobody named ("Call you", "Do mine").
const NO_OBJECT =
  /^(?:one|two|three|four|five|six|half|both|all|first|early|later|exactly|better|more|less|something|anything|everything|nothing|you|yourself|myself|mine|yours|ours|theirs|christmas|easter|ramadan|diwali|going|started|ready|home|there|here|together|away)$/i;

const SELF_CONTAINED = /^(?:register|enrol|enroll|apply|rsvp|reapply|re-register|pay|renew)$/i;

const MOVING_ABOUT =
  /^(?:get|go|come|sit|stand|wake|lie|hang|calm|settle|slow|shut|chill|move|walk|run|drive|fly)\s+(?:up|down|out|in|off|over|back|away|around|along|on)$/i;

/** Whether the words after the verb name something to act on, not only a count, a time or a manner. */
export function actsOnSomething(description: string): boolean {
  const words = description
    .split(' ')
    .slice(1)
    .map((word) => word.replace(/[,.;:!?]+$/, ''))
    .filter((word) => word !== '');
  // "I'll register by the end of the month": a few verbs name the whole task on their own.
  if (words.length === 0) return SELF_CONTAINED.test(description);
  // "Send two things from me", "Do a few things": things not yet said are no task until they are.
  if (
    /^(?:(?:a few|a couple of|a couple|some|two|three|four|five|several|other) )?(?:things?|stuff)\b/i.test(
      words.join(' '),
    )
  )
    return false;
  // "Get up", "Come over", "Sit down": a verb of moving about with its particle acts on nothing.
  if (words.length === 1 && MOVING_ABOUT.test(`${description.split(' ')[0]} ${words[0]}`)) return false;
  if (words.length === 1) return !NO_OBJECT.test(words[0]) && !/['’]s$/.test(words[0]);
  if (words.length > 2) return true;
  // "Do people actually": two words ending on a manner word, with nothing named or counted.
  const parsed = parseTokens(words.join(' '));
  // "Pull them together": a pronoun stands for what an earlier sentence named.
  return !(parsed.at(-1)?.pos === 'ADV' && !parsed.some((item) => ['NOUN', 'PROPN', 'NUM', 'PRON'].includes(item.pos)));
}

/** "Transportes Almeida gave us a price, I'll call them": a firm that opens the sentence is "them". */
export function namedSubject(tokens: Token[]): string | undefined {
  const end = tokens.findIndex((token) => token.pos !== 'PROPN');
  const next = tokens[end];
  if (end < 1 || (next?.pos !== 'VERB' && next?.pos !== 'AUX')) return undefined;
  return namesIn(tokens.slice(0, end)).at(0);
}

/**
 * "Gear insurance expires on the thirty-first. Renew it": the thing a pronoun was resolved to
 * (`resolved`, the task with the thing in its place) opens the sentence just before the task's, as the
 * subject of a new topic, so it is what the pronoun means even after another task was drafted.
 */
export function opensSentenceBefore(
  task: string,
  resolved: string,
  thingAt: number,
  taskAt: number,
  analysis: Analysis,
): boolean {
  const own = new Set(task.toLowerCase().split(/\s+/));
  const phrase = resolved
    .split(/\s+/)
    .filter((word) => !own.has(word.toLowerCase()))
    .join(' ')
    .toLowerCase();
  const before = analysis.sentences[thingAt];
  return (
    phrase !== '' &&
    thingAt === taskAt - 1 &&
    before?.turn === analysis.sentences[taskAt]?.turn &&
    before.text
      .toLowerCase()
      .replace(/^(?:the|my|our|your)\s+/, '')
      .startsWith(phrase)
  );
}
