import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clockOf, findDateMentions } from '../../src/processing/local/dates.js';
import { localToUtc, offsetMinutes, parseNaiveLocal, safeTimezone } from '../../src/processing/local/timezone.js';

test('local wall clock converts to UTC on both sides of a DST change', () => {
  const before = localToUtc({ year: 2026, month: 3, day: 7, hour: 9, minute: 0 }, 'America/New_York');
  const after = localToUtc({ year: 2026, month: 3, day: 9, hour: 9, minute: 0 }, 'America/New_York');
  assert.equal(before.toISOString(), '2026-03-07T14:00:00.000Z');
  assert.equal(after.toISOString(), '2026-03-09T13:00:00.000Z');
});

test('offsets east of UTC and half-hour zones are exact', () => {
  assert.equal(offsetMinutes(new Date('2026-01-15T00:00:00Z'), 'Asia/Kolkata'), 330);
  assert.equal(offsetMinutes(new Date('2026-01-15T00:00:00Z'), 'Australia/Sydney'), 660);
});

test('an unknown timezone falls back to UTC', () => {
  assert.equal(safeTimezone('Not/AZone'), 'UTC');
  assert.equal(safeTimezone(''), 'UTC');
  assert.equal(safeTimezone('Europe/Berlin'), 'Europe/Berlin');
});

test('naive local ISO answers are read in the user timezone; a bare date means 23:59', () => {
  assert.equal(parseNaiveLocal('2026-03-07T09:00', 'Europe/Berlin')?.toISOString(), '2026-03-07T08:00:00.000Z');
  assert.equal(parseNaiveLocal('2026-03-07', 'Europe/Berlin')?.toISOString(), '2026-03-07T22:59:00.000Z');
  assert.equal(parseNaiveLocal('next tuesday', 'Europe/Berlin'), null);
  assert.equal(parseNaiveLocal('2026-13-40T09:00', 'Europe/Berlin'), null);
});

test('version numbers and durations are not read as times', () => {
  const clock = clockOf(new Date('2026-05-06T06:00:00Z'), 'Asia/Tokyo');
  const mentions = findDateMentions("I'll pin the image to Node 20 this afternoon and keep it for two hours.", clock);
  assert.deepEqual(
    mentions.map((mention) => [mention.local.hour, mention.local.minute]),
    [[14, 0]],
  );
});

test('"Tuesday the 17th at 3:30" is one mention in the afternoon', () => {
  const clock = clockOf(new Date('2026-03-13T13:30:00Z'), 'America/New_York');
  const [mention] = findDateMentions('It moved to Tuesday the 17th at 3:30.', clock);
  assert.deepEqual(mention.local, { year: 2026, month: 3, day: 17, hour: 15, minute: 30 });
});

test('past dates are dropped', () => {
  const clock = clockOf(new Date('2026-03-13T13:30:00Z'), 'America/New_York');
  assert.deepEqual(findDateMentions('I sent it yesterday and called last week.', clock), []);
});
