import type { Draft } from './action-drafts.js';
import type { Analysis, Sentence } from './analysis.js';
import { parseTokens } from './nlp.js';

/**
 * A list said aloud names each topic before its task: "Two: residence card. The renewal opens in
 * January, I'll book the earliest slot." The task's own words may not name the topic ("Book the
 * earliest slot"); the heading does, and goes with the first task said under it.
 */

const ENUMERATOR =
  /^(?:and\s+)?(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth|fifth|one|two|three|four|five|six|seven|next|then|also|last(?:ly)?|finally)\b[\s:,.—–-]*/i;
const WHEN =
  /\b(?:today|tomorrow|tonight|yesterday|week|weekend|month|year|morning|afternoon|evening|night|hour|time|day|half|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b/i;
// "One more thing.", "Next topic.", "Huge favour.": a heading that names no topic of its own.
const EMPTY = /\b(?:thing|topic|question|favou?r|point|item|issue|matter|update|news|bit)s?\b/i;
const MAX_WORDS = 4;
// A heading stays in force for the few sentences its topic is talked through in.
const REACH = 3;

/** The topic a sentence announces ("Second — police certificates." → "police certificates"), if it is a heading. */
function headingOf(sentence: Sentence): string | null {
  const match = ENUMERATOR.exec(sentence.text);
  if (match === null) return null;
  const topic = sentence.text
    .slice(match[0].length)
    .replace(/[.!?…]+$/, '')
    .trim();
  if (topic === '' || topic.includes(',') || topic.split(/\s+/).length > MAX_WORDS) return null;
  if (WHEN.test(topic) || EMPTY.test(topic)) return null;
  const tokens = parseTokens(topic).filter((token) => token.kind === 'word');
  const named = tokens.some((token) => token.pos === 'NOUN' || token.pos === 'PROPN');
  const said = tokens.some((token) => ['VERB', 'AUX', 'PRON', 'ADP', 'SCONJ'].includes(token.pos));
  return named && !said ? topic.replace(/^(?:the|my|our)\s+/i, '') : null;
}

function mentions(description: string, topic: string): boolean {
  const words = description.toLowerCase();
  return topic
    .toLowerCase()
    .split(/\s+/)
    .some((word) => word.length > 2 && words.includes(word.replace(/s$/, '')));
}

/** Each kept task's line, the first one under a heading that its words do not name carrying the topic. */
export function withHeadings(drafts: ReadonlyArray<Draft>, analysis: Analysis): string[] {
  const used = new Set<number>();
  return drafts.map((draft) => {
    const own = analysis.sentences[draft.sentenceIndex];
    // "Three, call Dr. Patel's office": a task that opens an item of the list is that item.
    if (ENUMERATOR.test(own.text)) return draft.description;
    for (let index = draft.sentenceIndex - 1; index >= Math.max(0, draft.sentenceIndex - REACH); index--) {
      const sentence = analysis.sentences[index];
      if (sentence.turn !== own.turn) break;
      const topic = headingOf(sentence);
      // Another item of the list, said with its own verb, ends the one before.
      if (topic === null && ENUMERATOR.test(sentence.text)) break;
      if (topic === null) continue;
      // Only the first task under a heading takes it, and one that names the topic already takes it as said.
      if (used.has(index)) break;
      used.add(index);
      return mentions(draft.description, topic) ? draft.description : `${draft.description} (${topic})`;
    }
    return draft.description;
  });
}

/**
 * A memo's list without numbers names each topic first too, then says what to do about it: "Council
 * tax. Due on the first, and the direct debit bounced. So pay it online first thing tomorrow." The "it"
 * of the task is the heading, not the nearest noun.
 */

// Words that stand alone in a memo without naming a topic.
const NOT_A_HEADING =
  /^(?:okay|ok|um|uh|em|erm|hmm|right|so|me|done|yes|no|yeah|next|also|and|anyway|thanks|thank you|cheers|sorry|please|hello|hi|bye|great|perfect|good|fine|cool|sure|lovely|brilliant|congrats|congratulations|today|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;
// "Quick health note.", "Money first.": a memo's preface or an order of business names no topic.
const NO_TOPIC = /\b(?:note|memo|reminder|list|update|check-in|thing|things|stuff|first|next|then|last)\b/i;
// A task said between the heading and the pronoun ("Invoice Kemi's agency. Send it by Wednesday") is
// what the pronoun means.
const TASK_SAID = /\b(?:I'll|I will|I need to|I have to|I must|I've got to|I gotta|remind me)\b/i;
// A list's sentences are short; a longer one is read as prose (and a pathological one costs nothing here).
const MAX_TOKENS = 60;

/** The topic a short verbless sentence names ("Council tax.", "Mum's prescription."), or null. */
function bareHeading(sentence: Sentence): string | null {
  const words = sentence.tokens.filter((token) => token.kind === 'word');
  if (words.length === 0 || words.length > MAX_WORDS) return null;
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
  for (let index = sentenceIndex - 1; index >= Math.max(0, sentenceIndex - REACH); index--) {
    const sentence = analysis.sentences[index];
    if (sentence === undefined || sentence.turn !== turn || sentence.tokens.length > MAX_TOKENS) break;
    const opensWithVerb = sentence.tokens.find((token) => token.kind === 'word')?.pos === 'VERB';
    // "Three.": the next item of a numbered list starts, and the heading before it is another item's.
    const numbered = sentence.tokens.some((token) => token.pos === 'NUM') && sentence.tokens.length <= 3;
    if (opensWithVerb || numbered || TASK_SAID.test(sentence.text)) return description;
    const heading = bareHeading(sentence);
    if (heading !== null)
      return description.replace(pronoun, (_, said: string, particle?: string) =>
        particle === undefined ? `${said} ${heading}` : `${said} ${particle} ${heading}`,
      );
  }
  return description;
}
