import type { Sentence } from './analysis.js';
import { CALENDAR_NAME, isProvider } from './event-words.js';
import { nounKind } from './noun-kinds.js';

/** Whose plan a dated sentence states: the wearer's own, or someone else's they only mention. */

// A plan whose subject is someone else: "she flies out Friday", "they're meeting the bank on the 3rd".
export const THIRD_PERSON_SUBJECT =
  /^(?:(?:and|so|but|oh|well|also)[\s,]+)*(?:he|she|they|he's|she's|they're|he'll|she'll|they'll)\b/i;
const TITLES_OF_ADDRESS = /^(?:mama|mum|mom|dad|papa|team|guys|everyone|folks|chef|boss|doc|doctor)$/;

/** "The launch is on the 3rd" concerns whoever notes it; "Mark has a meeting" or "she flies out" does not. */
export function impersonal(sentence: Sentence): boolean {
  // "Personal, Mum's birthday is Saturday", "Work stuff: the offsite is Thursday": a memo's heading first.
  const heading = sentence.tokens.findIndex((token, index) => index <= 2 && /^[,:]$/.test(token.value));
  const opened =
    heading !== -1 &&
    sentence.tokens
      .slice(0, heading)
      // Common words WordNet knows ("Personal", "Work stuff"), not a name called out ("Mama Njeri,").
      .every((token) => nounKind(token.normal) !== undefined && !TITLES_OF_ADDRESS.test(token.normal));
  const subject = sentence.tokens.find((token, index) => token.kind === 'word' && (!opened || index > heading));
  // "Mark has a meeting" is Mark's plan; "Calibration is on the 23rd" names the event itself.
  const next = sentence.tokens[sentence.tokens.indexOf(subject ?? sentence.tokens[0]) + 1];
  // "Ivy's concert is Thursday", "Mum's birthday is Saturday": the occasion named, which the wearer notes.
  const named =
    subject !== undefined &&
    subject.pos === 'PROPN' &&
    !CALENDAR_NAME.test(subject.value) &&
    !(next?.pos === 'AUX' && next.lemma === 'be') &&
    next?.normal !== "'s" &&
    !isProvider(subject.value);
  // "Mark, he has a meeting": after the heading, a third person is still someone else's plan.
  const rest = opened ? sentence.text.slice(sentence.text.search(/[,:]/) + 1).trim() : sentence.text;
  return subject !== undefined && !named && !THIRD_PERSON_SUBJECT.test(rest);
}

// "Oh, and I'm flying to Oslo on Monday for my sister's wedding": another speaker away on a trip of theirs.
const SPEAKERS_OWN_TRIP =
  /^(?:(?:and|so|but|oh|well|also|by the way|anyway)[\s,]+)*I(?:'m| am|'ll be| will be) (?:flying|off|away|travell?ing|on holiday|on leave|out|leaving|going away|driving up|driving down)\b/i;
const WITH_USER = /\b(?:you|your|we|we're|we'll|us|our|let's)\b/i;

/** The speaker's own trip, with no "you" or "we" in it or in the sentence after it ("…, can you pick me up?"). */
export function speakersOwnTrip(sentence: Sentence, next: Sentence | undefined): boolean {
  const after = next !== undefined && next.turn === sentence.turn ? next.text : '';
  return SPEAKERS_OWN_TRIP.test(sentence.text) && !WITH_USER.test(`${sentence.text} ${after}`);
}
