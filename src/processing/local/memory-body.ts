import type { Analysis, Sentence } from './analysis.js';
import { medicineFacts } from './memory-medicines.js';
import { isConditionNoun } from './memory-nouns.js';
import { SPECIES, VET } from './memory-people.js';
import { endsWithOthersPossessive } from './text.js';

/**
 * The part of the wearer's body that troubles them, and the standing condition they live with:
 * "Knee's playing up again", "Also my knee.", "How's the knee? You were limping", "Surgery's on
 * Tuesday, the ACL", "The asthma is always worse when it's dusty". Nobody says "I have a bad knee";
 * the knee is simply talked about as theirs, by them or to them, with something wrong with it.
 */

export interface BodyFact {
  content: string;
  sentence: Sentence;
}

// The parts people injure, strain and have operated on; "back" is read apart, being also an adverb.
const PART =
  '(?:(left|right|lower|upper) )?(knees?|acl|meniscus|shoulders?|rotator cuff|hamstrings?|hips?|ankles?|achilles|wrists?|elbows?|neck|collarbone|spine|disc|groin|shins?|calf|back)';
const PART_WORDS = new RegExp(`\\b${PART}\\b`, 'i');
// "my back garden", "back in 2022", "come back": the adverb and the noun modifier are no body part.
const NOT_THE_BODY =
  /^\s*(?:garden|yard|door|seat|pocket|room|office|porch|row|end|up|home|then|in|to|from|on|there|here|and forth)\b/i;
const SURGERY =
  /\b(?:surgery|surgeries|operation|operated|op|post-op|replaced|replacement|repair|reconstruction|scoped|keyhole)\b/i;
const INJURY =
  /\b(?:injur\w*|torn|tear|sprain\w*|strain\w*|pulled|broke|broken|fractur\w*|dislocat\w*|slipped|ruptur\w*)\b/i;
const TROUBLE = new RegExp(
  `${SURGERY.source}|${INJURY.source}|\\b(?:pain|painful|hurts?|hurting|sore|ache|aching|achy|limp\\w*|playing up|acting up|tweaked|swollen|stiff|twinge|niggle|physio\\w*|rehab|brace|bad|dodgy|weak|gammy|famous|can't|cannot|careful|babying|still doing you|since the|how's|how is|problems?|trouble|issues?|arthritis|since I fell)\\b`,
  'i',
);
// "I've got your back", "watch your back": said of the person, not of their spine.
const IDIOM = /\b(?:got|have|watch|cover|behind) (?:your|my) back\b|\bback (?:of|to) /i;
// "You'll hurt your knees", "it's fine now": a warning or a passing twinge, not a standing trouble.
const PASSING =
  /\b(?:you'll|you will|will|would|could|might|fine now|better now|gone now|no longer|no (?:problems?|trouble|issues?)|(?:is|are|'s|feels?) (?:fine|good|okay|ok|great|better))\b/i;
// Named as conditions, but passing or vague: "the rash", "the flu", "the symptoms", "the allergy".
const PASSING_CONDITIONS =
  /^(?:rash|nausea|flu|cold|cough|fever|aura|pest|allergy|allergies|symptoms?|palpitations?|infection|headache|hangover|jet lag|complaint|condition|illness|disease|disorder|problem|pain|injury|stress|trouble)$/i;
// The knee's named parts: "How's the knee?" in a conversation about an ACL is about the ACL.
const INNER = new Map([
  ['knee', /\b(acl|meniscus)\b/i],
  ['shoulder', /\b(rotator cuff|labrum)\b/i],
  ['back', /\b(disc)\b/i],
]);
// Conditions one has one of: "User has an ulcer", beside "User has asthma".
const COUNTABLE = /^(?:ulcer|hernia|cyst|tumou?r|polyp|stroke)$/;
const MAX_BODY_FACTS = 2;

interface Mention {
  side: string;
  part: string;
}

/** The body part a sentence names as the wearer's, if it names one. */
function partOf(sentence: Sentence, otherSpeakers: boolean): Mention | null {
  const text = sentence.text;
  // "Lifting a thirty-nine kilo dog is bad for your back": the sentence is about the animal.
  if (IDIOM.test(text) || SPECIES.test(text)) return null;
  const match = PART_WORDS.exec(text);
  if (match === null) return null;
  const part = match[2].toLowerCase();
  const before = text.slice(0, match.index);
  const after = text.slice(match.index + match[0].length);
  // Whose part it is when the sentence says so: "his knee", "Mum's left hip", "the dog's leg".
  if (endsWithOthersPossessive(before)) return null;
  const owner = /\b(my|your|the|that)\s+$/i.exec(before)?.[1].toLowerCase() ?? '';
  if (part === 'back' && (NOT_THE_BODY.test(after) || (owner === '' && match[1] === undefined))) return null;
  const mention = { side: match[1]?.toLowerCase() ?? '', part: part === 'acl' ? 'ACL' : part };
  if (PASSING.test(text)) return null;
  const troubled = TROUBLE.test(text);
  if (sentence.isUser) {
    // The wearer's own: "my knee", or "the knee" with something wrong with it; "Also my knee." alone, with
    // no verb, is a complaint ("My knees will forgive you" is a joke).
    const bare = !sentence.tokens.some((token) => token.pos === 'VERB' || token.pos === 'AUX');
    if (owner === 'my') return troubled || bare ? mention : null;
    // "Left hamstring.": a side and a part, alone, answers where it hurts.
    const words = sentence.tokens.filter((token) => token.kind === 'word');
    if (owner === '' && mention.side !== '' && words.length <= 3) return mention;
    return troubled && owner !== 'your' ? mention : null;
  }
  // Said to the wearer: "your hamstring was still doing you", "How's the knee?", "post-op on the ACL".
  if (!otherSpeakers) return null;
  if (owner === 'your') return troubled || text.trim().endsWith('?') ? mention : null;
  return owner !== 'my' && troubled && /\?\s*$|\byou\b/i.test(text) ? mention : null;
}

function describe(mention: Mention, around: string): string {
  const side = mention.side === '' ? '' : `${mention.side} `;
  const inner = INNER.get(mention.part)?.exec(around)?.[1];
  const named =
    inner === undefined ? `${side}${mention.part}` : inner.toLowerCase() === 'acl' ? 'ACL' : inner.toLowerCase();
  const whose = inner === undefined ? '' : ` on their ${side}${mention.part}`;
  if (SURGERY.test(around)) return `User had ${named} surgery${whose}`;
  if (INJURY.test(around)) return `User has a ${named} injury${whose}`;
  return `User has trouble with their ${side}${mention.part}${inner === undefined ? '' : ` (${named})`}`;
}

/** The sentences that speak of the part, and the two after each: where its surgery or injury is said. */
function talkOf(analysis: Analysis, part: string): string {
  const names = new RegExp(`\\b${part.replace(/s$/, '')}s?\\b|\\b(?:acl|meniscus|rotator cuff|labrum)\\b`, 'i');
  return analysis.sentences
    .flatMap((sentence, index) =>
      names.test(sentence.text) ? analysis.sentences.slice(index, index + 3).map((near) => near.text) : [],
    )
    .join(' ');
}

// "since I was diagnosed hypothyroid", "I got diagnosed with coeliac disease last year".
const DIAGNOSED =
  /\bI(?:'ve been| have been| was| got| had been|'d been) diagnosed(?: as| with)? (?:an? )?([\p{L}-]{4,}(?: (?:disease|syndrome|disorder))?)/iu;

/** "The asthma is always worse", "my migraines", "your asthma": a condition named as the wearer's. */
function conditionOf(sentence: Sentence, otherSpeakers: boolean): string | null {
  const diagnosed = sentence.isUser ? DIAGNOSED.exec(sentence.text)?.[1].toLowerCase() : undefined;
  if (diagnosed !== undefined && !/^(?:with|early|late|after|before|when|last|this|recently)$/.test(diagnosed))
    // An adjective says what the wearer is ("hypothyroid", "diabetic"); a noun what they have.
    return /(?:ic|oid|ive)$/.test(diagnosed) ? `User is ${diagnosed}` : `User has ${diagnosed}`;
  const owners = sentence.isUser ? /^(?:my|the)$/ : otherSpeakers ? /^your$/ : null;
  if (owners === null) return null;
  const tokens = sentence.tokens;
  for (let index = 1; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.pos !== 'NOUN' || !owners.test(tokens[index - 1].normal) || !isConditionNoun(token.normal)) continue;
    // "the panic" is the condition "panic attacks" when the attacks are named.
    const next = tokens[index + 1]?.normal;
    // "the rabies booster", "the asthma review": a condition naming another thing is not had.
    if (tokens[index + 1]?.pos === 'NOUN' && next !== 'attack' && next !== 'attacks') continue;
    const noun = next === 'attack' || next === 'attacks' ? `${token.normal} attacks` : token.normal;
    if (PASSING_CONDITIONS.test(token.normal)) continue;
    return `User has ${COUNTABLE.test(noun) ? `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ` : ''}${noun}`;
  }
  return null;
}

// "your shellfish allergy", "your latex wahala": an allergy someone speaks of as the wearer's.
const YOUR_ALLERGY = /\byour (\p{L}{3,}) (?:allerg(?:y|ies)|wahala|thing)\b/iu;
// "…from your file, allergic to latex, no other allergies?": read out, for the wearer to confirm.
const READ_OUT = /\ballergic to (\p{L}{3,})\b/iu;
const NO_ALLERGEN =
  /^(?:anything|something|any|everything|nothing|that|this|it|them|what|medication|medicines?|food)$/i;

/** An allergy of the wearer's that another speaker names, and the wearer does not deny. */
function allergyOf(analysis: Analysis, index: number): string | null {
  const sentence = analysis.sentences[index];
  if (sentence.isUser || !analysis.dialogue) return null;
  const named = YOUR_ALLERGY.exec(sentence.text)?.[1];
  // "your shellfish allergy" says it; "your latex thing" only of a common allergen.
  const allergen =
    named !== undefined &&
    !NO_ALLERGEN.test(named) &&
    (/allerg/i.test(sentence.text) || /^(?:latex|shellfish|peanuts?|nuts|penicillin|gluten|dairy)$/i.test(named));
  if (allergen) return `User is allergic to ${named.toLowerCase()}`;
  const read = READ_OUT.exec(sentence.text)?.[1];
  const reply = analysis.sentences[index + 1];
  if (read === undefined || NO_ALLERGEN.test(read) || !sentence.text.trim().endsWith('?')) return null;
  if (reply === undefined || !reply.isUser || /^(?:no|nope|not)\b/i.test(reply.text.trim())) return null;
  const confirmed =
    reply.text.toLowerCase().includes(read.toLowerCase()) ||
    /^(?:yes|yeah|yep|correct|right)\b/i.test(reply.text.trim());
  return confirmed ? `User is allergic to ${read.toLowerCase()}` : null;
}

/** What the fact is about: its last word, singular ("User has palpitations" → "palpitation"). */
function troubleOf(content: string): string {
  return (content.split(' ').at(-1) ?? '').replace(/(?<=[^s])s$/, '').toLowerCase();
}

/**
 * The troubled body parts and standing conditions said as the wearer's (at most two), and the medicines
 * they are on (`memory-medicines.ts`), each with what it is about, so that a kept fact that names it
 * already ("User has been hypothyroid since they were twenty") is not stored twice (memories.ts).
 */
export function bodyFacts(analysis: Analysis): Array<BodyFact & { about: string }> {
  if (analysis.attribution === 'absent') return [];
  // At the vet, the knee and the kidneys are the animal's.
  if (analysis.sentences.some((sentence) => VET.test(sentence.text))) return [];
  const otherSpeakers = analysis.dialogue;
  const found = new Map<string, BodyFact>();
  const allergies = new Map<string, BodyFact>();
  analysis.sentences.forEach((sentence, index) => {
    const allergy = allergyOf(analysis, index);
    if (allergy !== null && !allergies.has(allergy)) allergies.set(allergy, { content: allergy, sentence });
    if (found.size === MAX_BODY_FACTS) return;
    const condition = conditionOf(sentence, otherSpeakers);
    if (condition !== null && !found.has(condition)) found.set(condition, { content: condition, sentence });
    const mention = partOf(sentence, otherSpeakers);
    const part = mention?.part.toLowerCase() ?? '';
    if (mention === null || [...found.values()].some((fact) => fact.content.toLowerCase().includes(part))) return;
    const around = `${analysis.sentences[index - 1]?.text ?? ''} ${talkOf(analysis, mention.part)}`;
    found.set(mention.part, { content: describe(mention, around), sentence });
  });
  return [...[...found.values()].slice(0, MAX_BODY_FACTS), ...allergies.values(), ...medicineFacts(analysis)].map(
    (fact) => ({ ...fact, about: troubleOf(fact.content) }),
  );
}
