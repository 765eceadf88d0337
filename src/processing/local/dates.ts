// The English parser only: the package's main entry loads every locale (hundreds of modules).
import type * as chronoTypes from 'chrono-node';
import * as chrono from 'chrono-node/en';
import {
  COUNTED,
  digitizeOrdinals,
  endOfPeriods,
  fromAnchor,
  isDeadlineAt,
  NUMBER_WORDS,
  ordinalDays,
} from './date-phrases.js';
import { isQuantity } from './date-quantities.js';
import { overlapsAny, wholeWords, withTimesFrom, withWindowStart } from './date-spans.js';
import {
  byMonth,
  countedUnits,
  laterToday,
  maskMeetingMinutes,
  maskVersionNumbers,
  monthParts,
  spokenClock,
  spokenUnits,
  weekAfter,
  weekEdges,
} from './date-spoken.js';
import { weekdayPlaces } from './date-weekdays.js';
import {
  addLocalDays,
  type LocalDateTime,
  localDateTime,
  localToUtc,
  offsetMinutes,
  safeTimezone,
} from './timezone.js';

/** Where relative dates are anchored: the conversation start, read on the user's wall clock. */
export interface Clock {
  startedAt: Date;
  timezone: string;
  /** the start's wall clock and UTC offset, computed once */
  today: LocalDateTime;
  offset: number;
}

export interface DateMention {
  /** position of the mention in the sentence */
  index: number;
  end: number;
  /** local calendar day (hour/minute only meaningful when hasTime) */
  local: LocalDateTime;
  hasTime: boolean;
  /** false for a bare time ("at 3:30"), whose day is only implied as today */
  dateKnown: boolean;
  /** a named day or clock time, not a vague span such as "next week" or "in six weeks" */
  precise: boolean;
  /** introduced by "by", "before", "until", "due" … */
  deadline: boolean;
  /** a counted offset ("in two weeks", "three weeks from today"): a definite day, though not a named one */
  counted?: boolean;
}

export function clockOf(startedAt: Date, timezone: string): Clock {
  const valid = Number.isNaN(startedAt.getTime()) ? new Date(0) : startedAt;
  const zone = safeTimezone(timezone);
  return { startedAt: valid, timezone: zone, today: localDateTime(valid, zone), offset: offsetMinutes(valid, zone) };
}

const MINUTE_WORDS: Record<string, number> = { fifteen: 15, thirty: 30, 'forty-five': 45 };

/** "at eight" → "at 8    ": chrono reads digits only; padding keeps every index in place. */
function digitizeClockWords(sentence: string): string {
  return spokenClock(sentence).replace(
    /\b(at|by|around|till|until|after|from) (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?:[ -](fifteen|thirty|forty[- ]five))?\b(?! (?:days?|weeks?|months?|years?|hours?|minutes?|of|or|more|people|kids|things|times)\b)/gi,
    (whole, prep: string, word: string, minutes: string | undefined) => {
      const digits = NUMBER_WORDS[word.toLowerCase()] ?? word;
      const minute = minutes === undefined ? '' : `:${MINUTE_WORDS[minutes.toLowerCase().replace(' ', '-')] ?? '00'}`;
      // chrono reads no "after 2"; for a due time, "ready after two" is two o'clock.
      const at = prep.toLowerCase() === 'after' ? 'at' : prep;
      return `${at} ${digits}${minute}`.padEnd(whole.length, ' ');
    },
  );
}

const PART_OF_DAY: ReadonlyArray<[RegExp, number, number]> = [
  [/\b(?:end of (?:the )?day|eod|midnight|close of business|cob)\b/i, 23, 59],
  [/\b(?:noon|midday|lunch(?:time)?)\b/i, 12, 0],
  [/\bmorning\b/i, 9, 0],
  [/\bafternoon\b/i, 14, 0],
  [/\b(?:evening|tonight)\b/i, 18, 0],
  [/\bnight\b/i, 20, 0],
];

/** SPEC research §3.4: morning 09:00, afternoon 14:00, evening 18:00, noon 12:00, end of day 23:59. */
function partOfDayTime(text: string): [number, number] | null {
  for (const [pattern, hour, minute] of PART_OF_DAY) if (pattern.test(text)) return [hour, minute];
  return null;
}

/**
 * The stretch of the sentence just before a result: enough for the words that qualify it, and bounded,
 * so that a sentence of thousands of dates ("tomorrow tomorrow …") is not rescanned whole for each.
 */
function wordsBefore(sentence: string, result: chronoTypes.ParsedResult): string {
  return sentence.slice(Math.max(0, result.index - 80), result.index);
}

/** "this afternoon", "in the morning", "tonight" name a time; a bare "night" in "night light" does not. */
function anchoredPartOfDay(result: chronoTypes.ParsedResult, sentence: string): boolean {
  if (/^(?:this|tonight|tomorrow|today)\b/i.test(result.text)) return true;
  return /\b(?:this|in the|at|by|until|before|after|tomorrow|tonight|today)\s+$/i.test(wordsBefore(sentence, result));
}

const EVENING_PLAN =
  /\b(?:dinner|supper|drinks|tonight|evening|party|concert|gig|show|movie|film|cinema|theatre|theater|pub|bar|club|date night)\b/i;

/** `evening`: the sentence names an evening's plan (asked once a sentence, not once a mention). */
function fromChrono(
  result: chronoTypes.ParsedResult,
  sentence: string,
  today: LocalDateTime,
  evening: boolean,
): DateMention | null {
  if (isQuantity(result.text, wordsBefore(sentence, result), sentence.slice(result.index + result.text.length)))
    return null;
  const start = result.start;
  const tags = result.tags();
  const certainDay = start.isCertain('day') || start.isCertain('weekday') || tags.has('result/relativeDate');
  const window = sentence.slice(result.index, result.index + result.text.length + 14);
  const partOfDay = partOfDayTime(window);
  if (!certainDay && !start.isCertain('hour') && (partOfDay === null || !anchoredPartOfDay(result, sentence)))
    return null;
  let day = { year: start.get('year') ?? 1970, month: start.get('month') ?? 1, day: start.get('day') ?? 1 };
  // "Friday from 10 to noon": chrono places a weekday with a span of hours in the week gone by.
  const dayKey = (d: { year: number; month: number; day: number }) => d.year * 10_000 + d.month * 100 + d.day;
  if (start.isCertain('weekday') && !start.isCertain('day') && dayKey(day) < dayKey(today))
    day = addLocalDays({ ...today, ...day }, 7);
  let hour = start.get('hour') ?? 0;
  let minute = start.get('minute') ?? 0;
  let hasTime = start.isCertain('hour');
  // An hour said without am/pm between 1 and 7 is nearly always afternoon or evening ("at 3:30", "at 7");
  // so is one up to 11 for an evening's plan ("dinner at eight").
  if (hasTime && !start.isCertain('meridiem') && ((hour >= 1 && hour <= 7) || (hour >= 8 && hour <= 11 && evening))) {
    hour += 12;
    // "at four" said at 1 pm is today at 16:00, though 4 am had passed and chrono moved it to tomorrow.
    if (!certainDay && hour * 60 + minute > today.hour * 60 + today.minute) day = { ...today };
  }
  if (!hasTime && partOfDay !== null) {
    [hour, minute] = partOfDay;
    hasTime = true;
  }
  const end = result.index + result.text.length;
  const vague = tags.has('result/relativeDate') && !tags.has('result/relativeDateAndTime');
  const precise = !vague && (start.isCertain('day') || start.isCertain('weekday') || hasTime);
  const deadline = isDeadlineAt(sentence, result.index);
  return {
    index: result.index,
    end,
    local: { ...day, hour, minute },
    hasTime,
    dateKnown: certainDay,
    precise,
    deadline,
    counted: vague && /^in\b/i.test(result.text) && COUNTED.test(result.text),
  };
}

/** Folds neighbours such as "Tuesday" + "the 17th" + "at 3:30" into one mention. */
function mergeAdjacent(mentions: DateMention[], sentence: string): DateMention[] {
  const merged: DateMention[] = [];
  for (const mention of [...mentions].sort((a, b) => a.index - b.index)) {
    const previous = merged.at(-1);
    const touching =
      previous !== undefined &&
      (mention.index < previous.end ||
        /^[\s,]*(?:at|on|the)?[\s,]*$/i.test(sentence.slice(previous.end, mention.index)));
    if (previous !== undefined && touching) merged[merged.length - 1] = combine(previous, mention);
    else merged.push(mention);
  }
  return merged;
}

/** The later explicit date is the more specific one ("Friday the 20th"); the time comes from whichever has one. */
function combine(first: DateMention, second: DateMention): DateMention {
  const dateSource = second.dateKnown ? second : first;
  const timeSource = second.hasTime ? second : first;
  return {
    index: Math.min(first.index, second.index),
    end: Math.max(first.end, second.end),
    local: { ...dateSource.local, hour: timeSource.local.hour, minute: timeSource.local.minute },
    hasTime: first.hasTime || second.hasTime,
    dateKnown: first.dateKnown || second.dateKnown,
    precise: first.precise || second.precise,
    deadline: first.deadline || second.deadline,
    counted: first.counted === true || second.counted === true,
  };
}

/** "Tuesday is Leo's football match at five": one day and one bare time apart in a sentence are one moment. */
function withLoneTime(mentions: DateMention[]): DateMention[] {
  const days = mentions.filter((mention) => mention.dateKnown && !mention.hasTime);
  const times = mentions.filter((mention) => !mention.dateKnown && mention.hasTime);
  if (days.length !== 1 || times.length !== 1) return mentions;
  const [day, time] = [days[0], times[0]];
  const joined = { ...combine(day, time), index: day.index, end: day.end };
  return mentions.filter((mention) => mention !== time).map((mention) => (mention === day ? joined : mention));
}

const mentionCache = new WeakMap<object, { clock: Clock; mentions: DateMention[] }>();

/** findDateMentions for a parsed sentence, remembered so that events and action items parse it once. */
export function mentionsIn(sentence: { text: string }, clock: Clock): DateMention[] {
  const cached = mentionCache.get(sentence);
  if (
    cached !== undefined &&
    cached.clock.startedAt.getTime() === clock.startedAt.getTime() &&
    cached.clock.timezone === clock.timezone
  ) {
    return cached.mentions;
  }
  const mentions = findDateMentions(sentence.text, clock);
  mentionCache.set(sentence, { clock, mentions });
  return mentions;
}

// A cheap screen before chrono (~0.1 ms a sentence): digits, or a word that can name a day or time.
const MAY_MENTION_TIME =
  /\d|\b(?:\w*day|fortnight|after (?:this|the|our)|as soon|way home|way back|way out|later|get home|(?:i.m|we.re) home|before (?:i|we) (?:leave|go)|eod|cob|close of|\w*-end|lunch\w*|hour|half|quarter|mid|tonight|tomorrow|morning|arvo|noon|midday|midnight|afternoon|evening|night|week|weekend|month|year|end of|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\w+teenth|twentieth|thirtieth)\b/i;

/** Every future date or time mentioned in a sentence, on the user's wall clock. */
export function findDateMentions(sentence: string, clock: Clock): DateMention[] {
  if (!MAY_MENTION_TIME.test(sentence)) return [];
  const readable = digitizeOrdinals(
    digitizeClockWords(spokenUnits(countedUnits(maskMeetingMinutes(maskVersionNumbers(sentence))))),
  );
  const reference = { instant: clock.startedAt, timezone: clock.offset };
  const today = clock.today;
  const ends = [
    ...endOfPeriods(readable, today),
    ...fromAnchor(readable, today),
    ...weekAfter(readable, today),
    ...monthParts(readable, today),
    ...byMonth(readable, today),
    ...weekEdges(readable, today),
    ...laterToday(readable, today),
    ...weekdayPlaces(readable, today),
  ];
  const parsed = chrono.parse(readable, reference, { forwardDate: true });
  const evening = parsed.length > 0 && EVENING_PLAN.test(readable);
  const library = parsed
    .map((result) => fromChrono(result, readable, today, evening))
    .filter((mention): mention is DateMention => mention !== null);
  const fromLibrary = library.filter((mention) => !overlapsAny(mention, ends));
  // "Friday the 10th" is one day, read whole among the ends; its "the 10th" alone is not another.
  const ordinals = ordinalDays(readable, today).filter((mention) => !overlapsAny(mention, ends));
  const mentions = withWindowStart(
    withLoneTime(mergeAdjacent([...fromLibrary, ...withTimesFrom(ends, library), ...ordinals], readable)),
    readable,
  );
  return (
    mentions
      .filter((mention) => !isPast(mention, clock))
      // "I've been at Deloitte three months now": a span up to now dates nothing ahead.
      .filter((mention) => !SPAN_TO_NOW.test(readable.slice(mention.index, mention.end)))
      // "on the Friday before": a weekday counted from another day, not the coming one.
      .filter((mention) => !RELATIVE_WEEKDAY.test(readable.slice(Math.max(0, mention.index - 4), mention.end + 12)))
      // "forty quid a month", "twice a day": a rate, not "in a month".
      .filter(
        (mention) =>
          !/^an? (?:day|week|month|year)$/i.test(readable.slice(mention.index, mention.end)) ||
          /\bin\s*$/i.test(readable.slice(0, mention.index)),
      )
      .map((mention) => wholeWords(mention, sentence, readable))
  );
}

const RELATIVE_WEEKDAY =
  /^(?:the )(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday) (?:before(?![\w\s]*\b(?:noon|lunch|work|school|\d))|after (?:the|this|that|my|our|your|his|her|their)\b)/i;
const SPAN_TO_NOW = /\b(?:years?|months?|weeks?|days?|hours?)\s+now$/i;

function isPast(mention: DateMention, clock: Clock): boolean {
  const endOfDay = localToUtc({ ...mention.local, hour: 23, minute: 59 }, clock.timezone);
  return endOfDay.getTime() < clock.startedAt.getTime() - 60_000;
}

/** The instant of a mention; a mention without a time gets the caller's default (23:59 for due dates). */
export function mentionInstant(mention: DateMention, clock: Clock, defaultHour: number, defaultMinute: number): Date {
  const local = mention.hasTime ? mention.local : { ...mention.local, hour: defaultHour, minute: defaultMinute };
  return localToUtc(local, clock.timezone);
}
