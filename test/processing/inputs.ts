import type { TranscriptInput } from '../../src/processing/engine.js';

export interface InputOptions {
  startedAt?: string;
  timezone?: string;
  userName?: string;
  language?: string;
}

const DEFAULT_START = '2026-03-04T09:00:00-05:00';

/** A plain-text input: a memo or monologue, all the user's own words. */
export function memo(text: string, options: InputOptions = {}): TranscriptInput {
  return {
    text,
    segments: [],
    startedAt: new Date(options.startedAt ?? DEFAULT_START),
    timezone: options.timezone ?? 'America/New_York',
    language: options.language ?? 'en',
    userName: options.userName ?? 'Sam',
  };
}

/** A diarized conversation; each line is [speaker, isUser, text]. */
export function dialogue(lines: Array<[string, boolean, string]>, options: InputOptions = {}): TranscriptInput {
  const segments = lines.map(([speaker, isUser, text], index) => ({
    speaker,
    isUser,
    text,
    start: index * 5,
    end: index * 5 + 4,
  }));
  return {
    ...memo(segments.map((segment) => `${segment.speaker}: ${segment.text}`).join('\n'), options),
    segments,
  };
}

/** The instant's wall clock in a timezone as "YYYY-MM-DDTHH:MM", for readable due-date assertions. */
export function wallClock(instant: Date | null, timezone: string): string | null {
  if (instant === null) return null;
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(instant);
  const field = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return `${field('year')}-${field('month')}-${field('day')}T${field('hour')}:${field('minute')}`;
}
