import type { Analysis, Sentence } from './analysis.js';
import type { Token } from './nlp.js';
import { TASK_VERBS } from './vocabulary.js';

/**
 * How much a cue commits: strong ("I'll"), medium ("I should", requests), weak ("we should", "I want to"),
 * planned (a present progressive or simple present, "I'm calling the landlord tonight", "I call the bank
 * tomorrow": a plan only with a date ahead).
 */
export type CueStrength = 'strong' | 'medium' | 'weak' | 'planned';
export type CueKind = 'commitment' | 'request' | 'reminder' | 'imperative';

/** A cue found in a sentence: the clause that follows it is the candidate task. */
export interface Candidate {
  sentence: Sentence;
  sentenceIndex: number;
  kind: CueKind;
  strength: CueStrength;
  /** where the cue starts, in sentence.text */
  cueStart: number;
  /** where the cue ends and the clause starts, in sentence.text */
  clauseStart: number;
  clauseEnd: number;
  /** the stretch of the sentence this cue owns: from the previous cue's clause to the next cue */
  windowStart: number;
  windowEnd: number;
  /** the clause as spoken, starting at its verb */
  clause: string;
  /** for a need stated to the wearer ("I need your feedback by Friday"): the verb the to-do starts with */
  impliedVerb?: string;
}

const PRONOUN_SUBJECT =
  "(?:i|you|he|she|we|they|it|it's|there|that's|everyone|everybody|nobody|someone|somebody|people)";
const CLAUSE_END = new RegExp(
  `(?<!\\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|vs|etc))\\.(?!\\d)|[!?;:]|,\\s+(?=(?:set a|remind me|don't forget|remember to|thanks?|thank you|(?:and,?\\s+)?(?:how|what) about)\\b)|,\\s+(?=(?:${PRONOUN_SUBJECT}|the|this|that|so|but|because|which|who|since|then|and ${PRONOUN_SUBJECT})\\b)` +
    // "sign the consent form — I'll put it in her bag tomorrow — and return it": a dash sets off an aside
    // with a subject of its own ("the mechanisms — SN1, SN2 — and flashcards" is one object).
    `|\\s+[—–]\\s+(?=(?:${PRONOUN_SUBJECT}|i'll|i'm|we'll)\\b)` +
    // "I'll transfer you the money tonight, send me the account again": a request back starts its own clause.
    `|,\\s+(?=[a-z]+ (?:me|us)\\b)` +
    // "buy the fabric, Ngozi sent the colour": someone else's report starts a clause of its own.
    `|,\\s+(?=[a-z]+ (?:sent|said|says|told|asked|wants|thinks|reckons)\\b)` +
    // "book flights, prices are going up": a subject and its verb after a comma start another clause;
    // "bring the booklet, and don't feed her": so does a prohibition.
    `|,\\s+(?=(?:[a-z]+ ){1,2}(?:is|are|was|were|has|have)\\s+(?!to\\b)[a-z]+ing\\b)` +
    // "buy a card for Mom, her birthday is next Wednesday": a possessed subject and its verb start one too.
    `|,\\s+(?=(?:his|her|their|my|our|its|your) (?:[a-z'-]+ ){0,2}(?:is|are|was|were|has|have|had)\\b)` +
    `|,?\\s+(?=and (?:don'?t|do not|never)\\b)` +
    // "a polite but firm email": a "but" between the adjectives of one noun phrase ends nothing.
    `|(?<!\\b(?:a|an)\\s+[\\w-]+)\\s+(?=but\\b)` +
    `|\\s+(?=(?:because|since|so that|so ${PRONOUN_SUBJECT}|while|though|although|unless|if|whereas|otherwise|` +
    `and ${PRONOUN_SUBJECT}|(?:before|after|when|once|as soon as|until) ${PRONOUN_SUBJECT}|in case)\\b)`,
  'i',
);
// "I'll start preparing the licensing documents": the task is the verb started on.
const LEADING_ADVERBS =
  /^(?:(?:also|just|really|definitely|probably|actually|finally|quickly|still|then|first|properly|totally|absolutely|please|go ahead and|try and|(?:start|begin|get started)(?=\s+[a-z]+ing\b))\s+)+/i;

// "bring the, uh, the spare key": a phrase cut off after a determiner, preposition or filler goes on.
const UNFINISHED = /\b(?:the|a|an|my|your|our|their|to|of|for|with|uh|um|er|erm|like)$/i;

// "the cream, the Hirudoid, for bruises", "the bug Sara reported, the VAT rounding one?": a name or a
// "the … one" after a comma names the same thing again; the clause goes on past it.
const APPOSITIVE = /^,\s+the\s+(?:\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*|(?:[\p{L}'-]+\s+){1,2}one)\s*(?:[,.?!;]|$)/u;

export function clauseAt(text: string, start: number): { start: number; end: number } {
  const adverbs = LEADING_ADVERBS.exec(text.slice(start));
  const clauseStart = start + (adverbs?.[0].length ?? 0);
  let from = clauseStart;
  for (let attempt = 0; attempt < 4; attempt++) {
    const end = CLAUSE_END.exec(text.slice(from));
    if (end === null) break;
    const at = from + end.index;
    const before = text.slice(clauseStart, at).replace(/[\s,]*(?:uh|um|er|erm)?[\s,]*$/i, '');
    const unfinished = UNFINISHED.test(before) || /\b(?:uh|um|er|erm)$/i.test(text.slice(clauseStart, at).trim());
    if (!unfinished && !APPOSITIVE.test(text.slice(at))) {
      return { start: clauseStart, end: at };
    }
    from = at + Math.max(1, end[0].length);
  }
  const end = CLAUSE_END.exec(text.slice(from));
  return { start: clauseStart, end: end === null ? text.length : from + end.index };
}

export const DATED =
  /\b(?:today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|next|by|before|end of|this (?:week|month|morning|afternoon|evening)|\d{1,2}(?:st|nd|rd|th)|january|february|march|april|june|july|august|september|october|november|december)\b/i;

// "print the confirmation and buy an adapter": a second task verb with its own object is a second task.
const COORDINATED_TASK =
  /,? and (?:then |also |uh |um |er )*([a-z]+) (?=(?:a|an|the|my|our|your|his|her|their|this|that|these|those|some|more|new|another|extra|two|three|\d+)\b)/gi;

/** What a cue says of its candidate before the clause is found: who, how strongly, where the cue starts. */
export type CueAt = Pick<Candidate, 'sentence' | 'sentenceIndex' | 'kind' | 'strength' | 'cueStart' | 'impliedVerb'>;

/** The candidates of a cue whose clause opens at `from`: the clause to its end, split at a coordinated task. */
export function candidatesAt(cue: CueAt, from: number): Candidate[] {
  const span = clauseAt(cue.sentence.text, from);
  return splitCoordinated({
    ...cue,
    clauseStart: span.start,
    clauseEnd: span.end,
    windowStart: 0,
    windowEnd: 0,
    clause: '',
  });
}

export function splitCoordinated(candidate: Candidate): Candidate[] {
  const text = candidate.sentence.text;
  const parts: Candidate[] = [];
  let start = candidate.clauseStart;
  for (const match of text.slice(candidate.clauseStart, candidate.clauseEnd).matchAll(COORDINATED_TASK)) {
    if (!TASK_VERBS.has(match[1].toLowerCase())) continue;
    const at = candidate.clauseStart + (match.index ?? 0);
    parts.push({ ...candidate, clauseStart: start, clauseEnd: at });
    start = at + match[0].length - match[1].length - 1;
  }
  parts.push({ ...candidate, clauseStart: start, clauseEnd: candidate.clauseEnd });
  return parts.map((part, index) => ({
    ...part,
    cueStart: index === 0 ? part.cueStart : part.clauseStart,
    clause: text.slice(part.clauseStart, part.clauseEnd).trim(),
  }));
}

/** The index of the sentence's first token at or after a character offset of its text, or -1. */
export function tokenIndexAt(sentence: Sentence, offset: number): number {
  let position = 0;
  for (let index = 0; index < sentence.tokens.length; index++) {
    const found = sentence.text.indexOf(sentence.tokens[index].value, position);
    if (found === -1) return -1;
    if (found >= offset) return index;
    position = found + sentence.tokens[index].value.length;
  }
  return -1;
}

/** Dates are looked for only between the previous cue's clause and the next cue, so each task keeps its own. */
export function assignWindows(candidates: Candidate[]): Candidate[] {
  const sorted = [...candidates].sort((a, b) => a.clauseStart - b.clauseStart);
  return sorted.map((candidate, index) => ({
    ...candidate,
    windowStart: index === 0 ? 0 : sorted[index - 1].clauseEnd,
    windowEnd: index === sorted.length - 1 ? candidate.sentence.text.length : sorted[index + 1].cueStart,
  }));
}

function tokensBefore(sentence: Sentence, offset: number): Token[] {
  const end = tokenIndexAt(sentence, offset);
  return end === -1 ? sentence.tokens : sentence.tokens.slice(0, end);
}

const LOOK_BACK_SENTENCES = 3;

/** A candidate spanning a whole earlier sentence (or its own up to the cue), so its dates can be read. */
export function spanning(candidate: Candidate, analysis: Analysis, sentenceIndex: number): Candidate {
  const sentence = analysis.sentences[sentenceIndex];
  const length = sentence.text.length;
  const end = sentenceIndex === candidate.sentenceIndex ? candidate.cueStart : length;
  return {
    ...candidate,
    sentence,
    sentenceIndex,
    cueStart: 0,
    clauseStart: 0,
    clauseEnd: end,
    windowStart: 0,
    windowEnd: end,
    clause: sentence.text.slice(0, end),
  };
}

/** The sentences a pronoun may point back into: its own up to the cue, then three more within two turns. */
export function* lookBack(
  candidate: Candidate,
  analysis: Analysis,
): Generator<{ index: number; sentence: Sentence; tokens: Token[] }> {
  for (let back = 0; back <= LOOK_BACK_SENTENCES; back++) {
    const index = candidate.sentenceIndex - back;
    const sentence = analysis.sentences[index];
    if (sentence === undefined || sentence.turn < candidate.sentence.turn - 2) return;
    yield { index, sentence, tokens: back === 0 ? tokensBefore(sentence, candidate.cueStart) : sentence.tokens };
  }
}

const LOCATED = '\\s+(?:still\\s+|just\\s+)?(?:in|on|at|under|inside|behind|next to|upstairs|downstairs|somewhere)\\b';
const SAME_POINTER: Record<string, RegExp> = {
  thing: new RegExp(`^it(?:'s| is| was)${LOCATED}`, 'i'),
  plural: new RegExp(`^they(?:'re| are| were)${LOCATED}`, 'i'),
};

/** "It's in the folder in my office": a sentence saying where the same "it" (or "they") is. */
export function locatesPronoun(text: string, pointer: string): boolean {
  return SAME_POINTER[pointer]?.test(text) ?? false;
}
