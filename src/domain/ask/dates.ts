import * as chrono from 'chrono-node';

/** A span of time a question names, as instants (ms), with the words that named it. */
export interface TimeWindow {
  from: number;
  to: number;
  /** the phrase as written ("yesterday", "last week"), left out of the words searched for */
  phrase: string;
}

interface LocalDay {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;

/** Whether Intl knows the IANA zone name (what the request's `timezone` must be). */
export function isKnownTimezone(timezone: string): boolean {
  if (timezone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** Minutes east of UTC in the zone at an instant, read from Intl's "GMT+05:30" offset name. */
function zoneOffsetMinutes(instant: number, timezone: string): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' })
    .formatToParts(instant)
    .find((p) => p.type === 'timeZoneName')?.value;
  const match = name?.match(/GMT([+-])(\d{2}):?(\d{2})?/);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/** The instant the local day begins in the zone (checked twice around an offset change). */
function startOfLocalDay(day: LocalDay, timezone: string): number {
  const wall = Date.UTC(day.year, day.month - 1, day.day);
  const guess = wall - zoneOffsetMinutes(wall, timezone) * 60_000;
  return wall - zoneOffsetMinutes(guess, timezone) * 60_000;
}

/** The local calendar day at an instant, shifted by `days`. */
function localDay(instant: number, timezone: string, days = 0): LocalDay {
  const shifted = new Date(instant + zoneOffsetMinutes(instant, timezone) * 60_000 + days * DAY_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

const dayWindow = (first: LocalDay, last: LocalDay, timezone: string, phrase: string): TimeWindow => {
  const after = new Date(Date.UTC(last.year, last.month - 1, last.day) + DAY_MS);
  const next = { year: after.getUTCFullYear(), month: after.getUTCMonth() + 1, day: after.getUTCDate() };
  return { from: startOfLocalDay(first, timezone), to: startOfLocalDay(next, timezone) - 1, phrase };
};

const COUNT_WORDS: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 };
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
const ROLLING = /\b(?:last|past|previous)\s+(\d{1,3}|a|one|two|three|four|five|six|seven)\s+(day|week|month)s?\b/i;
const CALENDAR = /\b(last|past|previous|this)\s+(week|month|year)\b/i;

/** "past 3 days", "last two weeks": from the start of that many days ago until now. */
function rollingWindow(count: number, unit: string, phrase: string, now: number, timezone: string): TimeWindow {
  const days = count * UNIT_DAYS[unit.toLowerCase()];
  return { ...dayWindow(localDay(now, timezone, -days), localDay(now, timezone), timezone, phrase), to: now };
}

/** "last week" (Monday to Sunday before this one), "this month" (so far), "past year" (rolling). */
function calendarWindow(match: RegExpMatchArray, now: number, timezone: string): TimeWindow {
  const which = match[1].toLowerCase();
  const unit = match[2].toLowerCase();
  const today = localDay(now, timezone);
  if (which === 'past') return rollingWindow(1, unit, match[0], now, timezone);
  const back = which === 'this' ? 0 : 1;
  let first: LocalDay;
  let last: LocalDay;
  if (unit === 'week') {
    const weekday = (new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay() + 6) % 7; // Monday = 0
    first = localDay(now, timezone, -weekday - 7 * back);
    last = localDay(now, timezone, -weekday - 7 * back + 6);
  } else if (unit === 'month') {
    const start = new Date(Date.UTC(today.year, today.month - 1 - back, 1));
    const end = new Date(Date.UTC(today.year, today.month - back, 0));
    first = { year: start.getUTCFullYear(), month: start.getUTCMonth() + 1, day: 1 };
    last = { year: end.getUTCFullYear(), month: end.getUTCMonth() + 1, day: end.getUTCDate() };
  } else {
    first = { year: today.year - back, month: 1, day: 1 };
    last = { year: today.year - back, month: 12, day: 31 };
  }
  const window = dayWindow(first, last, timezone, match[0]);
  return { ...window, to: Math.min(window.to, now), phrase: match[0] };
}

/** The days chrono reads ("yesterday", "on Monday", "March 3", "between March 1 and March 4"). */
function chronoWindow(question: string, now: number, timezone: string): TimeWindow | null {
  const reference = { instant: new Date(now), timezone: zoneOffsetMinutes(now, timezone) };
  const found = chrono.parse(question, reference, { forwardDate: false });
  if (found.length === 0) return null;
  const days = found.flatMap((r) => [r.start, ...(r.end ? [r.end] : [])]);
  const toDay = (c: chrono.ParsedComponents): LocalDay => ({
    year: c.get('year') ?? 0,
    month: c.get('month') ?? 1,
    day: c.get('day') ?? 1,
  });
  const sorted = days.map(toDay).sort((a, b) => Date.UTC(a.year, a.month, a.day) - Date.UTC(b.year, b.month, b.day));
  const phrase = found.map((r) => r.text).join(' ');
  return dayWindow(sorted[0], sorted[sorted.length - 1], timezone, phrase);
}

/**
 * The span of time a question asks about, resolved in the user's zone at `now`, or null when it names
 * none. A span that starts after now ("tomorrow") is not a filter: the plans were made before.
 */
export function questionWindow(question: string, now: number, timezone: string): TimeWindow | null {
  const rolling = question.match(ROLLING);
  const calendar = rolling ? null : question.match(CALENDAR);
  const window = rolling
    ? rollingWindow(COUNT_WORDS[rolling[1].toLowerCase()] ?? Number(rolling[1]), rolling[2], rolling[0], now, timezone)
    : calendar
      ? calendarWindow(calendar, now, timezone)
      : chronoWindow(question, now, timezone);
  return window && window.from <= now ? window : null;
}

/** A window's days as the user reads them ("2026-03-09" or "2026-03-02 – 2026-03-08"). */
export function describeWindow(window: TimeWindow, timezone: string): string {
  const format = (instant: number) => {
    const d = localDay(instant, timezone);
    return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
  };
  const first = format(window.from);
  const last = format(window.to);
  return first === last ? first : `${first} – ${last}`;
}
