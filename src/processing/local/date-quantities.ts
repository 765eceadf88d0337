/**
 * What chrono reads as a time but speech means as a quantity: a duration, a rate, a count of units, a
 * span looked back over. Each is tested on the result's text and the words either side of it.
 */

// chrono reads "1099s" or "5m" as a duration from now; in speech those are form names and sizes.
const BARE_UNIT_NUMBER = /^\d+\s*(?:s|m|h|d|w|y|mo|mins?|hrs?|secs?)$/i;

// "the minute they drop" is an idiom for "as soon as", not a clock reading; "on the day" refers to one.
const BARE_UNIT = /^(?:the |a |this )?(?:second|minute|moment|hour)$|^the day$/i;
// "for two hours" is how long, not when; chrono would read it as two hours from now.
const SPAN =
  /^(?:(?:about|around|roughly|like|maybe|only|just|up to|almost|nearly|over) )?(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple of|several|\d+) (?:minutes?|hours?|days?|weeks?|months?|years?)$/i;
// "walk 30 minutes a day": a rate, which chrono reads as tomorrow at 09:30.
const RATE =
  /^(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|thirty|forty|forty-five|sixty|a few|several|\d+) (?:minutes?|mins?|hours?|hrs?|days?|times?) (?:a|per|each|every) (?:day|week|month|night|morning|evening)$/i;
const NEGATED_PERFECT = /\b(?:haven't|hasn't|hadn't|have not|has not|had not|never)\b[^,.;!?]*$/i;
const SPAN_BEFORE =
  /\b(?:been|for|spend|spends|spent|spending|take|takes|took|taking|lasted|lasts|past|last)\s+(?:the\s+)?$/i;
const DURATION_PHRASE =
  /^for (?:(?:about|around|roughly|another|only|just|up to|over) )?(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple of|several|\d+) (?:hours?|minutes?|mins?|days?|weeks?|months?|years?)\b/i;

/** `text` is chrono's result, `before` the words just before it, `after` the rest of the sentence. */
export function isQuantity(text: string, before: string, after: string): boolean {
  // Number words read as digits leave padding inside the text ("14 days     from today").
  const said = text.replace(/\s+/g, ' ').trim();
  // "The course lasts three weeks": chrono reads the verb as "last" (a day gone by); "ten years now" leaves a
  // bare "now", the present and no date ahead, once its span is dropped.
  if (/^(?:last|lasts|lasted|lasting|now)$/i.test(said)) return true;
  if (BARE_UNIT_NUMBER.test(said) || DURATION_PHRASE.test(said) || BARE_UNIT.test(said) || RATE.test(said)) return true;
  // "for forty-eight hours": chrono read only the units of a compound number, a quantity, not a time.
  if (/\b(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-$/i.test(before)) return true;
  // "off since Saturday": the day something began, gone by.
  if (/\bsince\s+$/i.test(before)) return true;
  // "I haven't touched meat in about ten years": a span a negated perfect looks back over, not a date ahead.
  if (NEGATED_PERFECT.test(before)) return true;
  // "it's been three weeks", "for the past two days": how long, up to now.
  if (SPAN.test(said) && SPAN_BEFORE.test(before)) return true;
  // "a fallback at three thousand", "at five percent": a figure chrono cut short, not a clock reading.
  if (/^[\s-]*(?:hundred|thousand|million|billion|grand|percent|per cent|%)/i.test(after)) return true;
  // "ten minutes to Sintra", "two hours away": how far a place is, not when.
  if (SPAN.test(said) && /^\s+(?:(?:to|from) \p{Lu}|away\b|by (?:car|train|bus)\b|on foot\b)/u.test(after)) return true;
  // "three months of bank statements": an amount of something, not a date.
  return SPAN.test(said) && /^\s+of\b/i.test(after);
}
