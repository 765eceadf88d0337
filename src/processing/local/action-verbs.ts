import { type Candidate, tokenIndexAt } from './action-clauses.js';
import type { Token } from './nlp.js';
import { HABIT_VERBS, LIGHT_VERBS, TASK_VERBS } from './vocabulary.js';

/**
 * Which verbs make a cue a task: a deliverable, not a state ("I'll see"), a journey ("I'm flying out
 * tomorrow") or a favour done on the spot ("could you pass the salt?"); and which plans are hypothetical.
 */

/** Verbs after "I'll"/"I need to" that state no deliverable ("I'll see", "I have to say"). */
const NON_TASK_VERBS = new Set(
  'be have see think know guess suppose reckon imagine assume believe doubt mean say let try want need like love feel wait stay miss hate bet admit hope wonder sleep relax'.split(
    ' ',
  ),
);
/** Prepositions, particles and place adverbs: after a verb they show it has no direct object. */
const INTRANSITIVE_NEXT =
  /^(?:to|out|off|up|in|on|at|from|into|onto|over|back|away|home|around|there|here|with|for|by|down|through|across|along|abroad|today|tonight|tomorrow|this|next|later|soon|now|early|late|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|^$/;
const HYPOTHETICAL_BEFORE =
  /\b(?:if|unless|whether|maybe|perhaps|someday|some day|one day|in case|would|otherwise|or else)\b/i;
// A condition governs what follows it in the sentence ("If the price is right, then I'll buy it").
const CONDITION_BEFORE = /\b(?:if|unless|whether|in case)\b/i;
// "Carla asked if I can take her shift, so I need to tell the nurse": an asked or wondered "if" is a
// question reported, and conditions nothing after its clause.
const REPORTED_QUESTION =
  /\b(?:ask(?:ed|s|ing)?|wonder(?:ed|s|ing)?|check(?:ed|ing)?|see|know|find out)\s+(?:me\s+)?(?:if|whether)\b[^,;]*[,;]/gi;
const HYPOTHETICAL_INSIDE =
  /\b(?:maybe|someday|some day|one day|might|possibly|perhaps|sometime(?!\s+(?:next|this|tomorrow|today|tonight|on|before|by|in|after|early|later)\b)|at some point|one of these days|eventually|if i (?:can|have time|get (?:a|the) chance))\b/i;
export const HAPPENING_NOW = /\b(?:right now|(?<!\bfrom )now|at the moment|currently)\b/i;
// "I have to tell you first, I'm allergic to prawns": what the wearer tells or reminds someone of in the
// same breath is done there and then.
export const TOLD_NOW = /^[^,]{0,30}\b(?:tell|remind|warn) (?:you|them|him|her)(?: first| now| though)?,\s/i;
// "hand in my notice", "look up the forms": a particle followed by a noun phrase is a phrasal verb's object.
const PHRASAL_OBJECT =
  /^(?:up|out|off|in|on|over|back|down|away|through) (?:the|a|an|my|your|his|her|their|our|some|this|that|these|those|all)$/;
// "look at flights", "deal with the landlord", "look into the refund": a verb whose object follows its preposition.
const PREPOSITIONAL_VERBS = new Set(['look', 'deal', 'follow', 'check', 'talk', 'speak']);
const PREPOSITIONAL_OBJECT =
  /^(?:at|into|with|about|up on) (?!(?:it|that|this|them|you|me|us|him|her|home|work|all|night|least|once|first|last)\b)[a-z]+/;

function hasObject(next: string, verb = ''): boolean {
  if (PREPOSITIONAL_VERBS.has(verb) && PREPOSITIONAL_OBJECT.test(next)) return true;
  return PHRASAL_OBJECT.test(next) || !INTRANSITIVE_NEXT.test(next);
}

const ON_THE_SPOT =
  /^(?:(?:wide|a seat|a breath|a deep|a look|a moment|a second|a sec|a minute)\b|(?:down|in|up|here|over here|around|still|this way)$)/;

// "I need to see a therapist", "I'll see the GP next week": seeing someone whose job is seeing people is an appointment.
const SEE_SOMEONE =
  /^(?:(?:a|an|the|my|our|his|her|their|somebody|someone),?\s+)*(?:\w+\s+)?(?:doctor|gp|dentist|therapist|counsell?or|psychologist|psychiatrist|physio(?:therapist)?|specialist|consultant|nurse|midwife|optician|optometrist|dermatologist|cardiologist|nutritionist|dietitian|vet|lawyer|solicitor|accountant|notary|surgeon|orthodontist|podiatrist|osteopath|chiropractor|audiologist|neurologist|gynae?cologist|pediatrician|paediatrician)\b/i;

/** Whether the cue's verb names a deliverable: by kind of cue, its verb, what follows it and whether a date is set. */
export function verbAllowed(
  candidate: Candidate,
  hasDate: () => boolean,
  accepted: () => boolean = () => false,
): boolean {
  const { verb, next } = leadingVerb(candidate);
  // A need is the wearer's task when it is theirs to meet ("your number", "signed by you"), has a deadline,
  // or the wearer takes it on ("I need photos of the damage." "OK, I'll take them tonight.").
  // "I'm going to start you on ferrous sulfate": a prescription is the wearer's to take, said back or not.
  if (candidate.impliedVerb === 'take') return true;
  if (candidate.impliedVerb !== undefined) {
    // Only the speaker's own need is asked of the wearer; "we need a bigger office" is not.
    // "We'd like to see a case study" asks on the speaker's side's behalf.
    const own = /^(?:i\b|we(?:'d| would) )/i.test(candidate.sentence.text.slice(candidate.cueStart));
    return /\byour?\b/i.test(candidate.clause) || hasDate() || (own && accepted());
  }
  if (verb === '' || (NON_TASK_VERBS.has(verb) && !(verb === 'see' && SEE_SOMEONE.test(next)))) return false;
  // "Open wide", "grab a seat": an instruction carried out on the spot, not a to-do.
  if (candidate.kind === 'request' && ON_THE_SPOT.test(next) && !hasDate()) return false;
  if (HABIT_VERBS.has(verb) && (next.split(' ')[0] ?? '').endsWith('ing')) return false;
  if (verb === 'go' && !/^to (?:the|a|an|my)$/.test(next)) return false;
  // "Perfect, I'll take that one": a slot or an item chosen on the spot.
  if (verb === 'take' && /^(?:(?:that|this|the \w+) one|it|that|this)$/.test(next)) return false;
  // "I'll leave early", "I'll drive Friday": beyond the task verbs, a to-do acts on something; "go to the
  // bank" is an errand to a place.
  if (!TASK_VERBS.has(verb) && verb !== 'go' && !hasObject(next, verb)) return false;
  // "I want you to keep a headache diary": addressed to the wearer, any verb acting on a named thing asks for a task.
  if (candidate.strength === 'medium') return TASK_VERBS.has(verb) || otherVerbAsks(candidate, hasDate, accepted);
  if (candidate.strength === 'weak') return TASK_VERBS.has(verb) && hasDate();
  // "I'm flying out tomorrow" is a journey, "I'm calling the landlord tonight" a task: the plan needs an object.
  if (candidate.strength === 'planned') return plansAhead(candidate, verb, next) && hasDate();
  return true;
}

const HABITUAL =
  /\b(?:every|each|usually|always|often|never|sometimes|normally|on (?:\w+days|weekends)|\w+ times|once a|twice a|a (?:day|week|month))\b/i;

/**
 * A plan stated in the present needs a verb in the present (not "I called"), an object (not "I'm flying
 * out"), a verb that is not a light one, and no sign of a habit ("I walk the dog every morning").
 */
// "I'm talking to Derek on Monday": a plan whose person follows a preposition.
const PLANNED_WITH_PERSON = /^(?:talk|speak|meet|chat) (?:to|with) \S/;

// "I'm telling Camila she opens on Friday": telling someone named is a message to pass on ("I'm telling
// you, …" is not).
const TELLING_SOMEONE = /^telling\s+(?:\p{Lu}\p{Ll}+|my\s+(?!own\b)[a-z]+)\b/u;

function plansAhead(candidate: Candidate, verb: string, next: string): boolean {
  const message = verb === 'tell' && TELLING_SOMEONE.test(candidate.clause);
  if ((LIGHT_VERBS.has(verb) && !message) || NON_TASK_VERBS.has(verb)) return false;
  if (!hasObject(next) && !PLANNED_WITH_PERSON.test(`${verb} ${next} `)) return false;
  if (HABITUAL.test(candidate.sentence.text) || candidate.sentence.text.trim().endsWith('?')) return false;
  const { verbToken, object } = verbAndObject(candidate);
  const inPresent =
    verbToken !== undefined && (verbToken.normal.endsWith('ing') || verbToken.lemma === verbToken.normal);
  // After "I'm", an -ing word before its object is the verb, whatever the tagger says ("mailing/NOUN").
  const progressive =
    verbToken?.normal.endsWith('ing') === true &&
    /\b(?:i'm|i’m|i am)\s+(?:\w+\s+)?$/i.test(candidate.sentence.text.slice(0, candidate.clauseStart));
  const isVerb = verbToken?.pos === 'VERB' || progressive;
  return inPresent && isVerb && object !== undefined && OBJECT_START.has(object.pos);
}

const OBJECT_START = new Set(['DET', 'NOUN', 'PROPN', 'NUM', 'ADJ', 'PRON']);
const THING_START = new Set(['DET', 'NOUN', 'PROPN', 'NUM', 'ADJ']);
// "run her onboarding": a possessive opens a thing, though the tagger calls it a pronoun.
const POSSESSIVES = new Set(['her', 'his', 'their', 'my', 'your', 'our', 'its']);

/** The clause's verb and the first word of what it acts on, right after it or its particle ("pick up the keys"). */
function verbAndObject(candidate: Candidate): { verbToken: Token | undefined; object: Token | undefined } {
  // The tags of the sentence as said: alone, "call the fundi" reads as a noun phrase.
  const start = tokenIndexAt(candidate.sentence, candidate.clauseStart);
  if (start === -1) return { verbToken: undefined, object: undefined };
  const tokens = candidate.sentence.tokens.slice(start, start + 3);
  // "look at flights", "put together the cost plan": the object follows a preposition or a particle.
  const particle =
    tokens[1]?.pos === 'ADP' || /^(?:together|up|out|off|back|down|over|away)$/.test(tokens[1]?.normal ?? '');
  const object = particle && tokens[2] !== undefined ? tokens[2] : tokens[1];
  return { verbToken: tokens[0], object };
}

/**
 * Beyond the task verbs, a verb acting on a named thing asks for a task when told to the wearer ("I want
 * you to keep a headache diary"), or when a day is set: asked in a question ("could you pass the salt?")
 * or written in a memo, it is more often done on the spot.
 */
function otherVerbAsks(candidate: Candidate, hasDate: () => boolean, accepted: () => boolean): boolean {
  if (candidate.kind !== 'request' && candidate.kind !== 'imperative') return false;
  if (!actsOnThing(candidate)) return false;
  const told = candidate.kind === 'request' && !candidate.sentence.text.trim().endsWith('?');
  // "Could you keep a pain diary?" asks; the wearer's "Sure." makes it a task.
  return told || hasDate() || accepted();
}

/** A verb in its base form acting on a noun phrase ("use the drops"), not on a pronoun ("hear me", "take it"). */
function actsOnThing(candidate: Candidate): boolean {
  const { verbToken, object } = verbAndObject(candidate);
  if (verbToken === undefined || verbToken.pos !== 'VERB' || verbToken.lemma !== verbToken.normal) return false;
  const owned = object !== undefined && POSSESSIVES.has(object.normal);
  return object !== undefined && (THING_START.has(object.pos) || owned) && object.normal !== 'sure';
}

function leadingVerb(candidate: Candidate): { verb: string; next: string } {
  const words = candidate.clause.toLowerCase().match(/[a-z']+/g) ?? [];
  if (candidate.impliedVerb !== undefined) return { verb: candidate.impliedVerb, next: words.slice(0, 2).join(' ') };
  const token = candidate.sentence.tokens.find((item) => item.normal === words[0]);
  const verb = token !== undefined && token.pos === 'VERB' ? token.lemma : (words[0] ?? '');
  return { verb, next: words.slice(1, 3).join(' ') };
}

// "I'll ask for leave tomorrow, maybe they'll give me the first": a guess at what others will do, after
// a comma, neither hedges the promise before it nor belongs to the task.
const OTHERS_GUESS = /,\s+(?:maybe|perhaps|hopefully)\s+(?:they|he|she|it|we|you)\b.*$/i;

/** The words before a guess at what others will do ("Ask for the day off, maybe they'll say yes" → "Ask for the day off"). */
export function withoutOthersGuess(text: string): string {
  return text.replace(OTHERS_GUESS, '');
}

export function isHypothetical(candidate: Candidate): boolean {
  // "If you could fill in the form by Monday, that'd be great" is a polite request, not a condition.
  const before = candidate.sentence.text.slice(0, candidate.cueStart).replace(/\bif you (?:could|can)\s*$/i, '');
  // Only the cue's own clause can make it hypothetical: "packaging would be separate, so let me send a
  // quote" promises the quote; "if it rains, I'll …" and "maybe I'll …" do not promise.
  const clause = before.split(/,\s*(?:so|and|but|then)\s+|;\s*|\.\s+|\s+so\s+/i).at(-1) ?? before;
  const own = withoutOthersGuess(candidate.clause);
  return (
    CONDITION_BEFORE.test(before.replace(REPORTED_QUESTION, ',')) ||
    HYPOTHETICAL_BEFORE.test(clause) ||
    HYPOTHETICAL_INSIDE.test(own)
  );
}
