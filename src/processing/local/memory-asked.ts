import type { Analysis, Sentence } from './analysis.js';
import { DENIAL, NO_FIRST } from './memory-confirmations.js';
import { isConditionNoun } from './memory-nouns.js';
import { isName } from './memory-relatives.js';

/**
 * Things of the wearer's that another speaker asks after ("How's the knee?", "And the salsa classes?")
 * and the wearer's short reply names.
 */

export interface AskedAfter {
  content: string;
  sentence: Sentence;
}

// "How's the knee?", "And the salsa classes?", "How's your MBA going?": someone asks after a thing of the wearer's.
const ASKED_AFTER =
  /^(?:and |so |oh |hey,? )?(?:(?:how's|how is|how are|how was) (?:the|your)|and (?:the|your)|what about (?:the|your)) ((?:[\p{L}-]+ ){0,2}?[\p{L}-]+?)(?: (?:going|doing|coming along|treating you))?(?: these days| now)?\?$/iu;
// Things asked after that are the moment's, not the wearer's: "How's the weather?".
const AMBIENT =
  /^(?:weather|traffic|food|coffee|tea|drive|ride|line|queue|signal|connection|sound|audio|room|view|rest|others|kids)$/i;

// A reply that names something ("Tuesdays and Thursdays", "Line 5"); "Better" or "Quiet" is the day's state.
const CONTENT_TAGS = new Set(['NOUN', 'PROPN', 'NUM']);
const FILLER = /^(?:um|uh|yeah|yes|yep|okay|ok|well|honestly|so|oh|hmm|mm|right|sure)$/;
const TIME_OR_VERB =
  /\b(?:is|are|was|today|tonight|week|weeks|days?|months?|year|morning|evening|name|address|number)\b/i;

const HOW_IT_GOES =
  /^(?:good|fine|great|okay|ok|not bad|alright|all right|busy|crazy|slow|grand|brilliant|amazing|terrible|awful)\b/i;

/** A short reply that says how it is: "Better.", "Tuesdays and Thursdays.", not a sentence of its own. */
function shortReply(reply: Sentence): string | null {
  const text = reply.text.replace(/\([^)]*\)\s*/g, '').trim();
  const words = reply.tokens.filter((token) => token.kind === 'word');
  if (words.length === 0 || words.length > 8 || NO_FIRST.test(text) || DENIAL.test(text)) return null;
  if (text.endsWith('?') || words.some((token) => token.pos === 'PRON' || token.pos === 'AUX')) return null;
  // "Um.", "Yeah.": a reply with nothing in it.
  if (!words.some((token) => CONTENT_TAGS.has(token.pos) && !FILLER.test(token.normal))) return null;
  return text.replace(/^(?:(?:yes|yeah|yep|oh|um|uh|well|so|honestly)[,\s]+)+/i, '').replace(/[.!]+$/, '');
}

/** "How's the knee?" "Better." → "User's knee: Better": what the wearer said of a thing of theirs asked after. */
export function askedAfter(analysis: Analysis): AskedAfter[] {
  if (!analysis.dialogue || analysis.attribution === 'absent') return [];
  const found: AskedAfter[] = [];
  analysis.sentences.forEach((sentence, index) => {
    const next = analysis.sentences[index + 1];
    if (sentence.isUser || next === undefined || !next.isUser || next.turn !== sentence.turn + 1) return;
    const match = ASKED_AFTER.exec(sentence.text.trim());
    if (match === null) return;
    // "MBA" keeps its capitals; "Salsa classes" at a sentence's start does not.
    const thing = match[1].replace(/^\p{Lu}\p{Ll}/u, (first) => first.toLowerCase());
    const head = thing.split(' ').at(-1) ?? '';
    if (
      AMBIENT.test(head) ||
      TIME_OR_VERB.test(thing) ||
      isName(sentence.tokens.find((token) => token.normal === head))
    )
      return;
    // "And the asthma?" "Much better since we moved…": a condition of the wearer's asked after, and not denied.
    const denied = NO_FIRST.test(next.text.trim()) || DENIAL.test(next.text);
    if (isConditionNoun(head) && !denied) {
      found.push({ content: `User has ${thing.replace(/^(?:your|the) /i, '')}`, sentence: next });
      return;
    }
    const said = shortReply(next);
    // "How's the onboarding redesign going?" "Good.": how a thing goes today is no fact about it.
    if (said === null || said === '' || HOW_IT_GOES.test(said)) return;
    found.push({ content: `User's ${thing}: ${said}`, sentence: next });
  });
  return found;
}
