/** Wall-clock arithmetic in an IANA timezone, using only Intl (no timezone database dependency). */

export interface LocalDateTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

/** The timezone itself when Intl knows it, otherwise UTC (the port's contract for invalid values). */
export function safeTimezone(timezone: string): string {
  if (timezone.trim() === '') return 'UTC';
  try {
    formatterFor(timezone);
    return timezone;
  } catch (error) {
    if (error instanceof RangeError) return 'UTC';
    throw error;
  }
}

/** The wall clock in the timezone at an instant. */
export function localDateTime(instant: Date, timezone: string): LocalDateTime {
  const fields: Record<string, number> = {};
  for (const part of formatterFor(timezone).formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return { year: fields.year, month: fields.month, day: fields.day, hour: fields.hour, minute: fields.minute };
}

// Offsets only change at transitions, which fall on quarter hours in every zone; formatToParts is slow.
const QUARTER_HOUR = 900_000;
const MAX_CACHED_OFFSETS = 10_000;
const offsetCache = new Map<string, number>();

/** Minutes east of UTC in the timezone at an instant (e.g. -300 for New York in winter). */
export function offsetMinutes(instant: Date, timezone: string): number {
  const key = `${timezone}|${Math.floor(instant.getTime() / QUARTER_HOUR)}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const local = localDateTime(instant, timezone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  const offset = Math.round((asUtc - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000);
  if (offsetCache.size >= MAX_CACHED_OFFSETS) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

/** The instant at which the timezone's wall clock shows the given local time (DST-aware). */
export function localToUtc(local: LocalDateTime, timezone: string): Date {
  const naive = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  let guess = naive - offsetMinutes(new Date(naive), timezone) * 60_000;
  // A second pass settles instants next to a DST change, where the first offset guess is off by one hour.
  guess = naive - offsetMinutes(new Date(guess), timezone) * 60_000;
  return new Date(guess);
}

/** Adds whole days to a local date (calendar arithmetic, independent of DST). */
export function addLocalDays(local: LocalDateTime, days: number): LocalDateTime {
  const shifted = new Date(Date.UTC(local.year, local.month - 1, local.day + days));
  return { ...local, year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** 0 = Sunday … 6 = Saturday, for a local date. */
export function localWeekday(local: LocalDateTime): number {
  return new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay();
}

const NAIVE_ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?)?$/;

/** Reads a naive local ISO date-time ("2026-03-07T09:00" or "2026-03-07") in the timezone; null if malformed. */
export function parseNaiveLocal(text: string, timezone: string, defaultHour = 23, defaultMinute = 59): Date | null {
  const match = NAIVE_ISO.exec(text.trim());
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const hasTime = match[4] !== undefined;
  const hour = hasTime ? Number(match[4]) : defaultHour;
  const minute = hasTime ? Number(match[5]) : defaultMinute;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  return localToUtc({ year, month, day, hour, minute }, timezone);
}

/** The calendar day on the wearer's wall clock: an evening in New York is not tomorrow's UTC date. */
export function localDayKey(instant: Date, timezone: string): string {
  const { year, month, day } = localDateTime(instant, timezone);
  return `${year}-${month}-${day}`;
}
