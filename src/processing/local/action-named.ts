import type { Candidate } from './action-cues.js';
import type { Analysis } from './analysis.js';
import { antecedentFor } from './antecedent.js';
import { capitalisedInside } from './participants.js';

/**
 * What a verb that is the whole task acts on, when the sentence named it: "The midwifery course at
 * UERJ opens in May, and I'm going to apply" → "Apply for the midwifery course"; "The school fees for
 * the term — must pay by the 25th" → "Pay the school fees for the term".
 */

// "The school fees for the term — must pay …": the topic said first, set off by a dash or a comma.
const FRONTED_TOPIC =
  /^(?:and |so |also |oh,? )?((?:the |my |our |his |her )?[\p{L}' -]{3,40}?)\s*(?:—|–|,)\s*(?:\w+ ){0,3}?(?:must|need to|have to|got to|gotta)\b/iu;

export function forWhatWasNamed(verb: string, candidate: Candidate, analysis: Analysis): string | null {
  // "The midwifery course …, and I'm going to apply": for; "enrol": in; "pay", "renew": the thing itself.
  const preposition = /^enrol/i.test(verb) ? 'in ' : /^(?:pay|renew)$/i.test(verb) ? '' : 'for ';
  const fronted = FRONTED_TOPIC.exec(candidate.sentence.text.trim())?.[1];
  if (fronted !== undefined) {
    // "Car registration" opened the sentence: a word capitalised nowhere else loses its capital.
    const inside = capitalisedInside(analysis);
    const topic = fronted.replace(/^\p{Lu}\p{Ll}+(?![\p{Ll}'’])/u, (word) =>
      inside.has(word) ? word : word.toLowerCase(),
    );
    // "Nadia's school fees" and "my car tax" need no article.
    const owned = /^(?:the|my|our|his|her) |^\p{L}+['’]s /u.test(topic);
    return `${verb} ${preposition}${owned ? topic : `the ${topic}`}`;
  }
  const named = antecedentFor(`${verb} it`, candidate, analysis, { index: 1, pointer: 'thing' });
  if (named === null || named.candidate.sentenceIndex !== candidate.sentenceIndex) return null;
  const object = named.description.split(' ').slice(1).join(' ');
  // "…the registration, I'll register": the verb's own noun adds nothing.
  if (object.toLowerCase().includes(verb.toLowerCase().slice(0, 5))) return null;
  return `${verb} ${preposition}${object}`;
}
