import type { Analysis, Sentence } from './analysis.js';
import { DATED_BACK, MILESTONE_VERBS } from './memory-habits.js';
import { KIN_WORDS } from './memory-shapes.js';
import { withoutLeadIn } from './memory-sources.js';
import { parseTokens } from './nlp.js';
import { squeezeSpaces } from './text.js';
import { toThirdPerson } from './third-person.js';
import { FUNCTION_WORDS, PARTICLE } from './vocabulary.js';

/** How the wearer's sentences are cut into fact clauses, and a clause rewritten around the user. */

export const MAX_WORDS = 15;
const MAX_CLAUSES = 24;

// "I've cut sugar since my doctor said I'm prediabetic": what a clinician found is a clause of its own;
// so is a new subject after "and" ("…for twelve years and parking has never been this bad").
const CLAUSE_SPLIT =
  /\s+(?:(?:since|because|as|after|when) )?(?:my|the|our) (?:doctor|gp|dentist|physio|specialist|consultant|nurse|cardiologist|tests?|results?|scan|bloods?) (?:said|says|told me|found|showed)(?: that)?\s+(?=I\b)|\s*(?:[;:—]|,\s*(?:but|so|and|because|though|which|although|since|if|unless)\b|,\s+(?=(?:he|she|they|I|we|my|our)\b)|\s(?:and|but) (?=(?:I|this|that|it|he|she|they|we)\b)|\s(?:and|but) (?=(?:the )?[a-z]+ (?:has|have|is|was|were) (?:never|always|been|not|so|really)\b)|\s(?:when|after|until|because|cause|cos) (?=I\b)|\.\.\.)\s*/i;
const PAIR_SUBJECT = new RegExp(
  `^(?:(?:my|our) (?:(?:little|big|older|younger|best) )?${KIN_WORDS}|\\p{Lu}\\p{Ll}+) and I(?=\\s)`,
  'iu',
);
// Holds a pair's "and I" together through the clause split: a word joiner is no space.
const JOINED = '\u2060';
const OPENERS =
  /^(?:(?:yeah|yes|no|well|so|and|but|honestly|actually|oh|okay|ok|um|uh|hi|hey|anyway|also|plus|like|now|sure|right)\b[,!.\s]*|(?:listen|look|see|mind you),\s*)+/i;
// A second subject starts a second clause: "I'm lactose intolerant I've been reading labels".
// "since I was a kid" belongs to the fact before it.
const FACT_END =
  /,\s|\s+(?:so|because|but|who|which|where|while|when|in case|by the way)\s|(?<!\b(?:in|on|at|for|from|to|with|of|about|by|into|like|all))\s+that\s|(?<!\b(?:since|as|than|before|after|until))\s(?=I(?:'m|'ve|'d|'ll)?\s)|(?<!\b(?:since|as|than|before|after|until|when|while|where|if|because|and|but|so))\s(?=(?:we|he|she|they) (?:had|have|were|was|used|lived|did|got|would)\b)/i;
const FRONTED_CIRCUMSTANCE = /^(?:ever since|since|after|because of) [^,]{3,60}? (?=I(?:'m|'ve|'d)? )/i;
// "Nine years I've been a pharmacy tech", "Eleven years I'm doing this in Dubai": the span said first.
const SPAN_COUNT =
  '(?!(?:the|those|these|last|next|first|past)\\b)(?:\\d+|a few|a couple of|(?:almost|nearly|over|about) [\\w-]+|[\\w-]+) (?:years?|decades?|months)';
const SPAN_FIRST = new RegExp(`^(${SPAN_COUNT}),?\\s+(?:now,?\\s+)?I(?:'ve| have) been (.+)$`, 'i');
const SPAN_FIRST_ING = new RegExp(`^(${SPAN_COUNT}),?\\s+(?:now,?\\s+)?I(?:'m| am) (\\w+ing\\b.+)$`, 'i');
// "(laughs) Five years a deacon": a stage direction before the words.
const ASIDE = /^(?:[([][^)\]]{0,40}[)\]]\s*)+/;

// "Four years at Maple & Finch and I'm still a senior associate": a span at a place of work, said verbless.
const SPAN_AT = new RegExp(
  `^(?!(?:[Ss]econd|[Tt]hird|[Ff]ourth|[Ff]ifth|[Ff]inal|[Ll]ast)\\b)(${SPAN_COUNT}) (?:now )?(?:at|with) (\\p{Lu}[\\p{L}&'-]*(?: (?:&|and|of) \\p{Lu}[\\p{L}'-]*| \\p{Lu}[\\p{L}'-]*){0,3})(?=$|,| and\\b| now\\b)`,
  'u',
);

/** The span said first put after its clause, the order the clause rules read: "I've been a pharmacy tech for nine years". */
function spanLast(clause: string): string {
  const at = SPAN_AT.exec(clause);
  if (at !== null) return `I've been at ${at[2]} for ${at[1].toLowerCase()}`;
  const match = SPAN_FIRST.exec(clause) ?? SPAN_FIRST_ING.exec(clause);
  return match === null ? clause : `I've been ${match[2]} for ${match[1].toLowerCase()}`;
}

export const NOT_A_FACT =
  /\b(?:if|would|wish|maybe|might|tomorrow|next week|tonight|gonna)\b|(?<!\bbeen )\bgoing to\b|\bI'd\b|\bI'll\b|(?<!\b(?:always|ever|never) )\b(?:just )?wanted to (?:ask|check|say|tell|go|talk|see|know|let|confirm|follow)\b/i;

// "Still allergic to shrimp, yes.", "Except herring. Still hate herring.": a reply that drops its subject.
// "Still allergic, yeah.", with nothing after the word, confirms the question it answers instead
// (memory-confirmations.ts), which names what.
const ELLIPTIC = /^(still|always|never|also) ([a-z]+) (?=[a-z])/i;

const LIFE_ING = /^(?:working|teaching|studying|living|training|coaching|volunteering|learning|nursing|freelancing)$/;

const MILESTONE = new RegExp(`^(?:${MILESTONE_VERBS})\\b[^,;]*\\b${DATED_BACK}`, 'i');

/** The wearer's clause with its dropped "I" put back: an adjective takes "I'm", a verb "I". */
function withSubject(clause: string, sentence: Sentence): string {
  // "Paid off the mortgage last year.": a milestone said without its "I".
  if (MILESTONE.test(clause)) return `I ${clause.charAt(0).toLowerCase()}${clause.slice(1)}`;
  const match = ELLIPTIC.exec(clause);
  if (match === null) return clause;
  const word = sentence.tokens.find((token) => token.normal === match[2].toLowerCase());
  // "Still working as a structural engineer": a working life goes on ("Still raining" is the weather's).
  // "Still driving the bus for CTA": so does work done for someone named.
  const forSomeone = /^still \w+ing\b.* (?:for|at|with) \p{Lu}/iu.test(clause) && /ing$/.test(word?.normal ?? '');
  if (word?.pos === 'ADJ' || (word?.pos === 'VERB' && LIFE_ING.test(word.normal)) || forSomeone)
    return `I'm ${clause.charAt(0).toLowerCase()}${clause.slice(1)}`;
  // A base form only: "Still hate herring", not "Still raining" or "Still works".
  if (word?.pos === 'VERB' && word.lemma === word.normal && !/ing$/.test(word.normal))
    return `I ${clause.charAt(0).toLowerCase()}${clause.slice(1)}`;
  return clause;
}

export function clausesOf(sentence: Sentence): string[] {
  return (
    sentence.text
      .replace(/[.!?]+$/, '')
      .replace(ASIDE, '')
      // Unpunctuated transcripts write the pronoun "i"; the clause rules read "I".
      .replace(/\bi\b(?=(?:'m|'ve|'d|'ll)?\s)/g, 'I')
      // "Nico and I broke up", "My wife and I are expecting": the pair is one subject, not two clauses.
      .replace(PAIR_SUBJECT, (pair) => pair.replace(/ I$/, `${JOINED}I`))
      .split(CLAUSE_SPLIT)
      .map((clause) => clause.replace(JOINED, ' '))
      // Speech has a handful of clauses a sentence; "a: a: a: …" has thousands, and every clause is
      // looked up in its sentence again (quadratic), so only the first few are read.
      .slice(0, MAX_CLAUSES)
      .map((clause) => clause.replace(OPENERS, '').trim())
      .filter((clause) => clause !== '')
      // "since the knee surgery in January I'm not running anymore": the main clause after a fronted one.
      .map((clause) => clause.replace(FRONTED_CIRCUMSTANCE, ''))
      .map((clause) => withoutLeadIn(withSubject(spanLast(clause), sentence)))
  );
}

export function trimFact(text: string): string {
  const cut = FACT_END.exec(text);
  const words = squeezeSpaces(cut === null ? text : text.slice(0, cut.index))
    .split(' ')
    .slice(0, MAX_WORDS);
  // "here" and "there" stay: placed() turns them into the place just named.
  while (
    words.length > 3 &&
    FUNCTION_WORDS.has((words.at(-1) ?? '').toLowerCase()) &&
    // "User always picks up": a verb's particle is part of the verb.
    !(PARTICLE.test(words.at(-1) ?? '') && !FUNCTION_WORDS.has((words.at(-2) ?? '').toLowerCase())) &&
    !/^(?:here|there)$/i.test(words.at(-1) ?? '')
  )
    words.pop();
  // "vegetarian for a year now and honestly [I feel great]": a conjunction left by the cut goes too.
  return words
    .join(' ')
    .replace(/[,;:]+$/, '')
    .replace(/\s+(?:and|but|or|so)(?:\s+(?:honestly|actually|really|basically|frankly|yeah|like|just|\w+ly))?$/i, '');
}

/** The fact clause in third person, cut to 15 words after the rewrite (which can add a word). */
export function rewrite(clause: string): string {
  return trimFact(toThirdPerson(trimFact(clause))).replace(EXPECTING, '$1 is expecting a baby');
}

// "My wife is due in May", "I'm due in March": a pregnancy, not a payment ("due a refund", "due for a check-up").
const EXPECTING =
  /^(User|User's (?:wife|partner|girlfriend|sister|daughter|daughter-in-law|sister-in-law)) is due\b(?!\s+(?:a|an|for|to|back|on)\b)/;

const BODY_REACTION =
  /^(?!(?:it|this|that|he|she|they|which|everything|something|stress|work)\b)([a-z][\w-]*(?: [\w-]+)?) (upsets|irritates|gives me|makes me) (my stomach|my gut|my skin|(?:a |bad )?(?:migraines?|headaches?|hives|a rash|rashes|heartburn|reflux|gastritis|nausea|sick|ill|nauseous|bloated|itchy|dizzy))\b/i;

/** "We moved from Osaka", "we're engaged": the household's clause read as the wearer's own. */
export function asWearer(clause: string): string {
  // "We're expecting our first baby": the household's "our" is the wearer's "my".
  const household = /^(?:we|our)\b/i.test(clause)
    ? (said: string) => said.replace(/\bour\b/gi, 'my')
    : (said: string) => said;
  return household(
    clause
      .replace(/^my own\b/i, 'my')
      // "Ibuprofen upsets my stomach", "dairy gives me hives": what something does to the wearer, said of the wearer.
      .replace(BODY_REACTION, (_, cause: string, verb: string, effect: string) =>
        verb.toLowerCase() === 'upsets' || verb.toLowerCase() === 'irritates'
          ? `I get ${verb.toLowerCase() === 'upsets' ? 'an upset' : 'irritated'} ${effect.replace(/^my /i, '')} from ${cause.toLowerCase()}`
          : `I get ${effect} from ${cause.toLowerCase()}`,
      )
      // "My father lives with me": the wearer lives with their father.
      .replace(new RegExp(`^my (${KIN_WORDS}) lives with (?:me|us)\\b`, 'i'), 'I live with my $1')
      .replace(/^we're\b/i, "I'm")
      .replace(/^we've\b/i, "I've")
      // "We were in Tigre", "we are moving": the verb agrees with "I".
      .replace(/^we were\b/i, 'I was')
      .replace(/^we are\b/i, 'I am')
      .replace(/^we\b/i, 'I')
      .replace(/^our\b/i, 'my'),
  );
}

// "I read your CV. Three years of Android…": the wearer reads out someone else's record.
const RECORD = /\byour (?:cv|resume|résumé|profile|application|file|record|portfolio|background|linkedin)\b/i;

/** Whether the wearer's turn, up to this sentence, reads from the listener's record. */
export function readsRecord(analysis: Analysis, index: number): boolean {
  const turn = analysis.sentences[index]?.turn;
  for (let at = index; at >= Math.max(0, index - 4) && analysis.sentences[at]?.turn === turn; at--)
    if (RECORD.test(analysis.sentences[at]?.text ?? '')) return true;
  return false;
}

// "I'm a vet tech, remember?": a tag asks for agreement, not for an answer.
const TAG_QUESTION =
  /,\s*(?:remember|right|you know|no|yeah|okay|ok|innit|eh|isn't it|didn't I|don't I|wasn't I)\s*\?$/i;

/** Whether the sentence asks a question, not only for agreement with what it states. */
export function asksSomething(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.endsWith('?') && !TAG_QUESTION.test(trimmed);
}

// "Psoriasis, I've had it since my twenties": "it" after a verb of having stands for the phrase too.
export const POINTER = /\b(to|of|with|about|on|for|had|have|got) (?:that|it|this)\b(?:\s+myself\b)?/i;

// "Don't give me coriander, I can't stand it": a taste's "it" is the thing named just before.
const TASTE_IT =
  /\b((?:can't|cannot|can not|don't|do not|never) (?:stand|eat|drink|tolerate|digest|like)|hate|love) it\b/i;

/** The noun run that ends a clause: "don't give me coriander" → "coriander". */
function endingNoun(clause: string): string | null {
  const tokens = parseTokens(clause).filter((token) => token.kind === 'word');
  let start = tokens.length;
  while (start > 0 && tokens[start - 1].pos === 'NOUN') start--;
  if (start === tokens.length || tokens.length - start > 2) return null;
  return tokens
    .slice(start)
    .map((token) => token.value.toLowerCase())
    .join(' ');
}

// "I've been a paediatric nurse on this ward for twelve years": the role outlives the place, which only
// the conversation knew ("this ward"), so the place is left out of the fact.
const ROLE_HERE =
  /^(.*\b(?:been|I'm|I am|work(?:ed|ing)? as)\s+(?:an?|the)\s+(?:[\w-]+\s+){0,2}[\w-]+)\s+(?:on|at|in) (?:this|that) [a-z]+\b/i;

/** A role without the place only the conversation knew. */
export function withoutPlaceHere(clause: string): string {
  return clause.replace(ROLE_HERE, '$1');
}

/** "Amoxicillin... I'm allergic to that myself": the pointer stands for the bare phrase just said. */
export function resolvePointer(clause: string, previous: string | undefined): string {
  const taste = TASTE_IT.exec(clause);
  // Only a thing offered or refused ("give me", "no", "without") is what the taste is about.
  const offered =
    previous !== undefined && /\b(?:give me|get me|no|without|hold the|skip the|not the)\b/i.test(previous);
  const named = taste === null || !offered ? null : endingNoun(previous);
  if (named !== null) return clause.replace(TASTE_IT, `$1 ${named}`);
  const match = POINTER.exec(clause);
  if (match === null || previous === undefined) return clause;
  const tokens = parseTokens(previous).filter((token) => token.kind === 'word');
  const verbless = !tokens.some((token) => ['VERB', 'AUX', 'PRON'].includes(token.pos));
  if (!verbless || tokens.length > 4 || !tokens.some((token) => token.pos === 'NOUN' || token.pos === 'PROPN'))
    return clause;
  return clause.replace(POINTER, `$1 ${previous.charAt(0).toLowerCase()}${previous.slice(1)}`);
}

// "Tomorrow I call Banorte": a day ahead said just before the clause makes its present tense a plan.
const DAY_AHEAD =
  /\b(?:tomorrow(?: morning| afternoon| evening)?|tonight|later(?: today)?|next \w+|this (?:evening|afternoon|weekend)|on (?:mon|tues|wednes|thurs|fri|satur|sun)day)[\s,]*$/i;

export function dayAheadBefore(text: string, clause: string): boolean {
  const at = text.indexOf(clause.slice(0, 16));
  if (at <= 0) return false;
  return DAY_AHEAD.test(
    text
      .slice(0, at)
      .split(/[.;!?]/)
      .at(-1) ?? '',
  );
}
