import type { MemoryCategory } from '../../domain/categories.js';
import type { Analysis, Sentence } from './analysis.js';
import { SPECIES, VET } from './memory-people.js';
import { healthVisit } from './setting.js';
import { FUNCTION_WORDS } from './vocabulary.js';

/**
 * What a clinician tells the wearer about their own health: the finding ("It shows atrial
 * fibrillation"), the diagnosis ("That's migraine, classic"), the medicine and its dose ("I'm starting
 * you on apixaban", "Atorvastatin, ten milligrams, at night") and the allergy on file ("the penicillin
 * allergy on your notes"). The wearer rarely repeats these in the first person, yet they are the facts
 * a health visit is for. Read only when the conversation is a visit to a clinician for a person (an
 * animal in the room makes it the pet's visit).
 */

export interface ClinicFact {
  content: string;
  category: MemoryCategory;
  sentence: Sentence;
}

// Conditions named by their form (a Greek or Latin ending) or among the common ones without it.
const CONDITION =
  '(?:[\\p{L}-]+(?:itis|osis|emia|aemia|pathy|algia|penia|trophy)|(?:atrial |ventricular )?fibrillation|diabetes|asthma|hypertension|hypotension|migraines?|eczema|psoriasis|gout|(?:sleep )?apnoea|(?:sleep )?apnea|anaemia|anemia|(?:[\\p{L}-]+ )?(?:syndrome|disorder|deficiency|intolerance|infection|fracture|hernia|reflux|sciatica|tinnitus|vertigo|glaucoma|cataracts?|hypothyroidism|hyperthyroidism|hypothyroid|hyperthyroid|endometriosis|pre-?diabetes|high cholesterol|high blood pressure|concussion|tendinopathy|tear))';
const DIAGNOSIS = new RegExp(
  `\\b(?:you(?:'ve| have)(?: got)?|you(?:'re| are) (?:diagnosed with|suffering from)|(?:that's|that is|it's|it is|this is|sounds like|looks like|consistent with|diagnosis is)) (?:an? |some |classic |typical |mild |early |moderate |severe |a (?:mild|small|classic|partial) )*(${CONDITION})\\b`,
  'iu',
);
const FINDING =
  /\b(?:it|this|that|the (?:scan|test|results?|ecg|ekg|x-?ray|mri|ultrasound|monitor|holter|bloods?|biopsy)) (?:shows|showed|confirms|confirmed|suggests|suggested) (?:you have )?(?:an? |some |mild |early )*((?:\p{L}|-)+(?: (?:\p{L}|-)+)?)/iu;
// "ferrous sulfate", "metformin XR": a salt or a release form is part of the medicine's name.
const SALT =
  '(?: (?:sulfate|sulphate|citrate|hydrochloride|sodium|potassium|calcium|acid|oxide|carbonate|fumarate|gluconate|succinate|tartrate|bromide|chloride|phosphate|xr|xl|sr|er))?';
const STARTED_ON = new RegExp(
  // "start you on a new medicine called amlodipine": the name comes after what kind of thing it is.
  `\\b(?:start|put|keep|starting|putting|keeping) you on (?:a |an |the |some )?(?:new |low[- ]dose |daily |small )?(?:(?:medicine|medication|drug|pill|tablet|inhaler|cream) (?:called|named) )?((?:\\p{L}|-)+${SALT})`,
  'iu',
);
const DOSE =
  /(?:^|\.\s|,\s|\bon\s)((?:\p{L}|-){4,}),? (?:\d+(?:\.\d+)?|one|two|three|four|five|ten|twenty|twenty-five|forty|fifty|hundred|a hundred)(?: \w+)? (?:milligrams?|mg|micrograms?|mcg)\b/iu;
// An allergy test read out: "Cashew and pistachio are strongly positive", "The other positive is dust mite".
const POSITIVE_TEST =
  /^(?:so |and )?(?:(?:\p{L}|-)+ (?:and (?:\p{L}|-)+ )?(?:is|are|was|were|came back) (?:\w+ )?positive|the (?:other |only )?positives? (?:is|are|was|were) (?:\p{L}|-)+(?: (?:and )?(?:\p{L}|-)+)?)\s*[.!]?$/iu;
const ALLERGY_TALK =
  /\b(?:allerg\w*|skin (?:prick )?tests?|prick tests?|patch tests?|epipens?|auto-?injectors?|anaphyla\w*|antihistamines?)\b/i;
const ALLERGY = /\b(?:your|the|an?) ((?:\p{L}|-){3,}) allergy\b/iu;
// Words that can stand where a medicine's or condition's name would, but name none.
const VAGUE =
  /^(?:something|anything|medication|medicine|tablets?|pills?|treatment|dose|course|it|that|this|nothing|everything|normal|fine|good|okay|improvement|changes?|signs?|problems?|issues?|results?|food|drug|seasonal)$/i;

function named(phrase: string): string | null {
  const words = phrase.split(' ');
  // "It shows that your…", "It shows a lot": the words after the verb are not a name.
  while (words.length > 0 && FUNCTION_WORDS.has((words.at(-1) ?? '').toLowerCase())) words.pop();
  if (words.length === 0 || FUNCTION_WORDS.has(words[0].toLowerCase())) return null;
  const name = words.join(' ').toLowerCase();
  return VAGUE.test(name) ? null : name;
}

function factsOfSentence(sentence: Sentence, allergyTalk: boolean): string[] {
  const text = sentence.text;
  const facts: string[] = [];
  const diagnosis = DIAGNOSIS.exec(text);
  if (diagnosis !== null) facts.push(`User has ${diagnosis[1].toLowerCase()}`);
  const finding = FINDING.exec(text);
  const found = finding === null ? null : named(finding[1]);
  if (found !== null && diagnosis === null) facts.push(`User has ${found}`);
  for (const pattern of [STARTED_ON, DOSE]) {
    const match = pattern.exec(text);
    const medicine = match === null ? null : named(match[1]);
    if (medicine !== null) {
      facts.push(`User takes ${medicine}`);
      break;
    }
  }
  if (allergyTalk && POSITIVE_TEST.test(text.trim())) {
    const list = text
      .trim()
      .replace(/[.!]$/, '')
      .replace(/^(?:so |and )?(?:the (?:other |only )?positives? (?:is|are|was|were) )?/i, '')
      .replace(/ (?:is|are|was|were|came back) (?:\w+ )?positive$/i, '');
    for (const allergen of list.split(/,? and /)) {
      const name = named(allergen);
      if (name !== null) facts.push(`User is allergic to ${name}`);
    }
  }
  const allergy = ALLERGY.exec(text);
  const allergen = allergy === null ? null : named(allergy[1]);
  if (allergen !== null) facts.push(`User is allergic to ${allergen}`);
  return facts;
}

/** The health facts a clinician states about the wearer during a visit, once each. */
export function clinicFacts(analysis: Analysis): ClinicFact[] {
  if (!analysis.dialogue || analysis.attribution === 'absent' || !healthVisit(analysis)) return [];
  const allergyTalk = analysis.sentences.some((sentence) => ALLERGY_TALK.test(sentence.text));
  if (analysis.sentences.some((sentence) => VET.test(sentence.text) || SPECIES.test(sentence.text))) return [];
  const seen = new Set<string>();
  const facts: ClinicFact[] = [];
  for (const sentence of analysis.sentences) {
    if (sentence.isUser) continue;
    // A question asks ("Any allergy to penicillin?"), unless it reads from the wearer's file:
    // "We've still got the penicillin allergy on your notes, is that right?"
    const asks = sentence.text.trim().endsWith('?');
    if (asks && !/\byour (?:notes|file|records?|chart)\b/i.test(sentence.text)) continue;
    for (const content of factsOfSentence(sentence, allergyTalk)) {
      if (asks && !content.startsWith('User is allergic')) continue;
      if (seen.has(content)) continue;
      seen.add(content);
      facts.push({ content, category: 'core', sentence });
    }
  }
  // "A statin… atorvastatin, ten milligrams": the class gives way to the medicine named in it.
  return facts.filter(
    (fact) =>
      !facts.some(
        (other) =>
          other !== fact &&
          other.content.length > fact.content.length &&
          other.content.endsWith(fact.content.replace(/^User takes /, '')),
      ),
  );
}
