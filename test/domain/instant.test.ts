import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isInstant, parseInstant } from '../../src/domain/instant.js';

const utc = (text: string) => Date.parse(text);

test('date-times with an offset read as RFC 3339 does', () => {
  assert.equal(parseInstant('2027-01-10T09:00:00Z'), utc('2027-01-10T09:00:00Z'));
  assert.equal(parseInstant('2027-01-10T09:00:00.123+02:00'), utc('2027-01-10T07:00:00.123Z'));
  assert.equal(parseInstant('2027-01-10t09:00:00z'), utc('2027-01-10T09:00:00Z'));
  assert.equal(parseInstant('2027-01-10T09:00:00-0530'), utc('2027-01-10T14:30:00Z'));
  assert.equal(parseInstant('2027-01-10T09:00:00.123456789Z'), utc('2027-01-10T09:00:00.123Z'));
});

test('a date-time without an offset is UTC, whatever the server timezone', () => {
  assert.equal(parseInstant('2027-01-10T09:00:00'), utc('2027-01-10T09:00:00Z'));
  assert.equal(parseInstant('2027-01-10T09:00'), utc('2027-01-10T09:00:00Z'));
  assert.equal(parseInstant('2027-01-10 09:00:00'), utc('2027-01-10T09:00:00Z'));
});

test('a bare date is the start of its UTC day, or its last millisecond as an end', () => {
  assert.equal(parseInstant('2026-11-20'), utc('2026-11-20T00:00:00.000Z'));
  assert.equal(parseInstant('2026-11-20', 'end'), utc('2026-11-20T23:59:59.999Z'));
  assert.equal(parseInstant('2024-02-29'), utc('2024-02-29T00:00:00Z'));
});

test('impossible dates and times, year 0 and other text are not instants', () => {
  for (const bad of [
    '2026-02-30',
    '2025-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-11-20T24:00:00Z',
    '2026-11-20T10:60:00Z',
    '2026-11-20T10:00:61Z',
    '2026-11-20T10:00:00+25:00',
    '0000-01-01T00:00:00Z',
    '2026-11-20T',
    'tomorrow',
    '1732000000000',
    '',
  ]) {
    assert.ok(Number.isNaN(parseInstant(bad)), bad);
    assert.equal(isInstant(bad), false, bad);
  }
});
