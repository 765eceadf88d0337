import type { Analysis, Sentence } from './analysis.js';
import { FILLERS, LIGHT_VERBS, TASK_VERBS } from './vocabulary.js';

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

interface Cue {
  pattern: RegExp;
  kind: CueKind;
  strength: CueStrength;
  impliedVerb?: string;
}

const SELF_CUES: Cue[] = [
  {
    pattern:
      /\b(?:remind me to|don'?t (?:let me )?forget to|do not forget to|remember to|note to self\s*[:,-]?|make a note to|set a reminder to|reminder(?: for me)?\s*[:,-]\s*(?:i need to|i have to|to)?)\s+/gi,
    kind: 'reminder',
    strength: 'strong',
  },
  {
    pattern:
      /\b(?:i'll|i will|i need to|i have to|i've got to|i got to|i gotta|i must|i'm going to|i am going to|i'm gonna|i plan to|i'm planning to|i still need to|i still have to)\s+/gi,
    kind: 'commitment',
    strength: 'strong',
  },
  {
    pattern: /\b(?:we need to|we have to|we've got to|we must|i should|i ought to|let me)\s+/gi,
    kind: 'commitment',
    strength: 'medium',
  },
  { pattern: /\b(?:we should|i want to|i'd like to|we'll|let's)\s+/gi, kind: 'commitment', strength: 'weak' },
  // The progressive with a future time is English's arranged plan ("Tomorrow I'm mailing the contract").
  {
    pattern: /\b(?:i'm|i am)\s+(?:(?:also|just|finally|definitely|still)\s+)?(?=(?!going\b|gonna\b)[a-z]+ing\b)/gi,
    kind: 'commitment',
    strength: 'planned',
  },
  // So is the simple present with one ("Tomorrow I renew the registration", "I call Dr. Sousa tomorrow").
  {
    pattern: /\bi\s+(?:(?:also|just|then|first)\s+)?(?=[a-z]+\s)/gi,
    kind: 'commitment',
    strength: 'planned',
  },
];

const OTHER_CUES: Cue[] = [
  {
    pattern:
      /\b(?:can you|could you|would you|will you|can u|i need you to|i'd like you to|make sure (?:you|to)|you need to|you have to|you've got to|don'?t forget to|remember to|please|you'll need to|you will need to|you should|you must|i want you to|i'll need you to|i(?:'d| would)? (?:advise|recommend|suggest) (?:you to|that you)|you might want to|be sure to)\s+/gi,
    kind: 'request',
    strength: 'medium',
  },
  { pattern: /\b(?:we need to|we have to|we've got to|we must)\s+/gi, kind: 'commitment', strength: 'medium' },
  // Someone's need of a thing, said to the wearer, asks the wearer to send it ("I need the signed form by Friday").
  {
    pattern:
      /\b(?:i|we)(?:'ll| will)? (?:also |still |just )?need (?=(?:your|the|a|an|both|all|those|these|his|her|their)\s)/gi,
    kind: 'request',
    strength: 'medium',
    impliedVerb: 'send',
  },
];

const PRONOUN_SUBJECT = "(?:i|you|he|she|we|they|it|it's|there|that's)";
const CLAUSE_END = new RegExp(
  `(?<!\\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|vs|etc))\\.(?!\\d)|[!?;:]|,\\s+(?=(?:set a|remind me|don't forget|remember to|thanks?|thank you)\\b)|,\\s+(?=(?:${PRONOUN_SUBJECT}|the|this|that|so|but|because|which|who|since|then|and ${PRONOUN_SUBJECT})\\b)` +
    `|\\s+(?=(?:but|because|since|so that|so ${PRONOUN_SUBJECT}|while|though|although|unless|if|whereas|otherwise|` +
    `and ${PRONOUN_SUBJECT}|(?:before|after|when|once|as soon as|until) ${PRONOUN_SUBJECT}|in case)\\b)`,
  'i',
);
const LEADING_ADVERBS =
  /^(?:(?:also|just|really|definitely|probably|actually|finally|quickly|still|then|first|properly|totally|absolutely|please|go ahead and|try and)\s+)+/i;

// "bring the, uh, the spare key": a phrase cut off after a determiner, preposition or filler goes on.
const UNFINISHED = /\b(?:the|a|an|my|your|our|their|to|of|for|with|uh|um|er|erm|like)$/i;

function clauseAt(text: string, start: number): { start: number; end: number } {
  const adverbs = LEADING_ADVERBS.exec(text.slice(start));
  const clauseStart = start + (adverbs?.[0].length ?? 0);
  let from = clauseStart;
  for (let attempt = 0; attempt < 4; attempt++) {
    const end = CLAUSE_END.exec(text.slice(from));
    if (end === null) break;
    const at = from + end.index;
    const before = text.slice(clauseStart, at).replace(/[\s,]*(?:uh|um|er|erm)?[\s,]*$/i, '');
    if (!UNFINISHED.test(before) && !/\b(?:uh|um|er|erm)$/i.test(text.slice(clauseStart, at).trim())) {
      return { start: clauseStart, end: at };
    }
    from = at + Math.max(1, end[0].length);
  }
  const end = CLAUSE_END.exec(text.slice(from));
  return { start: clauseStart, end: end === null ? text.length : from + end.index };
}

function cuesFor(sentence: Sentence, analysis: Analysis): Cue[] {
  if (!analysis.dialogue || sentence.isUser) return SELF_CUES;
  return OTHER_CUES;
}

const DATED =
  /\b(?:today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|next|by|before|end of|this (?:week|month|morning|afternoon|evening)|\d{1,2}(?:st|nd|rd|th)|january|february|march|april|june|july|august|september|october|november|december)\b/i;

function candidatesFromCues(sentence: Sentence, sentenceIndex: number, cues: Cue[]): Candidate[] {
  const found: Candidate[] = [];
  for (const cue of cues) {
    // A plan is one only with a date: without a time word the sentence holds none.
    if (cue.strength === 'planned' && !DATED.test(sentence.text)) continue;
    for (const match of sentence.text.matchAll(cue.pattern)) {
      const cueStart = match.index ?? 0;
      const cueEnd = cueStart + match[0].length;
      if (found.some((other) => cueEnd > other.clauseStart - 1 && cueEnd <= other.clauseEnd)) continue;
      const span = clauseAt(sentence.text, cueEnd);
      const base = {
        sentence,
        sentenceIndex,
        kind: cue.kind,
        strength: cue.strength,
        cueStart,
        impliedVerb: cue.impliedVerb,
      };
      found.push(
        ...splitCoordinated({
          ...base,
          clauseStart: span.start,
          clauseEnd: span.end,
          windowStart: 0,
          windowEnd: 0,
          clause: '',
        }),
      );
    }
  }
  return assignWindows(found.filter((candidate) => candidate.clause !== ''));
}

// "print the confirmation and buy an adapter": a second task verb with its own object is a second task.
const COORDINATED_TASK = /,? and (?:then |also |uh |um |er )*([a-z]+) (?=(?:a|an|the|my|our|some|two|three|\d+)\b)/gi;

function splitCoordinated(candidate: Candidate): Candidate[] {
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

const DISCOURSE_OPENERS =
  /^(?:(?:also|and|then|oh|okay|ok|so|um|uh|plus|first|next|finally|and then|please|anyway|right)\b[,\s]+)*/i;

// "By Monday, …", "Tomorrow morning, …", "When you get home, …": a fronted time or circumstance.
const FRONTED =
  /^(?:(?:by|on|before|after|until|this|next|first thing|tomorrow|tonight|today|later|when|once|as soon as)\b[^,]{0,40},\s*)/i;

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
  return addressed && verbToken?.pos === 'VERB' && !LIGHT_VERBS.has(word) && DATED.test(sentence.text);
}

const OBJECT_START = new Set(['DET', 'NOUN', 'PROPN', 'NUM', 'ADJ', 'PRON']);

/**
 * In a memo, any verb in its base form followed by what it acts on opens an instruction to oneself
 * ("Take the iron tablets", "keep a food diary"), even a light one; "take care", "make sure" have none.
 */
function memoVerb(sentence: Sentence, word: string, at: number): boolean {
  if (FILLERS.has(word)) return false;
  const index = sentence.tokens.findIndex((token, position) => position >= at && token.normal === word);
  const verb = sentence.tokens[index];
  if (verb === undefined || verb.pos !== 'VERB' || verb.lemma !== verb.normal) return TASK_VERBS.has(word);
  const next = sentence.tokens[index + 1];
  const object = next?.pos === 'ADP' ? sentence.tokens[index + 2] : next;
  return object !== undefined && OBJECT_START.has(object.pos) && object.normal !== 'sure';
}

/** Where each comma-separated stretch of a memo sentence starts, with the token count before it. */
function stretchStarts(sentence: Sentence): Array<{ offset: number; tokensBefore: number }> {
  const starts = [{ offset: 0, tokensBefore: 0 }];
  let commas = 0;
  for (const match of sentence.text.matchAll(/,\s+/g)) {
    commas++;
    const tokensBefore = nthIndex(sentence, ',', commas) + 1;
    starts.push({ offset: (match.index ?? 0) + match[0].length, tokensBefore });
  }
  return starts;
}

function nthIndex(sentence: Sentence, value: string, count: number): number {
  let seen = 0;
  return sentence.tokens.findIndex((token) => token.value === value && ++seen === count);
}

/** "Balloons, get the balloons", "And personal, buy a present": a memo's instruction after a fronted topic. */
function memoImperatives(sentence: Sentence, sentenceIndex: number): Candidate[] {
  if (sentence.text.trim().endsWith('?')) return [];
  const found: Candidate[] = [];
  for (const { offset, tokensBefore } of stretchStarts(sentence)) {
    const rest = sentence.text.slice(offset);
    const opener = offset + openerLength(rest);
    const word = /^[A-Za-z]+/.exec(sentence.text.slice(opener))?.[0].toLowerCase() ?? '';
    if (!memoVerb(sentence, word, tokensBefore)) continue;
    const span = clauseAt(sentence.text, opener);
    // A task verb needs no further cue; another verb with its object needs a date (see verbAllowed).
    const strength: CueStrength = TASK_VERBS.has(word) ? 'strong' : 'medium';
    const base = { sentence, sentenceIndex, kind: 'imperative' as const, strength };
    const candidate = { ...base, cueStart: opener, clauseStart: span.start, clauseEnd: span.end };
    found.push(...splitCoordinated({ ...candidate, windowStart: 0, windowEnd: 0, clause: '' }));
  }
  return assignWindows(found);
}

/** Memos are full of bare imperatives ("Pay the credit card bill by Friday."): a task verb opening a sentence. */
function imperativeCandidates(sentence: Sentence, sentenceIndex: number, addressed = false): Candidate[] {
  if (sentence.text.trim().endsWith('?')) return [];
  const opener = openerLength(sentence.text);
  const firstWord = /^[A-Za-z]+/.exec(sentence.text.slice(opener))?.[0].toLowerCase() ?? '';
  if (!imperativeVerb(sentence, firstWord, addressed)) return [];
  const span = clauseAt(sentence.text, opener);
  // The verb was vetted above; a request addressed to the wearer then needs no further cue.
  const base: Pick<Candidate, 'sentence' | 'sentenceIndex' | 'kind' | 'strength' | 'cueStart'> = addressed
    ? { sentence, sentenceIndex, kind: 'request', strength: 'strong', cueStart: opener }
    : { sentence, sentenceIndex, kind: 'imperative', strength: 'medium', cueStart: opener };
  return assignWindows(
    splitCoordinated({
      ...base,
      clauseStart: span.start,
      clauseEnd: span.end,
      windowStart: 0,
      windowEnd: 0,
      clause: '',
    }),
  );
}

/** Someone's requests can only be the wearer's tasks when the wearer takes part in the conversation. */
function wearerListens(analysis: Analysis): boolean {
  return analysis.attribution !== 'absent';
}

function withImperatives(plans: Candidate[], sentence: Sentence, sentenceIndex: number): Candidate[] {
  const imperatives = memoImperatives(sentence, sentenceIndex);
  if (imperatives.length === 0) return plans;
  const inside = (plan: Candidate) =>
    imperatives.some((item) => plan.cueStart >= item.clauseStart && plan.cueStart < item.clauseEnd);
  return assignWindows([...imperatives, ...plans.filter((plan) => !inside(plan))]);
}

/** Every cue in the conversation, in order of speech. */
export function findCandidates(analysis: Analysis): Candidate[] {
  const candidates: Candidate[] = [];
  analysis.sentences.forEach((sentence, index) => {
    const fromCues = candidatesFromCues(sentence, index, cuesFor(sentence, analysis));
    // A plan in the present is the weakest cue: it does not hide the imperative opening the sentence.
    const onlyPlans = fromCues.every((candidate) => candidate.strength === 'planned');
    if (!analysis.dialogue && onlyPlans) candidates.push(...withImperatives(fromCues, sentence, index));
    else if (fromCues.length > 0) candidates.push(...fromCues);
    // Another speaker's imperative is addressed to the listener: in a wearer's recording, the wearer.
    else if (!sentence.isUser && wearerListens(analysis))
      candidates.push(...imperativeCandidates(sentence, index, true));
  });
  return candidates;
}
