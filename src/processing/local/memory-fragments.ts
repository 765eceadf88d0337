import type { Analysis, Sentence } from './analysis.js';

/**
 * A diet or a condition the wearer names in a stretch of its own, without "I'm": "Not the cheese one
 * for me, lactose intolerant, remember." Speech drops the subject when the listener knows who is
 * meant; a stretch with a subject of its own ("my sister is vegan") is someone else's.
 */

export interface FragmentFact {
  content: string;
  sentence: Sentence;
}

const STATE =
  /^(?:(?:i'm|i am|being|still|also|totally|fully|strictly|very|super|severely|quite)\s+)*((?:lactose|gluten) intolerant|gluten[- ]free|vegan|vegetarian|pescatarian|(?:type (?:1|2|one|two) )?diabetic|coeliac|celiac|teetotal|allergic to (?:nuts|peanuts|tree nuts|shellfish|dairy|eggs|gluten|penicillin|latex|cats|dogs|pollen|bees|wasps|sesame|soy|fish)|asthmatic|epileptic|pre-?diabetic|hypothyroid|hyperthyroid|anaemic|anemic|hypermobile|colou?r-?blind|dairy[- ]free)(?:\s+(?:since|for) [\w' -]{2,30})?(?:,?\s+(?:remember|you know|as you know|obviously|remember that))?$/i;

export function fragmentStates(analysis: Analysis): FragmentFact[] {
  const facts: FragmentFact[] = [];
  const seen = new Set<string>();
  for (const sentence of analysis.sentences) {
    if (!sentence.isUser || sentence.text.trim().endsWith('?')) continue;
    for (const stretch of sentence.text.split(/\s*[,;:—–]\s*|\s+-\s+/)) {
      const match = STATE.exec(stretch.trim().replace(/[.!]+$/, ''));
      if (match === null) continue;
      const state = match[1].toLowerCase();
      if (seen.has(state)) continue;
      seen.add(state);
      facts.push({ content: `User is ${state}`, sentence });
    }
  }
  return facts;
}
