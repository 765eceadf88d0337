import { NUMBER_WORDS, phraseMention } from './date-phrases.js';
import type { DateMention } from './dates.js';
import { addLocalDays, type LocalDateTime, localWeekday } from './timezone.js';

/**
 * Spoken date and clock talk chrono does not read: "quarter past ten", "a fortnight", "Friday week",
 * "a week today", "mid-March", "early next week". Rewrites keep every index in place (same length);
 * readers return mentions over the whole phrase, which win over chrono's partial reading of it. Each
 * reader first checks for its key word, so a sentence without one costs a single scan.
 */

const CALENDAR_WORDS = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*$|day$/i;

/** "Node 20", "iPhone 15": a number after a name is a version, not a clock time; blanked, keeping indexes. */
export function maskVersionNumbers(sentence: string): string {
  return sentence.replace(
    /\b([A-Z][A-Za-z]+) (\d{1,3})\b(?!(?:st|nd|rd|th)\b|\s*(?::|am\b|pm\b|a\.m|p\.m|o'clock))/g,
    (whole, name: string, digits: string) =>
      CALENDAR_WORDS.test(name) ? whole : `${name} ${' '.repeat(digits.length)}`,
  );
}

// "email Ana the minutes", "the meeting minutes": the record of a meeting, which chrono reads as a minute from now.
export function maskMeetingMinutes(sentence: string): string {
  return sentence.replace(
    /\b((?:the|meeting|board|our|my|your|these|those) )minutes\b/gi,
    (_whole, before: string) => `${before}${' '.repeat(7)}`,
  );
}

const HOURS = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve';
const PREPOSITION = '(at|by|around|till|until|from|before|after)';
const MINUTE_WORDS = 'five|ten|twenty|twenty-five|twenty five';
const MINUTES: Record<string, number> = { five: 5, ten: 10, twenty: 20, twentyfive: 25 };

function hourOf(word: string): number {
  return Number(NUMBER_WORDS[word.toLowerCase()] ?? word);
}

function sameLength(replacement: string, whole: string): string {
  return replacement.padEnd(whole.length, ' ');
}

/**
 * Clock talk rewritten to digits: "at half twelve" (British) and "half past ten" are :30, "quarter past
 * ten" :15, "quarter to ten" 9:45, "twenty past nine" 9:20, "ten to six" 5:50; "this arvo" (Australian)
 * is this afternoon.
 */
export function spokenClock(sentence: string): string {
  if (!/quarter|half|arvo|\bpast\b|\bto\b/i.test(sentence)) return sentence;
  return (
    sentence
      // "at twenty past nine", "at ten to six", "by five past eight".
      .replace(
        new RegExp(
          `\\b${PREPOSITION} (${MINUTE_WORDS}|\\d{1,2}) (?:minutes )?(past|after|to) (${HOURS}|\\d{1,2})\\b`,
          'gi',
        ),
        (whole, prep: string, minutes: string, side: string, word: string) => {
          const count = MINUTES[minutes.toLowerCase().replace(/[- ]/g, '')] ?? Number(minutes);
          if (!(count > 0 && count < 60)) return whole;
          const hour = hourOf(word);
          const clock =
            side.toLowerCase() === 'to'
              ? `${hour === 1 ? 12 : hour - 1}:${String(60 - count).padStart(2, '0')}`
              : `${hour}:${String(count).padStart(2, '0')}`;
          return sameLength(`${prep} ${clock}`, whole);
        },
      )
      .replace(
        new RegExp(`\\b${PREPOSITION} (?:a )?quarter (past|after|to) (${HOURS}|\\d{1,2})\\b`, 'gi'),
        (whole, prep: string, side: string, word: string) => {
          const hour = hourOf(word);
          const clock = side.toLowerCase() === 'to' ? `${hour === 1 ? 12 : hour - 1}:45` : `${hour}:15`;
          return sameLength(`${prep} ${clock}`, whole);
        },
      )
      .replace(
        new RegExp(`\\b${PREPOSITION} half (?:past )?(${HOURS}|\\d{1,2})\\b`, 'gi'),
        (whole, prep: string, word: string) => sameLength(`${prep} ${hourOf(word)}:30`, whole),
      )
      .replace(/\bthis arvo\b/gi, 'today 2pm')
  );
}

export const WEEKDAY_NAMES = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
export const WEEKDAY_INDEX: Record<string, number> = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};

/**
 * Units chrono does not count: "in a fortnight" is two weeks, "in an hour" one, "in half an hour" thirty
 * minutes; lunch is at noon ("by lunchtime", "Friday lunchtime").
 */
export function spokenUnits(sentence: string): string {
  if (!/fortnight|hour|weekend|lunch/i.test(sentence)) return sentence;
  return sentence
    .replace(/\b(?:a|one) fortnight\b/gi, (whole) => sameLength('2 weeks', whole))
    .replace(/\bin half an hour\b/gi, (whole) => sameLength('in 30 minutes', whole))
    .replace(/\bin an hour\b/gi, (whole) => sameLength('in 1 hour', whole))
    .replace(/\bover the weekend\b/gi, (whole) => sameLength('this weekend', whole))
    .replace(
      new RegExp(
        `\\b(at|by|before|after|until|till|around|over|${WEEKDAY_NAMES}|today|tomorrow) lunch(?:time)?\\b`,
        'gi',
      ),
      (whole, before: string) => sameLength(`${before} noon`, whole),
    );
}

const TEENS = ['thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const ONES = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const COUNT_OF_UNITS = new RegExp(
  `\\b(${TEENS.join('|')}|(?:${TENS.join('|')})(?:[- ](?:${ONES.join('|')}))?) (days?|weeks?|months?|years?|hours?|minutes?)\\b`,
  'gi',
);

/** "fourteen days from today" → "14 days from today": chrono counts in words only up to twelve. */
export function countedUnits(sentence: string): string {
  return sentence.replace(COUNT_OF_UNITS, (whole, count: string, unit: string) => {
    const [tens, ones] = count.toLowerCase().split(/[- ]/);
    const teen = TEENS.indexOf(tens);
    const value = teen !== -1 ? 13 + teen : (TENS.indexOf(tens) + 2) * 10 + (ONES.indexOf(ones ?? '') + 1);
    return sameLength(`${value} ${unit}`, whole);
  });
}

/** The next such weekday after today (a week on when today is that day). */
function nextWeekday(today: LocalDateTime, weekday: number): LocalDateTime {
  const ahead = (weekday - localWeekday(today) + 7) % 7;
  return addLocalDays(today, ahead === 0 ? 7 : ahead);
}

function dayOf(word: string, today: LocalDateTime): LocalDateTime {
  const lower = word.toLowerCase();
  if (lower === 'today') return today;
  if (lower === 'tomorrow') return addLocalDays(today, 1);
  return nextWeekday(today, WEEKDAY_INDEX[lower] ?? 0);
}

/** A named day, as a whole-day mention over the phrase that named it. */
export function mentionOver(sentence: string, match: RegExpMatchArray, local: LocalDateTime): DateMention {
  return phraseMention(sentence, match, { ...local, hour: 0, minute: 0 }, { hasTime: false, precise: true });
}

// "a week from Friday", "a week on Tuesday", "Friday week", "next Tuesday week", "a week today".
const WEEK_AFTER = new RegExp(
  `\\ba week (?:from|on|after) (?:this |next )?(${WEEKDAY_NAMES}|today|tomorrow)\\b|\\b(?:this |next )?(${WEEKDAY_NAMES}) week\\b|\\ba week (?:on )?(${WEEKDAY_NAMES}|today|tomorrow)\\b`,
  'gi',
);

/** A day one week after the day named. */
export function weekAfter(sentence: string, today: LocalDateTime): DateMention[] {
  if (!/week/i.test(sentence)) return [];
  return [...sentence.matchAll(WEEK_AFTER)].map((match) => {
    const named = match[1] ?? match[2] ?? match[3];
    return mentionOver(sentence, match, addLocalDays(dayOf(named, today), 7));
  });
}

export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_PART = new RegExp(
  `\\b(?:(mid)[- ]?|(?:the )?(middle|end|beginning|start) of )(?:(this|next|the) month\\b|(${MONTHS.join('|')})\\b)`,
  'gi',
);

/**
 * "mid-March" and "the middle of next month" are its 15th, "the end of April" its last day, "the
 * beginning of next month" its first; a month already past is next year's.
 */
export function monthParts(sentence: string, today: LocalDateTime): DateMention[] {
  if (!/mid|end of|beginning of|start of/i.test(sentence)) return [];
  const mentions: DateMention[] = [];
  for (const match of sentence.matchAll(MONTH_PART)) {
    const part = (match[1] ?? match[2]).toLowerCase();
    const named = match[4]?.toLowerCase();
    // "the end of this month" and "… of next month" are endOfPeriods' reading.
    if (part === 'end' && named === undefined) continue;
    let month =
      named === undefined ? today.month + (match[3]?.toLowerCase() === 'next' ? 1 : 0) : MONTHS.indexOf(named) + 1;
    let year = today.year;
    if (named !== undefined && month < today.month) year += 1;
    if (month > 12) [month, year] = [month - 12, year + 1];
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const day = part === 'end' ? last : part === 'mid' || part === 'middle' ? 15 : 1;
    const local = { ...today, year, month, day };
    // "the middle of the month" said on the 20th: a day already gone this month is not meant.
    if (year === today.year && month === today.month && day < today.day) continue;
    mentions.push(mentionOver(sentence, match, local));
  }
  return mentions;
}

// "before March", "by March": a month named bare after a deadline word (not "by March 3rd").
const BY_MONTH = new RegExp(
  `\\b(by|before|until|till) (${MONTHS.join('|')})\\b(?!,?\\s+(?:the\\s+)?(?:\\d|[a-z]+(?:st|nd|rd|th)\\b|first|second|third|twenty|thirty))`,
  'gi',
);

/**
 * "by March" is its first day; "renew the passport before March" the last day before it begins (next
 * year's month, when it is past).
 */
export function byMonth(sentence: string, today: LocalDateTime): DateMention[] {
  if (!/\b(?:by|before|until|till) \p{Lu}/u.test(sentence)) return [];
  return [...sentence.matchAll(BY_MONTH)].flatMap((match) => {
    const month = MONTHS.indexOf(match[2].toLowerCase()) + 1;
    // "by March" said in March is this month, already under way: a day for it is not meant.
    if (month === today.month) return [];
    const year = month < today.month ? today.year + 1 : today.year;
    const day = new Date(Date.UTC(year, month - 1, match[1].toLowerCase() === 'before' ? 0 : 1));
    const local = { ...today, year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() };
    return [{ ...mentionOver(sentence, match, local), deadline: true }];
  });
}

const EARLY_NEXT_WEEK = /\b(?:early|(?:the )?(?:beginning|start) of) next week\b/gi;
const BEFORE_WEEKEND = /\bbefore the weekend\b/gi;

// "I'll do that this weekend" said on a Saturday or a Sunday means the weekend under way.
const THIS_WEEKEND = /\b(?:(?:by|over|during) )?(?:this|the) weekend\b(?! after)/gi;

/**
 * "early next week" is next week's Monday; "before the weekend" ends on Friday; "this weekend" said
 * at the weekend is the one under way (its Sunday), not next Saturday.
 */
export function weekEdges(sentence: string, today: LocalDateTime): DateMention[] {
  if (!/week/i.test(sentence)) return [];
  const monday = [...sentence.matchAll(EARLY_NEXT_WEEK)].map((match) =>
    mentionOver(sentence, match, nextWeekday(today, 1)),
  );
  const friday = [...sentence.matchAll(BEFORE_WEEKEND)].map((match) => ({
    ...mentionOver(sentence, match, localWeekday(today) === 5 ? today : nextWeekday(today, 5)),
    deadline: true,
  }));
  const weekday = localWeekday(today);
  const underWay =
    weekday === 6 || weekday === 0
      ? [...sentence.matchAll(THIS_WEEKEND)]
          .filter((match) => !/\bbefore\s+$/i.test(sentence.slice(Math.max(0, match.index - 10), match.index)))
          // "By the weekend?" asked on a Sunday means the coming one; "this weekend" is still today's.
          .filter((match) => weekday === 6 || /\bthis weekend\b/i.test(match[0]))
          .map((match) => ({
            ...mentionOver(sentence, match, weekday === 6 ? addLocalDays(today, 1) : today),
            deadline: /^by\b/i.test(match[0]),
          }))
      : [];
  return [...monday, ...friday, ...underWay];
}

// "right after this call", "after this meeting", "I'll forward it after this.", "as soon as I hang up", "on the way
// home", "before we leave", "when I get home", "I'll ring them later": later the same day. A bare "later" ends its
// clause; "later this week" and "later in the year" are read as their own dates.
const LATER_TODAY =
  /\b(?:(?:(?:right|straight|just|directly) )?after (?:this|our) (?:call|meeting|session|appointment)|(?:right|straight|just|directly) after the (?:call|meeting|session|appointment)|(?:(?:right|straight) )?after this(?=\s*[.!]?$)|(?:right|straight) after this|as soon as (?:i|we) (?:hang up|get (?:home|back|off the phone))|on (?:my|your|the) way (?:home|back|out)|when i get (?:home|back) (?:later|tonight)|when (?:i|we) get home|(?:once|as soon as) (?:i'm|we're) home|before (?:i|we) (?:leave|go)(?: (?:here|home|today))?(?=\s*(?:[.,!?;]|$))|later (?:today|on)|later(?=\s*(?:[.!?;]|,(?!\s*(?:once|when|after|if|until)\b)|$)))\b/gi;

/** Something done straight after the conversation is due the same day. */
export function laterToday(sentence: string, today: LocalDateTime): DateMention[] {
  if (!/after|as soon|way|later|when|once|before/i.test(sentence)) return [];
  return [...sentence.matchAll(LATER_TODAY)].map((match) => ({
    ...mentionOver(sentence, match, today),
    precise: false,
  }));
}
