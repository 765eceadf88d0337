import { assignWindows, type Candidate, type CueAt, type CueStrength, candidatesAt, DATED } from './action-clauses.js';
import type { Sentence } from './analysis.js';
import type { Token } from './nlp.js';
import { FILLERS, LIGHT_VERBS, TASK_VERBS } from './vocabulary.js';

/** A list item's number as said or typed: "Step one", "Number two", "3". */
export const ITEM_NUMBER =
  '(?:(?:step|number|point|item)\\s+)?(?:one|two|three|four|five|six|seven|eight|nine|ten|\\d{1,2})';

// "To do: send the thank-you emails": a memo's heading opens its list like a discourse word, and so does
// an item's number ("Step one: email Denise", "2) book the hall"); a dash may follow it ("Then — ask…").
const DISCOURSE_OPENERS = new RegExp(
  `^(?:(?:also|and|then|oh|okay|ok|so|um|uh|plus|first|second|third|fourth|next|finally|lastly|and then|please|anyway|right|just|go ahead and|try (?:and|to))\\b(?:[,\\s—–]|\\s-\\s)+|(?:my )?(?:to[- ]?do(?: list)?|to[- ]?dos|things to do(?: today)?|note to self|reminder)\\s*[:,-]\\s*|(?:[\\p{L}'’-]+\\s){0,3}[\\p{L}'’-]+:\\s+|${ITEM_NUMBER}\\s*(?:[:.),]|\\s[—–-])\\s+)*`,
  'iu',
);

// "By Monday, …", "Tomorrow morning, …", "When you get home, …": a fronted time or circumstance.
const FRONTED =
  /^(?:(?:by|on|before|after|until|this|next|first thing|tomorrow|tonight|today|later|when|once|as soon as)\b[^,]{0,40},\s*|(?:in the meantime|meanwhile|for now|from now on|at home|for (?:next|this) \w+|for homework)\b,?\s*)/i;

function openerLength(text: string): number {
  const discourse = DISCOURSE_OPENERS.exec(text)?.[0].length ?? 0;
  const fronted = FRONTED.exec(text.slice(discourse))?.[0].length ?? 0;
  return discourse + fronted + (DISCOURSE_OPENERS.exec(text.slice(discourse + fronted))?.[0].length ?? 0);
}

/**
 * The verb opening an imperative: a task verb, or (for a request addressed to the wearer) any verb wink
 * tags in its base form that is not a light verb ("fill in the form", "renew the parking permit").
 */
function imperativeVerb(sentence: Sentence, word: string, addressed: boolean): boolean {
  if (FILLERS.has(word)) return false;
  const verbToken = sentence.tokens.find((token) => token.normal === word);
  if (verbToken !== undefined && verbToken.lemma !== word) return false;
  if (TASK_VERBS.has(word)) return true;
  // Beyond the task verbs, an instruction is a task only with a date ("By Monday, fill in the form"):
  // "lift your arm", "sit down" are done on the spot.
  if (!addressed || verbToken?.pos !== 'VERB' || !DATED.test(sentence.text)) return false;
  // "Keep a symptom diary until the follow-up", "Take the drops until Friday": a light verb with its
  // object and a date is an instruction to carry on; "take a seat" has neither.
  return !LIGHT_VERBS.has(word) || (CARRY_ON.has(word) && objectFollows(sentence, verbToken));
}

const CARRY_ON = new Set(['keep', 'take', 'use', 'give']);

function objectFollows(sentence: Sentence, verb: Token): boolean {
  const next = sentence.tokens[sentence.tokens.indexOf(verb) + 1];
  return next !== undefined && (next.pos === 'DET' || next.pos === 'NOUN' || next.pos === 'PRON');
}

const OBJECT_START = new Set(['DET', 'NOUN', 'PROPN', 'NUM', 'ADJ', 'PRON']);

/**
 * In a memo, any verb in its base form followed by what it acts on opens an instruction to oneself
 * ("Take the iron tablets", "keep a food diary"), even a light one; "take care", "make sure" have none.
 */
function memoVerb(sentence: Sentence, word: string, at: number): boolean {
  if (FILLERS.has(word)) return false;
  // A task verb needs no object check ("send thank-you emails", where wink reads "thank" as a verb).
  if (TASK_VERBS.has(word)) return true;
  const index = sentence.tokens.findIndex((token, position) => position >= at && token.normal === word);
  const verb = sentence.tokens[index];
  if (verb === undefined || verb.pos !== 'VERB' || verb.lemma !== verb.normal) return false;
  const next = sentence.tokens[index + 1];
  const object = next?.pos === 'ADP' ? sentence.tokens[index + 2] : next;
  return object !== undefined && OBJECT_START.has(object.pos) && object.normal !== 'sure';
}

// "Design review is Wednesday", "Purchase orders are late": a bare noun compound before a copula is the
// subject of a statement, not an imperative and its object ("Check the oven is off" has its determiner).
const SUBJECT_OF_COPULA =
  /^[a-z]+\s+(?!(?:the|a|an|my|your|our|his|her|their|this|that|these|those|it|them|him|me|us)\b)[a-z-]+(?:\s+[a-z-]+)?\s+(?:is|are|was|were)\b/i;

/** Where each comma-separated stretch of a memo sentence starts, with the token count before it. */
function stretchStarts(sentence: Sentence): Array<{ offset: number; tokensBefore: number }> {
  const starts = [{ offset: 0, tokensBefore: 0 }];
  // The commas' token positions, in one pass (a sentence of thousands of commas stays linear).
  const commaTokens: number[] = [];
  sentence.tokens.forEach((token, index) => {
    if (token.value === ',') commaTokens.push(index);
  });
  let commas = 0;
  for (const match of sentence.text.matchAll(/,\s+/g)) {
    const tokensBefore = (commaTokens[commas] ?? -1) + 1;
    commas++;
    starts.push({ offset: (match.index ?? 0) + match[0].length, tokensBefore });
  }
  return starts;
}

/** "Balloons, get the balloons", "And personal, buy a present": a memo's instruction after a fronted topic. */
export function memoImperatives(sentence: Sentence, sentenceIndex: number): Candidate[] {
  if (sentence.text.trim().endsWith('?')) return [];
  const found: Candidate[] = [];
  for (const { offset, tokensBefore } of stretchStarts(sentence)) {
    const rest = sentence.text.slice(offset);
    const opener = offset + openerLength(rest);
    // "Follow-up is in six weeks": a word run on by a hyphen is a noun, not the verb.
    const word = /^[A-Za-z]+(?!-)\b/.exec(sentence.text.slice(opener))?.[0].toLowerCase() ?? '';
    if (!memoVerb(sentence, word, tokensBefore) || SUBJECT_OF_COPULA.test(sentence.text.slice(opener))) continue;
    // A task verb needs no further cue; another verb with its object needs a date (see verbAllowed).
    const strength: CueStrength = TASK_VERBS.has(word) ? 'strong' : 'medium';
    found.push(...candidatesAt({ sentence, sentenceIndex, kind: 'imperative', strength, cueStart: opener }, opener));
  }
  return assignWindows(found);
}

/** Memos are full of bare imperatives ("Pay the credit card bill by Friday."): a task verb opening a sentence. */
export function imperativeCandidates(sentence: Sentence, sentenceIndex: number, addressed = false): Candidate[] {
  if (sentence.text.trim().endsWith('?')) return [];
  // Said to the wearer, an instruction can follow a first stretch: "Next week, same time, and bring your shoes".
  const starts = addressed ? stretchStarts(sentence).map((start) => start.offset) : [0];
  const found: Candidate[] = [];
  for (const start of starts) {
    const opener = start + openerLength(sentence.text.slice(start));
    const firstWord = /^[A-Za-z]+/.exec(sentence.text.slice(opener))?.[0].toLowerCase() ?? '';
    if (!imperativeVerb(sentence, firstWord, addressed) || SUBJECT_OF_COPULA.test(sentence.text.slice(opener)))
      continue;
    // The verb was vetted above; a request addressed to the wearer then needs no further cue.
    const cue: CueAt = addressed
      ? { sentence, sentenceIndex, kind: 'request', strength: 'strong', cueStart: opener }
      : { sentence, sentenceIndex, kind: 'imperative', strength: 'medium', cueStart: opener };
    found.push(...candidatesAt(cue, opener));
    break;
  }
  return assignWindows(found);
}
