import type { Analysis, Sentence } from './analysis.js';

/**
 * A dictated list names each topic first (without the "One:", "Two:" that action-headings.ts reads),
 * then says what to do about it: "Council tax. Due on the first, and the direct debit bounced. So pay it
 * online first thing tomorrow." The "it" of the task is the heading, not the nearest noun.
 */

// Words that stand alone in a memo without naming a topic.
const NOT_A_HEADING =
  /^(?:okay|ok|um|uh|em|erm|hmm|right|so|me|done|yes|no|yeah|next|also|and|anyway|thanks|thank you|cheers|sorry|please|hello|hi|bye|great|perfect|good|fine|cool|sure|lovely|brilliant|congrats|congratulations|today|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;
// "Quick health note.", "Money first.": a memo's preface or an order of business names no topic.
const NO_TOPIC = /\b(?:note|memo|reminder|list|update|check-in|thing|things|stuff|first|next|then|last)\b/i;
// A task said between the heading and the pronoun ("Invoice Kemi's agency. Send it by Wednesday") is
// what the pronoun means.
const TASK_SAID = /\b(?:I'll|I will|I need to|I have to|I must|I've got to|I gotta|remind me)\b/i;
const WINDOW = 3;
// A list's sentences are short; a longer one is read as prose (and a pathological one costs nothing here).
const MAX_TOKENS = 60;

/** The topic a short verbless sentence names ("Council tax.", "Mum's prescription."), or null. */
function headingOf(sentence: Sentence): string | null {
  const words = sentence.tokens.filter((token) => token.kind === 'word');
  if (words.length === 0 || words.length > 4) return null;
  if (sentence.tokens.some((token) => ['VERB', 'AUX', 'PRON', 'NUM', 'INTJ', 'ADV'].includes(token.pos))) return null;
  if (!words.some((token) => token.pos === 'NOUN' || token.pos === 'PROPN')) return null;
  const text = sentence.text.replace(/[.!?:;,—–-]+$/, '').trim();
  if (NOT_A_HEADING.test(text) || NO_TOPIC.test(text) || text.includes(',')) return null;
  // "Council tax" stays as said; a common noun that only opened the sentence loses its capital ("Car").
  const first = words[0];
  return first.pos === 'NOUN' ? `${text.charAt(0).toLowerCase()}${text.slice(1)}` : text;
}

/** "Pay it online" → "Pay council tax online": in a memo, the heading said just before, with no task between. */
export function withTopicForPronoun(description: string, analysis: Analysis, sentenceIndex: number): string {
  const pronoun = /^(\S+) it(?: (up|out|off|back|down|in|over))?(?=\s|$)/i;
  if (analysis.dialogue || !pronoun.test(description)) return description;
  const own = analysis.sentences[sentenceIndex];
  if (own === undefined || own.tokens.length > MAX_TOKENS) return description;
  // "…so, the cake, order it from the bakery": a thing named before the verb in the task's own sentence.
  const verb = description.split(' ')[0]?.toLowerCase();
  const verbAt = own.tokens.findIndex((token) => token.normal === verb);
  if (own.tokens.slice(0, Math.max(0, verbAt)).some((token) => /^(?:NOUN|PROPN)$/.test(token.pos))) return description;
  const turn = own.turn;
  for (let index = sentenceIndex - 1; index >= Math.max(0, sentenceIndex - WINDOW); index--) {
    const sentence = analysis.sentences[index];
    if (sentence === undefined || sentence.turn !== turn || sentence.tokens.length > MAX_TOKENS) break;
    const opensWithVerb = sentence.tokens.find((token) => token.kind === 'word')?.pos === 'VERB';
    // "Three.": the next item of a numbered list starts, and the heading before it is another item's.
    const numbered = sentence.tokens.some((token) => token.pos === 'NUM') && sentence.tokens.length <= 3;
    if (opensWithVerb || numbered || TASK_SAID.test(sentence.text)) return description;
    const heading = headingOf(sentence);
    if (heading !== null)
      return description.replace(pronoun, (_, verb: string, particle?: string) =>
        particle === undefined ? `${verb} ${heading}` : `${verb} ${particle} ${heading}`,
      );
  }
  return description;
}
