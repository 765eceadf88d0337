import { MONTHS, mentionOver as mention, WEEKDAY_INDEX, WEEKDAY_NAMES } from './date-spoken.js';
import type { DateMention } from './dates.js';
import { addLocalDays, type LocalDateTime, localWeekday } from './timezone.js';

/**
 * Days named by a weekday and where it falls, which chrono reads as the next such weekday: "the last
 * Saturday of May", "the first Monday of next month", "Friday the 7th" (the next Friday that is a 7th).
 */

const NTH: Record<string, number> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
};

const NTH_WEEKDAY = new RegExp(
  `\\b(?:the\\s+)?(first|1st|second|2nd|third|3rd|fourth|4th|last)\\s+(${WEEKDAY_NAMES})\\s+(?:of|in)\\s+(?:(this|next|the) month|(${MONTHS.join('|')}))\\b`,
  'gi',
);
// Ordinals reach here as digits ("the seventh" is read as "the 7th" before).
const WEEKDAY_DATED = new RegExp(
  `\\b(${WEEKDAY_NAMES}),?\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)\\b(?!,? (?:of )?(?:${MONTHS.map((month) => month.slice(0, 3)).join('|')}))`,
  'gi',
);

// "the Tuesday after next", "not next Tuesday, the Tuesday after": the one a week after the coming one.
const WEEKDAY_AFTER = new RegExp(
  `\\bthe (${WEEKDAY_NAMES}) after(?: next)?\\b(?! (?:the|this|that|my|our|your|\\p{L}+day)\\b)`,
  'giu',
);

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The nth (or last) given weekday of a month: its day of the month. */
function nthWeekday(year: number, month: number, weekday: number, nth: number | 'last'): number {
  const days = daysIn(year, month);
  if (nth === 'last') {
    const lastWeekday = new Date(Date.UTC(year, month - 1, days)).getUTCDay();
    return days - ((lastWeekday - weekday + 7) % 7);
  }
  const firstWeekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return 1 + ((weekday - firstWeekday + 7) % 7) + (nth - 1) * 7;
}

/** "the last Saturday of May", "the first Monday of next month": a month already past is next year's. */
function nthWeekdays(sentence: string, today: LocalDateTime): DateMention[] {
  return [...sentence.matchAll(NTH_WEEKDAY)].flatMap((match) => {
    const ordinal = match[1].toLowerCase();
    const nth = ordinal === 'last' ? 'last' : NTH[ordinal];
    const weekday = WEEKDAY_INDEX[match[2].toLowerCase()];
    const named = match[4]?.toLowerCase();
    let month =
      named === undefined ? today.month + (match[3]?.toLowerCase() === 'next' ? 1 : 0) : MONTHS.indexOf(named) + 1;
    let year = today.year;
    if (month > 12) [month, year] = [month - 12, year + 1];
    let day = nthWeekday(year, month, weekday, nth);
    // A day already gone: a named month's is next year's, "the month"'s (a monthly meeting) next month's.
    if (month < today.month || (month === today.month && day < today.day)) {
      if (named !== undefined) year += 1;
      else [month, year] = month === 12 ? [1, year + 1] : [month + 1, year];
      day = nthWeekday(year, month, weekday, nth);
    }
    if (day > daysIn(year, month)) return [];
    return [mention(sentence, match, { ...today, year, month, day })];
  });
}

/** "Friday the 7th": the first day from today that is both; none within a year, no reading. */
function datedWeekdays(sentence: string, today: LocalDateTime): DateMention[] {
  return [...sentence.matchAll(WEEKDAY_DATED)].flatMap((match) => {
    const weekday = WEEKDAY_INDEX[match[1].toLowerCase()];
    const date = Number(match[2]);
    // This month's (if not gone) and the next thirteen months' day of that date.
    for (let ahead = 0; ahead <= 13; ahead++) {
      const month = ((today.month - 1 + ahead) % 12) + 1;
      const year = today.year + Math.floor((today.month - 1 + ahead) / 12);
      const local = { ...today, year, month, day: date };
      // "the incident Monday the 15th", said on the 17th: this month's, gone by (and dropped as past),
      // not one a year on.
      if (ahead === 0 && date < today.day) {
        if (localWeekday(local) === weekday) return [mention(sentence, match, local)];
        continue;
      }
      if (date <= daysIn(year, month) && localWeekday(local) === weekday) return [mention(sentence, match, local)];
    }
    return [];
  });
}

/** "the Tuesday after next": the coming Tuesday (a week on when today is one) and a week more. */
function weekdaysAfter(sentence: string, today: LocalDateTime): DateMention[] {
  return [...sentence.matchAll(WEEKDAY_AFTER)].map((match) => {
    const ahead = (WEEKDAY_INDEX[match[1].toLowerCase()] - localWeekday(today) + 7) % 7 || 7;
    return mention(sentence, match, addLocalDays(today, ahead + 7));
  });
}

export function weekdayPlaces(sentence: string, today: LocalDateTime): DateMention[] {
  if (!/day\b/i.test(sentence)) return [];
  return [...nthWeekdays(sentence, today), ...datedWeekdays(sentence, today), ...weekdaysAfter(sentence, today)];
}
