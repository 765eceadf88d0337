// The English parser only: the package's main entry loads every locale (hundreds of modules).
import type * as chronoTypes from 'chrono-node';
import * as chrono from 'chrono-node/en';

/** A span of time a question names, as instants (ms), with the words that named it. */
export interface TimeWindow {
  from: number;
  to: number;
  /** the phrases as written ("yesterday", "last week"), left out of the words searched for */
  phrases: string[];
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

const dayWindow = (first: LocalDay, last: LocalDay, timezone: string, phrases: string[]): TimeWindow => {
  const after = new Date(Date.UTC(last.year, last.month - 1, last.day) + DAY_MS);
  const next = { year: after.getUTCFullYear(), month: after.getUTCMonth() + 1, day: after.getUTCDate() };
  return { from: startOfLocalDay(first, timezone), to: startOfLocalDay(next, timezone) - 1, phrases };
};

const COUNT_WORDS: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 };
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
const ROLLING = /\b(?:last|past|previous)\s+(\d{1,3}|a|one|two|three|four|five|six|seven)\s+(day|week|month)s?\b/i;
const CALENDAR = /\b(last|past|previous|this)\s+(week|month|year)\b/i;

/** "past 3 days", "last two weeks": from the start of that many days ago until now. */
function rollingWindow(count: number, unit: string, phrase: string, now: number, timezone: string): TimeWindow {
  const days = count * UNIT_DAYS[unit.toLowerCase()];
  return { ...dayWindow(localDay(now, timezone, -days), localDay(now, timezone), timezone, [phrase]), to: now };
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
  const window = dayWindow(first, last, timezone, [match[0]]);
  return { ...window, to: Math.min(window.to, now) };
}

const toDay = (c: chronoTypes.ParsedComponents): LocalDay => ({
  year: c.get('year') ?? 0,
  month: c.get('month') ?? 1,
  day: c.get('day') ?? 1,
});
const addDays = (day: LocalDay, days: number): LocalDay => {
  const d = new Date(Date.UTC(day.year, day.month - 1, day.day) + days * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};
const dayNumber = (d: LocalDay) => Date.UTC(d.year, d.month - 1, d.day);

/** A month named alone ("in January"): capitalised, since "march" and "may" are words too. */
const monthOnly = (r: chronoTypes.ParsedResult) =>
  r.start.isCertain('month') && !r.start.isCertain('day') && !r.start.isCertain('weekday');

/** Whether a result names a date, not a time of day ("at 5") or the present ("now"). */
const namesADate = (r: chronoTypes.ParsedResult) =>
  !/\bnow\b/i.test(r.text) &&
  (r.start.isCertain('day') || r.start.isCertain('weekday') || (monthOnly(r) && /^(?:in |of )?[A-Z]/.test(r.text)));

/** The first and last day a result covers: a month alone is the month, "two weeks ago" the week around. */
function daysOf(r: chronoTypes.ParsedResult): [LocalDay, LocalDay] {
  const first = toDay(r.start);
  if (monthOnly(r)) return [{ ...first, day: 1 }, addDays({ ...first, month: first.month + 1, day: 1 }, -1)];
  const slack = /\bago\b/i.test(r.text) ? (/month/i.test(r.text) ? 15 : /week/i.test(r.text) ? 3 : 0) : 0;
  return [addDays(first, -slack), addDays(r.end ? toDay(r.end) : first, slack)];
}

/** The days chrono reads ("yesterday", "on Monday", "March 3", "since Monday", "between March 1 and 4"). */
function chronoWindow(question: string, now: number, timezone: string): TimeWindow | null {
  const reference = { instant: new Date(now), timezone: zoneOffsetMinutes(now, timezone) };
  const found = chrono.parse(question, reference, { forwardDate: false }).filter(namesADate);
  if (found.length === 0) return null;
  const days = found.flatMap(daysOf).sort((a, b) => dayNumber(a) - dayNumber(b));
  const window = dayWindow(
    days[0],
    days[days.length - 1],
    timezone,
    found.map((r) => r.text),
  );
  const since = /\b(?:since|after|from)\s+$/i.test(question.slice(0, found[0].index)) && found.length === 1;
  return since ? { ...window, to: now } : window;
}

const WEEKEND = /\b(?:(?:last|this|over the|on the|the)\s+)?weekend\b/i;

/** "over the weekend": the latest Saturday and Sunday (this one, while it lasts). */
function weekendWindow(match: RegExpMatchArray, now: number, timezone: string): TimeWindow {
  const today = localDay(now, timezone);
  const weekday = (new Date(dayNumber(today)).getUTCDay() + 6) % 7; // Monday = 0
  const saturday = addDays(today, weekday >= 5 ? 5 - weekday : -(weekday + 2));
  const window = dayWindow(saturday, addDays(saturday, 1), timezone, [match[0]]);
  return { ...window, to: Math.min(window.to, now) };
}

/**
 * The span of time a question asks about, resolved in the user's zone at `now`, or null when it names
 * none. A span that starts after now ("tomorrow") is not a filter: the plans were made before.
 */
export function questionWindow(question: string, now: number, timezone: string): TimeWindow | null {
  const rolling = question.match(ROLLING);
  const calendar = rolling ? null : question.match(CALENDAR);
  const weekend = rolling || calendar ? null : question.match(WEEKEND);
  const window = rolling
    ? rollingWindow(COUNT_WORDS[rolling[1].toLowerCase()] ?? Number(rolling[1]), rolling[2], rolling[0], now, timezone)
    : calendar
      ? calendarWindow(calendar, now, timezone)
      : weekend
        ? weekendWindow(weekend, now, timezone)
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
