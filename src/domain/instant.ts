/**
 * Instants as clients send them. RFC 3339 wants an offset, but ISO 8601 (and the reference service's
 * parser) also takes a date-time without one and a bare date; both are read as UTC, never as the
 * server's local time. Years run from 0001 to 9999, as most clients' date types do.
 */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|z|[+-]\d{2}:?\d{2})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month !== 2 || day <= 28 || leap;
}

function validOffset(offset: string | undefined): boolean {
  if (!offset || offset === 'Z' || offset === 'z') return true;
  const digits = offset.replace(':', '');
  return Number(digits.slice(1, 3)) <= 23 && Number(digits.slice(3, 5)) <= 59;
}

/**
 * Epoch milliseconds of `text`, or NaN when it is not a date or date-time. A bare date is the start of
 * that UTC day, or its last millisecond with `bareDate: 'end'` (an inclusive end of a range).
 */
export function parseInstant(text: string, bareDate: 'start' | 'end' = 'start'): number {
  const date = DATE.exec(text);
  if (date) {
    if (!validDate(Number(date[1]), Number(date[2]), Number(date[3]))) return Number.NaN;
    return Date.parse(`${text}T${bareDate === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`);
  }
  const m = DATE_TIME.exec(text);
  if (!m) return Number.NaN;
  const [, year, month, day, hour, minute, second = '00', fraction = '', offset] = m;
  if (!validDate(Number(year), Number(month), Number(day))) return Number.NaN;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59 || !validOffset(offset)) return Number.NaN;
  const zone =
    !offset || offset === 'z' ? 'Z' : offset.length === 5 ? `${offset.slice(0, 3)}:${offset.slice(3)}` : offset;
  // Date.parse keeps milliseconds only: longer fractions are cut to three digits.
  return Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${zone}`);
}

/** Whether `text` is an instant `parseInstant` reads (the `date-time` format of request schemas). */
export function isInstant(text: string): boolean {
  return !Number.isNaN(parseInstant(text));
}
