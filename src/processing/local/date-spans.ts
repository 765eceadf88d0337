import { NUMBER_WORDS } from './date-phrases.js';
import type { DateMention } from './dates.js';

// "on Wednesday morning between 8 and 10", "Saturday, from nine to one": a window said after the day.
const HOUR = `\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')}`;
const WINDOW = new RegExp(
  `^\\s*,?\\s*(?:between|from)\\s+(${HOUR})(?::(\\d{2}))?\\s*(am|pm|a\\.m\\.|p\\.m\\.)?\\s*(?:and|to|till|until|-|–)\\s*(?:${HOUR}|noon)`,
  'i',
);

/**
 * A day followed by a window of hours is due, or starts, at the window's opening: "between 8 and 10"
 * is 08:00. An hour from 1 to 7 said without am or pm is the afternoon's, as elsewhere.
 */
export function withWindowStart(mentions: DateMention[], readable: string): DateMention[] {
  return mentions.map((mention) => {
    const window = WINDOW.exec(readable.slice(mention.end));
    if (window === null) return mention;
    const said = Number(NUMBER_WORDS[window[1].toLowerCase()] ?? window[1]);
    if (said < 1 || said > 12) return mention;
    const meridiem = window[3]?.toLowerCase().replace(/\./g, '');
    const hour = meridiem === 'pm' || (meridiem === undefined && said <= 7) ? (said % 12) + 12 : said % 12;
    return {
      ...mention,
      local: { ...mention.local, hour, minute: Number(window[2] ?? 0) },
      hasTime: true,
      end: mention.end + window[0].length,
    };
  });
}

/** Whether a mention shares any of its span with one of the phrases read whole. */
export function overlapsAny(mention: DateMention, ends: DateMention[]): boolean {
  return ends.some((end) => mention.index < end.end && mention.end > end.index);
}

/**
 * "at 9:30 on Tuesday the 8th": the library reads "9:30 on Tuesday", the day is read whole as "Tuesday
 * the 8th"; the clock time the library found goes to the day it overlaps, rather than being lost with it.
 */
export function withTimesFrom(ends: DateMention[], library: DateMention[]): DateMention[] {
  return ends.map((end) => {
    if (end.hasTime) return end;
    const timed = library.find((mention) => mention.hasTime && overlapsAny(mention, [end]));
    if (timed === undefined) return end;
    return {
      ...end,
      index: Math.min(end.index, timed.index),
      end: Math.max(end.end, timed.end),
      local: { ...end.local, hour: timed.local.hour, minute: timed.local.minute },
      hasTime: true,
    };
  });
}

/** "at ten" was read as "at 10 ": a mention ends where the spoken words it was read from end. */
export function wholeWords(mention: DateMention, sentence: string, readable: string): DateMention {
  let blank = mention.end;
  while (readable[blank] === ' ') blank++;
  // Padding left by a digitized word shows as blanks in the read text over letters in the spoken one.
  const covered = sentence.slice(mention.end, blank);
  let end = /\w/.test(covered) ? mention.end + covered.trimEnd().length : mention.end;
  while (end > 0 && end < sentence.length && /\w/.test(sentence[end - 1]) && /\w/.test(sentence[end])) end++;
  return end === mention.end ? mention : { ...mention, end };
}
