/** Dates on pages are shown, and typed, in the user's own time zone. */

// Building an Intl formatter costs far more than using one: keep one per zone.
const displayFormats = new Map<string, Intl.DateTimeFormat>();
const partFormats = new Map<string, Intl.DateTimeFormat>();

function cached(cache: Map<string, Intl.DateTimeFormat>, timeZone: string, make: () => Intl.DateTimeFormat) {
  let format = cache.get(timeZone);
  if (!format) {
    format = make();
    cache.set(timeZone, format);
  }
  return format;
}

export function formatTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const format = cached(
    displayFormats,
    timeZone,
    () => new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' }),
  );
  return format.format(new Date(iso));
}

/** Minutes east of UTC of `timeZone` at the instant `ms`. */
function offsetMinutes(ms: number, timeZone: string): number {
  const format = cached(
    partFormats,
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }),
  );
  const parts = format.formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** A wall-clock `YYYY-MM-DDTHH:MM` in `timeZone` → ISO 8601 UTC (DST edges resolve to the later offset). */
export function zonedToIso(local: string, timeZone: string): string {
  const asUtc = Date.parse(`${local.length === 16 ? `${local}:00` : local}Z`);
  let ms = asUtc - offsetMinutes(asUtc, timeZone) * 60_000;
  ms = asUtc - offsetMinutes(ms, timeZone) * 60_000;
  return new Date(ms).toISOString();
}

/** ISO 8601 → the `YYYY-MM-DDTHH:MM` value of a datetime-local input in `timeZone`. */
export function isoToLocalInput(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  return new Date(ms + offsetMinutes(ms, timeZone) * 60_000).toISOString().slice(0, 16);
}

/** `YYYY-MM-DD` of a date input → the first or last millisecond of that day in `timeZone`, as epoch ms. */
export function dayBoundary(day: string, timeZone: string, end: boolean): number {
  const start = Date.parse(zonedToIso(`${day}T00:00`, timeZone));
  if (!end) return start;
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return Date.parse(zonedToIso(`${next}T00:00`, timeZone)) - 1;
}

export function seconds(value: number): string {
  const total = Math.max(0, Math.floor(value));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}
