import { type Candidate, type CueKind, DATED } from './action-clauses.js';
import type { Sentence } from './analysis.js';
import { type Clock, type DateMention, mentionInstant } from './dates.js';
import { KIN_WORDS } from './memory-shapes.js';
import { localToUtc } from './timezone.js';

export const MONEY_WORDS = 'rent|bill|invoice|fee|fees|payment|tax|taxes|deposit|installment|premium|balance';
const MONEY = new RegExp(`\\b(?:${MONEY_WORDS})\\b`, 'i');

// "The second problem set is due this Friday", "Problem set four is due next Monday": a deliverable's deadline.
const DUE =
  /(?:^|[,;]\s*|\band\s+|\bso\s+)((?:(?:the|your|my|our|a|an)\s+)?(?:[\w-]+\s+){0,3}?[\w-]+),?\s+(?:is|are|'s)\s+(?:also\s+|now\s+)?due\b(?!\s+(?:to|for)\b)/gi;
// A birth or an arrival is due too, and money is paid rather than handed in.
const NOT_DELIVERABLE = new RegExp(
  `^(?:(?:the|my|our|your|his|her|their|a)\\s+)?(?:baby|she|he|it|we|i|they|you|that|this|what|which|everything|nothing|${KIN_WORDS})$`,
  'i',
);
// "The final copy must be submitted to the faculty by September first": a deliverable's passive obligation.
const PASSIVE_VERBS: Record<string, string> = {
  done: 'finish',
  finished: 'finish',
  completed: 'complete',
  submitted: 'submit',
  signed: 'sign',
  paid: 'pay',
  sent: 'send',
  filed: 'file',
  returned: 'return',
  booked: 'book',
  renewed: 'renew',
  uploaded: 'upload',
};
const PASSIVE_DUE = new RegExp(
  `(?:^|[,;]\\s*|\\band\\s+|\\bso\\s+)((?:(?:the|your|my|our)\\s+)(?:[\\w-]+\\s+){0,3}?[\\w-]+),?\\s+(?:has|have|needs?|must)\\s+(?:to\\s+)?be\\s+(${Object.keys(PASSIVE_VERBS).join('|')})\\b`,
  'gi',
);

// "The annual accounts have to go to the league by April", "the lab report has to be on Pegaz by Sunday":
// where a deliverable must be by a date is a task to send it there.
const PLACED_DUE =
  /(?:^|[,;:—–]\s*|\band\s+|\bso\s+)((?:(?:the|your|my|our)\s+)(?:[\w-]+\s+){0,3}?[\w-]+),?\s+(?:has|have|needs?|must)\s+(?:to\s+)?(go(?:\s+(?:in|out|off|back))?\s+to|be\s+(?:in|on|with|at|into))\b/gi;

// "eight hundred", "£250", "five hundred dollars": an amount, which says how much, not what is due.
const AMOUNT =
  /^(?:[\d.,$€£₹]+|(?:(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|and|a)[\s-]*)+)(?:\s*(?:dollars|euros|pounds|rupees|pesos|naira|rand|k|quid))?$/i;

/**
 * "And the vendor fee, first installment, eight hundred, is due by the end of the month": when what is
 * said to be due is an amount, the thing due is named earlier in the same run of commas (the money word
 * first, else the first phrase of the run).
 */
function amountNamed(text: string, at: number, subject: string): { subject: string; at: number } | null {
  if (!AMOUNT.test(subject.trim())) return null;
  const run = text.slice(0, at + 1);
  const start = Math.max(0, run.search(/[^,.;!?]*(?:,[^,.;!?]*)*$/));
  const parts = [...run.slice(start).matchAll(/[^,]+/g)]
    .map((part) => ({ text: part[0].replace(/^\s*(?:and|so|but)\s+/i, '').trim(), at: start + (part.index ?? 0) }))
    .filter((part) => part.text !== '' && !AMOUNT.test(part.text));
  const chosen = parts.find((part) => MONEY.test(part.text)) ?? parts[0];
  if (chosen === undefined) return null;
  return { subject: chosen.text, at: text.indexOf(chosen.text, chosen.at) };
}

/** A deadline said of a deliverable is a task to hand it in (or pay it), for whoever hears it. */
export function dueCandidates(sentence: Sentence, sentenceIndex: number, kind: CueKind): Candidate[] {
  const found: Candidate[] = [];
  const said = [
    ...[...sentence.text.matchAll(DUE)].map((match) => ({ match, verb: undefined as string | undefined })),
    // A passive obligation needs its date: "the kitchen needs to be cleaned" may be anyone's.
    ...(DATED.test(sentence.text)
      ? [...sentence.text.matchAll(PASSIVE_DUE)].map((match) => ({
          match,
          verb: PASSIVE_VERBS[match[2].toLowerCase()],
        }))
      : []),
    ...(DATED.test(sentence.text)
      ? [...sentence.text.matchAll(PLACED_DUE)].map((match) => ({
          match,
          verb: /^go/i.test(match[2]) ? 'send' : 'submit',
        }))
      : []),
  ];
  for (const { match, verb } of said) {
    const named = amountNamed(sentence.text, match.index ?? 0, match[1]);
    const subject = named?.subject ?? match[1];
    if (NOT_DELIVERABLE.test(subject.trim())) continue;
    const clauseStart = named?.at ?? (match.index ?? 0) + match[0].indexOf(subject);
    found.push({
      sentence,
      sentenceIndex,
      kind,
      strength: 'medium',
      cueStart: clauseStart,
      clauseStart,
      clauseEnd: clauseStart + subject.length,
      windowStart: 0,
      windowEnd: 0,
      clause: subject,
      impliedVerb: verb ?? (MONEY.test(subject) ? 'pay' : 'submit'),
    });
  }
  return found;
}

/**
 * When a task said with this mention is due: its time, else 23:59 of its day. A time of today already
 * gone when it is said ("I'll text it to you tonight", at seven) means by the day's end.
 */
export function dueInstant(mention: DateMention, clock: Clock): Date {
  const instant = mentionInstant(mention, clock, 23, 59);
  const { today } = clock;
  const { local } = mention;
  const sameDay = local.year === today.year && local.month === today.month && local.day === today.day;
  if (sameDay && instant.getTime() < clock.startedAt.getTime())
    return localToUtc({ ...local, hour: 23, minute: 59 }, clock.timezone);
  return instant;
}
