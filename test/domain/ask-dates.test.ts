import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeWindow, isKnownTimezone, questionWindow } from '../../src/domain/ask/dates.js';

// Wednesday 2026-03-11 03:30 UTC: Tuesday 10 March 23:30 in New York (EDT since Sunday 8 March).
const NOW = Date.parse('2026-03-11T03:30:00Z');
const NY = 'America/New_York';

const span = (question: string, timezone = NY) => {
  const window = questionWindow(question, NOW, timezone);
  return window && { days: describeWindow(window, timezone), from: new Date(window.from).toISOString(), to: window.to };
};

describe('relative dates in a question', () => {
  test('yesterday and today are whole local days', () => {
    assert.deepEqual(span('What happened yesterday?'), {
      days: '2026-03-09',
      from: '2026-03-09T04:00:00.000Z',
      to: Date.parse('2026-03-10T04:00:00Z') - 1,
    });
    assert.equal(span('today?')?.days, '2026-03-10');
    assert.equal(span('today?', 'UTC')?.days, '2026-03-11');
    assert.equal(span('yesterday', 'Asia/Tokyo')?.from, '2026-03-09T15:00:00.000Z');
  });

  test('a day across the change to summer time is 23 hours long', () => {
    const window = questionWindow('What did we say on Sunday?', NOW, NY);
    assert.equal(describeWindow(window ?? { from: 0, to: 0, phrases: [] }, NY), '2026-03-08');
    assert.equal(new Date(window?.from ?? 0).toISOString(), '2026-03-08T05:00:00.000Z');
    assert.equal((window?.to ?? 0) + 1 - (window?.from ?? 0), 23 * 3600_000);
  });

  test('weeks, months and years are calendar spans; "past N days" runs until now', () => {
    assert.equal(span('what did I promise Maria last week?')?.days, '2026-03-02 – 2026-03-08');
    assert.deepEqual(span('this week'), { days: '2026-03-09 – 2026-03-10', from: '2026-03-09T04:00:00.000Z', to: NOW });
    assert.equal(span('last month')?.days, '2026-02-01 – 2026-02-28');
    assert.equal(span('last year')?.days, '2025-01-01 – 2025-12-31');
    assert.deepEqual(span('in the past 3 days'), {
      days: '2026-03-07 – 2026-03-10',
      from: '2026-03-07T05:00:00.000Z',
      to: NOW,
    });
    assert.equal(span('the last two weeks')?.days, '2026-02-24 – 2026-03-10');
  });

  test('weekdays, dates, months, weekends, "since" and "ago"', () => {
    assert.equal(span('who did I meet on Monday?')?.days, '2026-03-09');
    assert.equal(span('between March 1 and March 4')?.days, '2026-03-01 – 2026-03-04');
    assert.equal(span('What happened in February?')?.days, '2026-02-01 – 2026-02-28');
    assert.equal(span('over the weekend')?.days, '2026-03-07 – 2026-03-08');
    assert.equal(span('since Monday')?.to, NOW);
    assert.equal(span('What did we say 2 weeks ago?')?.days, '2026-02-21 – 2026-02-27');
    assert.equal(span('on 2026-03-05')?.days, '2026-03-05');
  });

  test('times of day, "now", plain words and future days are no filter', () => {
    for (const q of [
      'who called at 3pm?',
      'did we agree on 10% at 5?',
      'what is the plan for now',
      'the march on Washington',
      'what is due tomorrow?',
      'what did I decide about pricing?',
    ])
      assert.equal(questionWindow(q, NOW, NY), null, q);
  });

  test('the phrases are given back so they are not searched for', () => {
    assert.deepEqual(questionWindow('between March 1 and March 4', NOW, NY)?.phrases, ['March 1', 'March 4']);
  });

  test('only IANA zone names Intl knows are accepted', () => {
    assert.ok(isKnownTimezone('Europe/Berlin'), "isKnownTimezone('Europe/Berlin')");
    assert.ok(isKnownTimezone('UTC'), "isKnownTimezone('UTC')");
    for (const zone of ['Not/A_Zone', '', ' ', '../UTC', '/etc/passwd'])
      assert.equal(isKnownTimezone(zone), false, zone);
  });
});
