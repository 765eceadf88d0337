import { type Candidate, locatesPronoun, lookBack, spanning } from './action-clauses.js';
import type { Analysis, Sentence } from './analysis.js';
import type { Token } from './nlp.js';
import { canBeAddressed, namesPerson } from './noun-kinds.js';
import { namedSubject, personIntroduced, personNamedIn } from './task-text.js';
import { PARTICLE } from './vocabulary.js';

export interface Antecedent {
  description: string;
  /** a candidate spanning the antecedent's sentence, so its dates can be read */
  candidate: Candidate;
}

type Pointer = 'plural' | 'person' | 'thing';

const CHUNK_TAGS = new Set(['ADJ', 'NOUN', 'PROPN', 'NUM']);
const POINTERS: Record<string, Pointer> = {
  them: 'plural',
  those: 'plural',
  these: 'plural',
  him: 'person',
  her: 'person',
  it: 'thing',
  that: 'thing',
  this: 'thing',
};
// Words that open the noun phrase a recipient pronoun is followed by ("send them the file", "email him a copy").
const RECIPIENT_BEFORE =
  /^(?:the|a|an|my|your|our|his|her|their|some|any|all|both|this|that|these|those|everything|anything|something|\d+|one|two|three|four|five)$/;

function isPlural(token: Token): boolean {
  if (token.pos !== 'NOUN' || !token.normal.endsWith('s')) return false;
  // A word the lexicon does not know keeps its "-s" as its lemma ("screenshots"); "-ss", "-us", "-is" are singular.
  return token.lemma !== token.normal || (token.normal.length > 3 && !/(?:ss|us|is|ics|ous|as)$/.test(token.normal));
}

// Times are when a task is due, never what it acts on ("send it by the fifteenth").
export const TIME_NOUN =
  /^(?:end|start|beginning|middle|days?|weeks?|weekends?|months?|years?|mornings?|afternoons?|evenings?|nights?|times?|minutes?|hours?|today|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\w+teenth|\w+tieth)$/;

interface Chunk {
  phrase: string;
  /** inside a prepositional phrase ("in the UAE region"): less likely to be what a later pronoun means */
  oblique: boolean;
  /** which comma-separated stretch of the sentence it is in */
  clause: number;
  /** the verb in its base form that acts on it in that stretch ("book" in "can you book the table") */
  verb?: string;
  /** said of something already named: "that's a committee thing", "it's an online course" */
  predicate: boolean;
}

const POINTING_SUBJECT = /^(?:that|it|this|which)$/;

// Amounts, deadlines and judgements are said about a thing, never the thing a task acts on ("That's
// plenty for a talk. Submit it.", "That one is my fault. I'll transfer it.").
const NOT_A_THING =
  /^(?:midnight|noon|deadline|plenty|fault|quid|bucks?|pounds?|euros?|dollars?|percent|lot|bit|idea|point|sense|mess|pleasure|shame|pity|favour|favor|deal|problem|thanks|cheers|sorry|okay|ok|hello|hi|bye|please)$/;

function fitsPointer(head: Token, pointer: Pointer, determined = false, task = false): boolean {
  if (TIME_NOUN.test(head.normal) || NOT_A_THING.test(head.normal)) return false;
  if (pointer === 'plural') return isPlural(head);
  if (pointer === 'person') return head.pos === 'PROPN';
  // "the Civic needs new brake pads… pick it up": a name with an article is a thing; "it" is never a
  // person ("an updated one signed by his doctor… I'll get it" gets the form, not the doctor).
  // "We need someone to call the caterer." "I'll do that.": a task done again may act on a person.
  return (
    (head.pos === 'NOUN' && !isPlural(head) && (task || !namesPerson(head.lemma))) ||
    (head.pos === 'PROPN' && determined)
  );
}

/** Noun phrases of a token run, each cut at a plural noun when one is wanted ("glasses prescription" → "glasses"). */
function chunksOf(tokens: Token[], pointer: Pointer, task = false): Chunk[] {
  const chunks: Chunk[] = [];
  let run: Token[] = [];
  let lead: Token | undefined;
  let clause = 0;
  let before: Token | undefined;
  let governing: Token | undefined;
  // Whether the run is said of a thing ("that 's a committee thing"): the two words before it, past a determiner.
  let copula = false;
  let subject: Token | undefined;
  let verb: Token | undefined;
  const flush = () => {
    // "the food handler certificate first": an adjective after the noun is not part of what is named.
    const cut = pointer === 'plural' ? run.findIndex(isPlural) : run.findLastIndex((token) => token.pos !== 'ADJ');
    const phrase = run.slice(0, cut + 1);
    const head = phrase.at(-1);
    const determined = before !== undefined && /^(?:the|my|our|your|his|her|their)$/i.test(before.normal);
    if (head !== undefined && fitsPointer(head, pointer, determined, task)) {
      // "the receipt", "the Civic": the article comes along, so the task reads as said.
      const article = before?.normal === 'the' && pointer !== 'person' ? 'the ' : '';
      chunks.push({
        // "Invitations, I'll print them": a common noun capitalised only by opening the sentence is lowercased.
        phrase: `${article}${phrase.map((token) => (token.pos === 'NOUN' && /^\p{Lu}\p{Ll}+$/u.test(token.value) ? token.normal : token.value)).join(' ')}`,
        oblique: lead?.pos === 'ADP',
        clause,
        verb: governing?.lemma,
        predicate: copula,
      });
    }
    run = [];
  };
  let previous: Token | undefined;
  for (const token of tokens) {
    if (CHUNK_TAGS.has(token.pos) && token.kind === 'word') {
      if (run.length === 0) {
        before = previous;
        // "This is the claim form" shows the thing; "that's a committee thing" says what kind it is.
        copula =
          verb?.lemma === 'be' &&
          subject !== undefined &&
          POINTING_SUBJECT.test(subject.normal) &&
          /^an?$/.test(previous?.normal ?? '');
      }
      run.push(token);
      previous = token;
      continue;
    }
    previous = token;
    if (token.pos !== 'DET') [subject, verb] = [verb, token];
    flush();
    if (token.kind === 'punctuation') {
      clause++;
      governing = undefined;
    }
    if (token.pos === 'VERB') governing = token;
    // Determiners and possessives sit between a preposition and its noun ("in the region", "to my manager").
    if (token.pos !== 'DET' && token.pos !== 'PRON') lead = token;
  }
  flush();
  return chunks;
}

/**
 * The noun phrase a pronoun most likely means. In the same sentence, the nearest one; in an earlier
 * sentence, the subject or object (not a noun inside a prepositional phrase) of its last stretch that
 * has one: "They want a revised timeline. Can you draft it?", "We'll cover the fee, send me the receipt."
 */
function salientChunk(found: Chunk[], sameSentence: boolean): Chunk | undefined {
  // "The water butt is cracked, that's a committee thing, I'll raise it": what is said of a thing is not it.
  const chunks = found.some((chunk) => !chunk.predicate) ? found.filter((chunk) => !chunk.predicate) : found;
  const arguments_ = chunks.filter((chunk) => !chunk.oblique);
  if (sameSentence) return arguments_.at(-1) ?? chunks.at(-1);
  const lastClause = arguments_.at(-1)?.clause;
  return arguments_.find((chunk) => chunk.clause === lastClause) ?? chunks.at(-1);
}

const ADDRESSED = /^(?:tell|ask|remind|thank|inform|warn|invite|call|ring|phone|contact)\b/i;
/** Verbs that stand in for the one said before: "I'll do it" after "can you book the table?" books it. */
const PRO_VERBS = /^(?:do|handle|sort)$/i;
const EMPTY_VERBS = new Set(['do', 'be', 'have', 'get', 'make', 'need', 'want', 'let', 'go']);

/** "Add it to the agenda": the pronoun does not mean a thing the line already names. */
function mentions(description: string, phrase: string): boolean {
  const head = phrase.split(' ').at(-1)?.toLowerCase() ?? '';
  return description.toLowerCase().split(/\W+/).includes(head);
}

const PREPOSITION = /^(?:to|with|for|from|about|at|on|by|of|into|onto|without|behind|after|before)$/;
const DEMONSTRATIVE = new Set(['that', 'this', 'these', 'those']);
// Words after which a demonstrative still stands alone ("send that over", "bring those by Friday").
const AFTER_STANDALONE =
  /^(?:up|out|off|back|down|over|in|on|to|for|with|at|by|from|too|also|again|today|tonight|tomorrow|first|later|now|then|and|or|before|after|when|once|this|next)$/;

/** Whether the word at index is a pronoun object rather than a determiner or a recipient before a noun phrase. */
// Words that can follow an object "her" ("call her back", "send her the file", "meet her at six").
const AFTER_OBJECT_HER =
  /^(?:up|back|over|in|out|off|down|around|along|through|a|an|the|some|this|that|these|those|tomorrow|today|tonight|now|later|soon|first|again|at|to|about|and|or|with|for|on|by|before|after|when|if|so|know|please|too|yet|every|each|once|twice|\d.*)$/;

/** "Call her back" holds the object "her"; "run her onboarding" a possessive, before a content word. */
export function herIsObject(next: string | undefined): boolean {
  return next === undefined || AFTER_OBJECT_HER.test(next.toLowerCase());
}

function standsAlone(words: string[], index: number): boolean {
  const next = words[index + 1];
  if (next === undefined) return true;
  if (words[index] === 'her' && !herIsObject(next)) return false;
  if (DEMONSTRATIVE.has(words[index])) return AFTER_STANDALONE.test(next);
  // "Send them the proposal": a pronoun followed by a noun phrase is the recipient, not the thing.
  return !RECIPIENT_BEFORE.test(next);
}

/** The first object pronoun after the verb: "Pick them up …" → "them", "Call the clinic to book it" → "it". */
export function objectPronoun(description: string, tokens: Token[]): { index: number; pointer: Pointer } | null {
  const raw = description.split(/\s+/);
  const words = raw.map((word) => word.toLowerCase().replace(/[^a-z]+$/, ''));
  // Past a comma the line says something else ("Send the voucher, thank them so much").
  const comma = raw.findIndex((word) => word.endsWith(','));
  const last = comma === -1 ? words.length : comma + 1;
  for (let index = 1; index < last; index++) {
    const pointer = POINTERS[words[index]];
    if (pointer === undefined || !standsAlone(words, index)) continue;
    // "… and email you" said to an unnamed speaker reads "email them": that pronoun is the listener.
    if (!tokens.some((token) => token.normal === words[index])) continue;
    // "Get the slides to them": after a preposition the pronoun is whom the task is for, not what it acts on.
    if (PREPOSITION.test(words[index - 1])) continue;
    if (namedEarlierInLine(words, index, pointer, tokens)) return null;
    return { index, pointer };
  }
  return null;
}

/** "Make flashcards and share them": a pronoun in a second, coordinated clause means the first one's object. */
function namedEarlierInLine(words: string[], index: number, pointer: Pointer, tokens: Token[]): boolean {
  const and = words.lastIndexOf('and', index);
  if (and < 2) return false;
  // The words before "and", as tagged in the sentence the line came from.
  const before = new Set(words.slice(1, and));
  return tokens.some((token) => before.has(token.normal) && fitsPointer(token, pointer));
}

/**
 * "I'm seeing my doctor on Tuesday, I'll ask her for the note": a person the wearer's own (or, from
 * someone else, "your") role noun names, when no name was said: "my doctor".
 */
function personNamedByRole(sentence: Sentence, tokens: Token[]): string | undefined {
  const own = sentence.isUser ? 'my' : 'your';
  for (let index = tokens.length - 1; index > 0; index--) {
    const token = tokens[index];
    if (token.pos !== 'NOUN' || !namesPerson(token.lemma) || isPlural(token)) continue;
    if (tokens[index - 1].normal === own) return `my ${token.normal}`;
    // "I'll send a plumber … let him in": someone brought in by their trade is "the plumber".
    const introduced = personIntroduced(tokens, index);
    if (introduced !== undefined) return introduced;
  }
  return undefined;
}

/**
 * Resolves "I have to buy them" to the nearest earlier noun phrase that fits the pronoun: the
 * start of the same sentence first, then up to three sentences back within the last two turns.
 */
export function antecedentFor(
  description: string,
  candidate: Candidate,
  analysis: Analysis,
  pronoun = objectPronoun(description, candidate.sentence.tokens),
): Antecedent | null {
  if (pronoun === null) return null;
  for (const { index, sentence, tokens } of lookBack(candidate, analysis)) {
    // "You have the copy. It's in the folder. I'll scan it": where the same "it" is passes it on.
    if (index !== candidate.sentenceIndex && locatesPronoun(analysis.sentences[index].text, pronoun.pointer)) continue;
    // A person is named by a name that reads as one (not "Saturdays", not a sentence's first word).
    const chunk =
      pronoun.pointer === 'person'
        ? undefined
        : salientChunk(
            chunksOf(withoutIdioms(tokens), pronoun.pointer, PRO_VERBS.test(description.split(/\s+/)[0] ?? '')).filter(
              (found) => !mentions(description, found.phrase),
            ),
            index === candidate.sentenceIndex,
          );
    // "Tell them it's urgent": whom one tells or asks is someone, never "the payslips" just named.
    const head = chunk?.phrase.split(' ').at(-1)?.replace(/s$/, '') ?? '';
    if (chunk !== undefined && pronoun.index === 1 && ADDRESSED.test(description) && !canBeAddressed(head))
      return { description, candidate: spanning(candidate, analysis, candidate.sentenceIndex) };
    const firm = chunk === undefined && pronoun.pointer === 'plural' && index === candidate.sentenceIndex;
    const who = pronoun.pointer === 'person' ? personNamedIn(sentence, tokens) : firm ? namedSubject(tokens) : null;
    const phrase = who ?? chunk?.phrase.replace(/^(?:my|your|our|his|her|their)\s+/i, '');
    if (phrase !== undefined)
      return resolved(description, pronoun.index, phrase, chunk?.verb, spanning(candidate, analysis, index));
  }
  // Nobody named: "I'm seeing my doctor on Tuesday, I'll ask her for the note" asks the doctor.
  if (pronoun.pointer !== 'person') return null;
  for (const { index, sentence, tokens } of lookBack(candidate, analysis)) {
    const role = personNamedByRole(sentence, tokens);
    if (role !== undefined)
      return resolved(description, pronoun.index, role, undefined, spanning(candidate, analysis, index));
  }
  return null;
}

/** "Of course, I'll send it": the course of "of course" is nothing to act on. */
export function withoutIdioms(tokens: Token[]): Token[] {
  return tokens.filter((token, at) => !(token.normal === 'course' && tokens[at - 1]?.normal === 'of'));
}

/** The line with the pronoun at `at` replaced by what it means, and "do it" by the verb said with it. */
function resolved(
  description: string,
  at: number,
  phrase: string,
  verb: string | undefined,
  candidate: Candidate,
): Antecedent {
  const words = description.split(/\s+/);
  words[at] = phrase;
  if (at === 1 && PRO_VERBS.test(words[0]) && verb !== undefined && !EMPTY_VERBS.has(verb))
    words[0] = verb.charAt(0).toUpperCase() + verb.slice(1);
  // "pick it up" → "pick up the Civic": the particle goes back before a named object.
  const particle = words[at + 1];
  if (particle !== undefined && PARTICLE.test(particle)) {
    words[at + 1] = words[at];
    words[at] = particle;
  }
  return { description: words.join(' '), candidate };
}
