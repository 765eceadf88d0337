import type { Analysis, Sentence } from './analysis.js';
import { endsWithOthersPossessive } from './text.js';

/**
 * The medicine the wearer is on, said as an errand: "I'm almost out of my sertraline", "my repeat
 * prescription for the amlodipine", "It's the metformin refill". And the one they cannot take: "I can't
 * take ibuprofen, it gives me gastritis". A medicine is known by its name's stem, the way generic
 * names are coined (-pril, -sartan, -olol, -statin, -oxetine …), or among the common ones coined
 * before the stems.
 */

export interface MedicineFact {
  content: string;
  sentence: Sentence;
}

const STEMS =
  '(?:pril|sartan|olol|dipine|statin|oxetine|traline|opram|triptan|prazole|tidine|cillin|mycin|cycline|floxacin|conazole|vir|afil|formin|gliptin|gliflozin|glutide|thyroxine|isone|isolone|terol|tropium|lukast|semide|thiazide|parin|xaban|gabalin|pentin|setron|azepine|triptyline|ipramine|codone|morphone|profen|fenac|coxib|tadine|tirizine|dronate|azepam|azolam|pramine|faxine|zapine|oxacin|lamide|nidazole|sulfan)';
const COMMON =
  '(?:insulin|warfarin|aspirin|paracetamol|acetaminophen|naproxen|codeine|tramadol|morphine|lithium|melatonin|bupropion|methotrexate|allopurinol|digoxin|clopidogrel|ventolin|symbicort|seretide|epipen|levothyroxine|thyroxine|metformin|ozempic|wegovy|adderall|ritalin|prozac|zoloft|lexapro)';
export const MEDICINE = new RegExp(`\\b((?:\\p{L}{2,}${STEMS})|${COMMON})\\b`, 'iu');
// "the amlodipine" with an errand for it: "my repeat prescription for the amlodipine", "It's the
// metformin refill", "I need the Ventolin".
const SUPPLY =
  /\b(?:repeat|refill|refills|prescription|script|dose|tablets?|pills?|supply|inhaler|need|out of|ran out|running out|pick up|collect|renew)\b/i;
const ON = /\b(?:I'm|I am|I've been|you're|you are) (?:still |now |also )?on (?:the |my )?$/i;
const ON_YOU = /\byou(?:'re| are) (?:still |now |also )?on (?:the |my )?$/i;
// "I can't take ibuprofen", "Ibuprofen doesn't agree with me".
const CANNOT = /\b(?:I can't|I cannot|I can not|I'm not allowed to|I shouldn't) take $/i;
// What is not a supply: an allergy, a question whether one may, a medicine stopped.
const NOT_HELD = /\ballerg\w*|\b(?:can I|could I|should I|may I|stopped|came off|quit|no longer|not on)\b/i;

const BRAND = /^(?:ventolin|symbicort|seretide|epipen|ozempic|wegovy|adderall|ritalin|prozac|zoloft|lexapro)$/i;
// Words that end like a medicine and are none.
const NOT_A_MEDICINE = /^(?:cholesterol|sterol)$/i;

function medicineOf(sentence: Sentence, dialogue: boolean): string | null {
  const text = sentence.text;
  if (!sentence.isUser && !dialogue) return null;
  const match = MEDICINE.exec(text);
  if (match === null) return null;
  const before = text.slice(0, match.index);
  if (NOT_A_MEDICINE.test(match[1])) return null;
  // A brand keeps its capital ("Symbicort"); a generic name said first in a sentence loses it ("Albuterol").
  const medicine = BRAND.test(match[1]) ? match[1] : match[1].toLowerCase();
  if (sentence.isUser && CANNOT.test(before)) return `User can't take ${medicine}`;
  // Someone else's: "my mum's sertraline", "her metformin".
  if (NOT_HELD.test(text) || endsWithOthersPossessive(before)) return null;
  if (sentence.isUser) {
    if (ON.test(before) || /\bmy\s+(?:\w+\s+){0,3}?$/i.test(before)) return `User takes ${medicine}`;
    // "the old dose of the metoprolol … Mom's bringing the list": someone else's in the same breath.
    const someoneElse = /\b(?:mom|mum|dad|mother|father|grandma|grandpa|nan|she|he|her|his|him)\b/i.test(text);
    return SUPPLY.test(text) && !someoneElse && /\b(?:the|a|some|more)\s+$/i.test(before)
      ? `User takes ${medicine}`
      : null;
  }
  // Said to the wearer: "your sertraline repeat", "You're on amlodipine, right?", and at the counter,
  // "Okay... sertraline repeat." with no one else's name on it.
  const after = text.slice(match.index + match[0].length);
  // "Levothyroxine, seventy-five micrograms.": a dose read out at the counter is the wearer's too.
  const dosed = /^,?\s+(?:[\w-]+\s+){1,3}?(?:milligrams?|mg|micrograms?|mcg)\b/i.test(after);
  const counter =
    (/^\s+(?:repeat|refill)\b/i.test(after) || dosed) && !/\b(?:his|her|their|son|daughter|husband|wife)\b/i.test(text);
  // "I'm on metformin now" said by someone else is theirs; only "you're on …" is the wearer's.
  return counter || /\byour\s+(?:\w+\s+){0,2}?$/i.test(before) || ON_YOU.test(before) ? `User takes ${medicine}` : null;
}

// "take the blood pressure tablets in the morning", "my thyroid pills": medicine named by what it treats.
const FOR_CONDITION =
  /\b(?:my|the) ((?:blood pressure|thyroid|heart|diabetes|cholesterol|asthma|epilepsy|anxiety|migraine)) (?:tablets|pills|meds|medication|medicine)\b/i;
// "the doctor said my cholesterol is high": a reading of the wearer's that is out of range.
const READING =
  /\bmy (cholesterol|blood pressure|blood sugar|sugar|iron|vitamin d|b12|thyroid) (?:is|was|'s|levels? (?:is|are|were)) (?:\w+ )?(high|low|up|raised|elevated|borderline)\b/i;

function treatedOf(sentence: Sentence): string | null {
  if (!sentence.isUser || /\b(?:his|her|their|mum's|mom's|dad's)\b/i.test(sentence.text)) return null;
  const treated = FOR_CONDITION.exec(sentence.text);
  if (treated !== null) return `User takes ${treated[1].toLowerCase()} medication`;
  const reading = READING.exec(sentence.text);
  if (reading === null) return null;
  const level = /^(?:high|up|raised|elevated)$/i.test(reading[2]) ? 'high' : reading[2].toLowerCase();
  return `User has ${level} ${reading[1].toLowerCase()}`;
}

/** Each medicine the conversation names as the wearer's, once. */
export function medicineFacts(analysis: Analysis): MedicineFact[] {
  if (analysis.attribution === 'absent') return [];
  const found = new Map<string, MedicineFact>();
  for (const sentence of analysis.sentences) {
    const content = medicineOf(sentence, analysis.dialogue) ?? treatedOf(sentence);
    if (content !== null && !found.has(content)) found.set(content, { content, sentence });
  }
  return [...found.values()];
}
