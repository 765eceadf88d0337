import type { Analysis } from './analysis.js';
import { type Clock, findDateMentions } from './dates.js';
import { localDateTime, localToUtc } from './timezone.js';

/**
 * "Priya's party is on the 14th." "What time?" "Around six.": the time asked for and answered just after
 * an event places it, where the event's own sentence gave only the day.
 */

const TIME_ASKED =
  /^(?:(?:and|so|okay|ok|right|great),?\s+)?(?:what time|when(?:'s| is) it|starting when|from when)\b[^?]*\?$/i;
// Hedges around a clock time said on its own: "Around six.", "Say half seven?", "Six-ish."
const HEDGE =
  /^(?:(?:around|about|roughly|maybe|say|like|probably|from|at)\s+)+|(?:-?ish|,?\s*(?:i think|probably|or so))$/gi;
const LOOK_AHEAD = 3;

/** The event's start moved to the time answered after it, on the same day (as it was when none was). */
export function answeredTime(analysis: Analysis, order: number, start: Date, clock: Clock): Date {
  const { sentences } = analysis;
  for (let index = order + 1; index < Math.min(sentences.length - 1, order + LOOK_AHEAD); index++) {
    if (!TIME_ASKED.test(sentences[index].text.trim())) continue;
    const answer = sentences[index + 1];
    if (answer.turn === sentences[index].turn) return start;
    const bare = answer.text
      .trim()
      .replace(/[.!?]+$/, '')
      .replace(HEDGE, '')
      .trim();
    if (bare === '' || bare.split(/\s+/).length > 4) return start;
    const time = findDateMentions(`at ${bare}`, clock).find((mention) => mention.hasTime && !mention.dateKnown);
    if (time === undefined) return start;
    const day = localDateTime(start, clock.timezone);
    return localToUtc({ ...day, hour: time.local.hour, minute: time.local.minute }, clock.timezone);
  }
  return start;
}

interface Placed {
  event: { start: Date };
  /** a clock time was said, not the 09:00 a bare day is placed at */
  timed: boolean;
  /** its day on the wearer's wall clock (`localDayKey`) */
  day: string;
}

/** "Dinner on Friday?" … "Italian on Friday at 7 then.": the time settled later, on its day, places the event. */
export function settleLater(earlier: Placed, later: Placed): void {
  if (earlier.timed || !later.timed || earlier.day !== later.day) return;
  earlier.event.start = later.event.start;
  earlier.timed = true;
}
