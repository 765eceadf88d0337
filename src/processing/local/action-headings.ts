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
