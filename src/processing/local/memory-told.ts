import type { Analysis } from './analysis.js';
import type { Statement } from './memory-sources.js';
import { namesPerson } from './noun-kinds.js';

/**
 * What another speaker says of the wearer, to the wearer: a finding ("your cholesterol is high"), a
 * state ("you're rhesus negative"), how long ("you've been in this choir since you were fourteen"),
 * who they are ("as a self-employed photographer, you…") or a step in their life ("since you and Eli
 * got married"). Each is read back as the first-person clause the wearer would have said.
 */

// "But your cholesterol is high": a finding about the listener, stated by someone who knows.
const YOUR_THING =
  /(?:^|[,.]\s*|\bbut\s+|\band\s+)your ((?:[a-z-]+ ){0,2}[a-z-]+) (is|are) ((?:very |quite |a bit |slightly |too )?[a-z-]+(?: [a-z-]+)?)\s*[,.!]?$/i;
const SPAN_OF_LISTENER =
  /(?:^|,\s*|\bbecause\s+|\bso\s+)(?:you've|you have) been\s+((?:(?! and | but )[^,;.!?])+?\b(?:for|since|years?|months?|decades?)\b(?:(?! and | but )[^,;.!?])*)/i;
const AS_LISTENER = /^(?:and |so |but |well,? )?as an? ((?:[a-z-]+ ){0,2}[a-z-]+), you\b/i;
const PAIR_OF_LISTENER =
  /\byou and (\p{Lu}\p{Ll}+) ((?:got|were|are|just got) (?:married|engaged)|moved in together|had (?:a baby|twins)(?: in [\p{L} ]+)?|got married(?: in [\p{L}\d ]+)?)/u;
// "I have here that you're allergic to penicillin": a record read out to the wearer says it too.
const SAID_OF_LISTENER =
  /(?:^|,\s*|\bbecause\s+|\bsince\s+|\b(?:here|says|said|noted|written|record) that\s+)(?:you're|you are)\s+([^,;.!?]+)/i;

/** "You've been in this choir since you were fourteen": how long the wearer has done something, said to them. */
export function spansSaidToWearer(analysis: Analysis): Statement[] {
  if (!analysis.dialogue || analysis.attribution === 'absent') return [];
  return analysis.sentences.flatMap((sentence) => {
    const span = sentence.isUser || sentence.text.trim().endsWith('?') ? null : SPAN_OF_LISTENER.exec(sentence.text);
    if (span === null) return [];
    const said = span[1]
      .trim()
      .replace(/\byou (were|joined|started)\b/gi, (_, verb: string) => `I ${verb === 'were' ? 'was' : verb}`);
    return [{ text: `I've been ${said}.`, sentence, secondHand: true }];
  });
}

/** "Because you're rhesus negative, …": what another speaker states as a fact about the wearer. */
export function saidOfWearer(analysis: Analysis): Statement[] {
  if (!analysis.dialogue || analysis.attribution === 'absent') return [];
  const statements: Statement[] = [];
  for (const sentence of analysis.sentences) {
    if (sentence.isUser || sentence.text.trim().endsWith('?')) continue;
    const match = SAID_OF_LISTENER.exec(sentence.text);
    // "You're a star", "you're the best" praise; only a bare predicate ("rhesus negative") states a fact.
    if (match !== null && !/^(?:a|an|the|so|such|my|our|too|very|really|right|welcome)\b/i.test(match[1].trim()))
      statements.push({ text: `I'm ${match[1].trim()}`, sentence, secondHand: true });
    // "As a self-employed photographer, you need to pay quarterly": who the wearer is, said in passing.
    const role = AS_LISTENER.exec(sentence.text);
    if (role !== null && namesPerson(role[1].split(' ').at(-1) ?? ''))
      statements.push({ text: `I'm a ${role[1]}`, sentence, secondHand: true });
    // "Since you and Eli got married in October, …": the wearer's life, told back to them.
    const pair = PAIR_OF_LISTENER.exec(sentence.text);
    if (pair !== null) statements.push({ text: `${pair[1]} and I ${pair[2]}`, sentence, secondHand: true });
    const owned = YOUR_THING.exec(sentence.text);
    // "your cousins are coming too": what someone of the wearer's is doing now or soon is news, not a fact.
    if (owned !== null && !/ing$/i.test(owned[3].trim().split(' ')[0]))
      statements.push({ text: `my ${owned[1]} ${owned[2]} ${owned[3].trim()}`, sentence, secondHand: true });
  }
  return statements;
}
