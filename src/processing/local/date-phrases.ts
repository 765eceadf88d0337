import type { DateMention } from './dates.js';
import { addLocalDays, type LocalDateTime, localWeekday } from './timezone.js';

/**
 * Date phrases chrono does not read, or reads apart: "the 24th", "end of the week",
 * "three weeks from today". Each becomes a mention with its index in the sentence.
 */

/** "by", "before", "until", "due" … right before a mention make it a deadline. */
const DEADLINE_BEFORE = /\b(?:by|before|until|till|due|no later than|deadline(?: is)?)\s*(?:the\s+)?$/i;

/** Whether the words just before position `index` of the sentence make the mention there a deadline. */
export function isDeadlineAt(sentence: string, index: number): boolean {
  return DEADLINE_BEFORE.test(sentence.slice(Math.max(0, index - 16), index));
}

/** A mention a phrase reader matched: its span, its day, and whether it is a deadline. */
export function phraseMention(
  sentence: string,
  match: RegExpMatchArray,
  local: LocalDateTime,
  shape: Pick<DateMention, 'hasTime' | 'precise' | 'counted'>,
): DateMention {
  const index = match.index ?? 0;
  const deadline = isDeadlineAt(sentence, index);
  return { index, end: index + match[0].length, local, dateKnown: true, deadline, ...shape };
}

export const NUMBER_WORDS: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
};

// "in two weeks", "10 days": a number of units, unlike "next week".
export const COUNTED =
  /\b(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple of|\d+)\s+(?:days?|weeks?|months?)\b/i;
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7 };
const FROM_ANCHOR =
  /\b(an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+)\s+(days?|weeks?|months?)\s+(?:from|after)\s+(today|now|tomorrow)\b/gi;

/** "three weeks from today": chrono reads "three weeks" and "today" apart; this reads them as one day. */
export function fromAnchor(sentence: string, today: LocalDateTime): DateMention[] {
  const mentions: DateMention[] = [];
  for (const match of sentence.matchAll(FROM_ANCHOR)) {
    const count = Number(NUMBER_WORDS[match[1].toLowerCase()] ?? (/^an?$/i.test(match[1]) ? 1 : match[1]));
    const unit = match[2].toLowerCase().replace(/s$/, '');
    const start = match[3].toLowerCase() === 'tomorrow' ? 1 : 0;
    const day =
      unit === 'month'
        ? {
            ...today,
            month: ((today.month - 1 + count) % 12) + 1,
            year: today.year + Math.floor((today.month - 1 + count) / 12),
          }
        : addLocalDays(today, start + count * (UNIT_DAYS[unit] ?? 1));
    const local = { ...day, hour: 0, minute: 0 };
    mentions.push(phraseMention(sentence, match, local, { hasTime: false, precise: false, counted: true }));
  }
  return mentions;
}

const ORDINAL_DAY = /\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b/gi;

/** "on the 24th", "before the 30th": the next such day of the month, which chrono does not read. */
export function ordinalDays(sentence: string, today: LocalDateTime): DateMention[] {
  const mentions: DateMention[] = [];
  for (const match of sentence.matchAll(ORDINAL_DAY)) {
    const day = Number(match[1]);
    if (day < 1 || day > 31) continue;
    // "before the third", said on the third, means next month's.
    const before = /\bbefore\s+$/i.test(sentence.slice(0, match.index));
    const monthOffset = day > today.day || (day === today.day && !before) ? 0 : 1;
    const first = new Date(Date.UTC(today.year, today.month - 1 + monthOffset, 1));
    const local = { year: first.getUTCFullYear(), month: first.getUTCMonth() + 1, day, hour: 0, minute: 0 };
    mentions.push(phraseMention(sentence, match, local, { hasTime: false, precise: true }));
  }
  return mentions;
}

type Period = 'day' | 'week' | 'month' | 'quarter' | 'year';

// "end of the week", "end of next month"; the day's end is also "EOD", "COB" or "close of business".
const END_OF = /\b(?:the )?end of (?:the |this |(next) )?(day|week|month|quarter|year)\b/gi;
const OTHER_ENDS: ReadonlyArray<[RegExp, Period]> = [
  [/\b(?:EOD|COB)\b|\b(?:close|end) of (?:business|play)\b/g, 'day'],
  [/\b(?:(next) )?month[- ]end\b/gi, 'month'],
  [/\b(?:(next) )?quarter[- ]end\b/gi, 'quarter'],
  [/\b(?:(next) )?year[- ]end\b/gi, 'year'],
];

/** The last day of the month `offset` months after today's. */
function lastOfMonth(today: LocalDateTime, offset: number): LocalDateTime {
  const last = new Date(Date.UTC(today.year, today.month + offset, 0));
  return { ...today, year: last.getUTCFullYear(), month: last.getUTCMonth() + 1, day: last.getUTCDate() };
}

function endOf(period: Period, next: boolean, today: LocalDateTime): LocalDateTime {
  switch (period) {
    case 'day':
      return today;
    case 'week':
      return addLocalDays(today, ((5 - localWeekday(today) + 7) % 7) + (next ? 7 : 0));
    case 'month':
      return lastOfMonth(today, next ? 1 : 0);
    case 'quarter':
      return lastOfMonth(today, ((3 - (today.month % 3)) % 3) + (next ? 3 : 0));
    case 'year':
      return lastOfMonth(today, 12 - today.month + (next ? 12 : 0));
  }
}

/**
 * "end of the day" (or EOD) → today 23:59, "end of the week" → the coming Friday, "end of the month" (or
 * month-end) → its last day, the quarter's and the year's likewise; "next" one period later.
 */
export function endOfPeriods(sentence: string, today: LocalDateTime): DateMention[] {
  const found: Array<[RegExpMatchArray, Period, boolean]> = [];
  for (const match of sentence.matchAll(END_OF))
    found.push([match, match[2].toLowerCase() as Period, match[1] !== undefined]);
  if (/eod|cob|close of|end of (?:business|play)|-end|\send\b/i.test(sentence))
    for (const [pattern, period] of OTHER_ENDS)
      for (const match of sentence.matchAll(pattern)) found.push([match, period, match[1] !== undefined]);
  const ends = found
    .filter(([, period, next]) => !(next && period === 'day'))
    .map(([match, period, next]) => {
      const local = { ...endOf(period, next, today), hour: 23, minute: 59 };
      return phraseMention(sentence, match, local, { hasTime: true, precise: true });
    });
  return [...ends, ...withinThisWeek(sentence, today), ...withinThisMonth(sentence, today)];
}

// "I'll send one this week", "later this week"; "the end of this week" is END_OF's.
const THIS_WEEK = /(?<!\b(?:end of|after|until|past) )\b(?:(?:later|sometime|some time) )?this week\b/gi;

/**
 * "this week" → the working week's Friday, 23:59; said at the weekend, the coming week's. A span, not a
 * named day: it dates a task said in its sentence, never one said around it.
 */
function withinThisWeek(sentence: string, today: LocalDateTime): DateMention[] {
  if (!/this week/i.test(sentence)) return [];
  const weekday = localWeekday(today);
  const toFriday = weekday === 6 || weekday === 0 ? (5 - weekday + 7) % 7 : 5 - weekday;
  const local = { ...addLocalDays(today, toFriday), hour: 23, minute: 59 };
  return [...sentence.matchAll(THIS_WEEK)].map((match) =>
    phraseMention(sentence, match, local, { hasTime: true, precise: false }),
  );
}

// "I'll tell him this month", "sometime this month"; "the end of this month" is END_OF's.
// "before the fifteenth this month" names its day; "this month's fee" is no time at all.
const THIS_MONTH =
  /(?<!\b(?:end of|after|until|past|of|for|\d+|\d+(?:st|nd|rd|th)|(?:[a-z]+-)?(?:first|second|third|[a-z]+th)) )\b(?:(?:later|sometime|some time) )?this month\b(?!['’])/gi;

/** "this month" → its last day, 23:59: a span like "this week", dating only a task said in its sentence. */
function withinThisMonth(sentence: string, today: LocalDateTime): DateMention[] {
  if (!/this month/i.test(sentence)) return [];
  const local = { ...lastOfMonth(today, 0), hour: 23, minute: 59 };
  return [...sentence.matchAll(THIS_MONTH)].map((match) =>
    phraseMention(sentence, match, local, { hasTime: true, precise: false }),
  );
}

const UNITS_ORDINAL: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
};
const SPELLED_ORDINAL =
  /\b(?:(twenty|thirty)[\s-])?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)\b/gi;
// Only a spelled ordinal said as a date: after "the", or before or after a month's name.
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*';
const AS_DATE_BEFORE = new RegExp(`(?:\\bthe|\\b${MONTH})\\s+$`, 'i');
const AS_DATE_AFTER = new RegExp(`^\\s+of\\s+${MONTH}\\b`, 'i');
// "the first eight bars", "the second problem set": an ordinal that counts the words after it is no date.
const COUNTS_WHAT_FOLLOWS =
  /^\s+(?!(?:of|at|in|on|and|or|for|to|by|is|was|works|when|then|before|after|until|we|i|you|he|she|they|so|but|would|could|will|next|this|please|if|maybe|right|okay|ok|again|morning|afternoon|evening|night|is|it)\b)[a-z]/;

function suffix(day: number): string {
  if (day % 10 === 1 && day !== 11) return 'st';
  if (day % 10 === 2 && day !== 12) return 'nd';
  if (day % 10 === 3 && day !== 13) return 'rd';
  return 'th';
}

/** "the twenty-third" → "the        23rd": digits chrono reads, padded in front so every index stays put. */
export function digitizeOrdinals(sentence: string): string {
  return sentence.replace(SPELLED_ORDINAL, (whole, tens: string | undefined, unit: string, offset: number) => {
    const before = sentence.slice(0, offset);
    const after = sentence.slice(offset + whole.length);
    if (!AS_DATE_BEFORE.test(before) && !AS_DATE_AFTER.test(after)) return whole;
    if (!AS_DATE_AFTER.test(after) && COUNTS_WHAT_FOLLOWS.test(after)) return whole;
    const day =
      (tens === undefined ? 0 : tens.toLowerCase() === 'twenty' ? 20 : 30) + (UNITS_ORDINAL[unit.toLowerCase()] ?? 0);
    if (day < 1 || day > 31) return whole;
    return `${day}${suffix(day)}`.padStart(whole.length, ' ');
  });
}
