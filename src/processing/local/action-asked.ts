import { type Candidate, candidatesAt } from './action-clauses.js';
import type { Analysis, Sentence } from './analysis.js';
import { TASK_VERBS } from './vocabulary.js';

// "Did you ever update the API docs?" "Not yet, today.": a thing asked after as done, and not done, is
// still to do; a "yes" or "already" closes it.
const ASKED_DONE =
  /(?:^|(?<=[,.;!?—-]\s*)|(?<=\b(?:and|so|also|but|oh|hey|um|uh|okay|ok)\s+))did you (?:ever |already |actually |finally |even |get to |manage to )?(?=[a-z]+\b)/gi;
const NOT_DONE =
  /^(?:\w+,\s*)?(?:no\b|nope|not yet|nah|ugh|oops|argh|damn|shoot|oh no|i forgot|forgot|i haven't|haven't|not really|sorry)|\b(?:i'll|i will|i'm going to|gonna|tonight|tomorrow|later|this (?:afternoon|evening|week))\b/i;
const DONE = /^(?:yes|yeah|yep|yup|done|already|i did|of course|sure did|sent|booked)\b/i;
const OWN_PROMISE =
  /\bI(?:'ll| will|'m going to| am going to) (?!do\b|get to\b|sort\b|handle\b)[a-z]+ (?!it\b|that\b|them\b)/i;

export function askedIfDone(analysis: Analysis, sentence: Sentence, index: number): Candidate[] {
  if (sentence.isUser || !sentence.text.trim().endsWith('?')) return [];
  // Only an errand asked after is owed ("did you book the vet?"), not "did you catch the match?".
  const errands = [...sentence.text.matchAll(ASKED_DONE)].filter((match) =>
    TASK_VERBS.has(
      (/^[a-z]+/i.exec(sentence.text.slice((match.index ?? 0) + match[0].length))?.[0] ?? '').toLowerCase(),
    ),
  );
  if (errands.length === 0) return [];
  // The wearer's answer is their next turn, whatever else the asker said after the question.
  const answer: Sentence[] = [];
  for (const later of analysis.sentences.slice(index + 1)) {
    if (later.turn > sentence.turn + 1) break;
    if (later.turn === sentence.turn + 1 && later.isUser) answer.push(later);
  }
  const opening = answer[0]?.text.trim() ?? '';
  if (opening === '' || DONE.test(opening) || !NOT_DONE.test(opening)) return [];
  // "Not yet. I'll send the slides to her tomorrow.": the answer's own promise is the task; "I'll do it
  // tomorrow" promises the one asked about.
  if (answer.some((later) => OWN_PROMISE.test(later.text))) return [];
  return errands.flatMap((match) =>
    candidatesAt(
      { sentence, sentenceIndex: index, kind: 'request', strength: 'medium', cueStart: match.index ?? 0 },
      (match.index ?? 0) + match[0].length,
    ),
  );
}
