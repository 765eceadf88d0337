import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { seedActionItem, seedConversation } from './fixtures.js';

interface Answer {
  answer: string;
  sources: Array<{ id: string; title: string; created_at: string | null }>;
}

// Wednesday 2026-03-11 03:30 UTC is still Tuesday 2026-03-10 23:30 in New York.
const NOW = Date.parse('2026-03-11T03:30:00Z');

for (const dialect of dialects()) {
  describe(`POST /v1/dev/user/ask (${dialect})`, () => {
    let t: TestApp;
    let ada: TestUser;
    let bob: TestUser;
    const ids: Record<string, string> = {};

    const ask = (user: TestUser, payload: unknown) =>
      t.app.inject({ method: 'POST', url: '/v1/dev/user/ask', headers: user.auth, payload: payload as object });
    const answer = async (user: TestUser, payload: object): Promise<Answer> => {
      const res = await ask(user, payload);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };

    before(async () => {
      t = await createTestApp(dialect, { clock: new ManualClock(NOW) });
      ada = await createUser(t.ctx);
      bob = await createUser(t.ctx, { name: 'Bob' });
      ids.pricing = await seedConversation(t.ctx, ada.uid, {
        title: 'Pricing sync',
        overview: 'We reviewed the spring launch. We agreed to raise prices by 10% in April.',
        segments: ['The competitor charges twelve dollars a month.', 'Then raising our prices is safe.'],
        createdAt: Date.parse('2026-03-10T02:00:00Z'), // New York: Monday 9 March, 22:00
      });
      await seedActionItem(t.ctx, ada.uid, {
        description: 'Send Maria the new price sheet',
        conversationId: ids.pricing,
      });
      ids.dentist = await seedConversation(t.ctx, ada.uid, {
        title: 'Dentist call',
        overview: 'Booked a cleaning with Dr. Patel.',
        text: 'I called the dentist and booked a cleaning for next Thursday.',
        createdAt: Date.parse('2026-03-10T20:00:00Z'), // New York: Tuesday 10 March (today)
      });
      ids.garden = await seedConversation(t.ctx, ada.uid, {
        title: 'Garden plans',
        overview: 'Planning tomatoes on the balcony.',
        createdAt: Date.parse('2026-03-09T12:00:00Z'), // Monday 9 March in both zones
      });
      ids.discarded = await seedConversation(t.ctx, ada.uid, {
        title: 'Old pricing rumour',
        overview: 'Someone said prices would double.',
        discarded: true,
        createdAt: Date.parse('2026-03-10T02:10:00Z'),
      });
      ids.live = await seedConversation(t.ctx, ada.uid, {
        title: 'Pricing in progress',
        overview: 'Prices still being discussed.',
        status: 'in_progress',
        createdAt: Date.parse('2026-03-10T02:20:00Z'),
      });
      ids.bob = await seedConversation(t.ctx, bob.uid, {
        title: 'Bob pricing secret',
        overview: 'Bob will cut prices by half.',
        createdAt: Date.parse('2026-03-10T02:00:00Z'),
      });
    });
    after(() => t.close());

    test("answers from the caller's own conversations, citing them", async () => {
      const res = await ask(ada, { question: 'What did I decide about the prices?' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['cache-control'], 'no-store');
      const body: Answer = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['answer', 'sources']);
      assert.deepEqual(body.sources, [
        { id: ids.pricing, title: 'Pricing sync', created_at: '2026-03-10T02:00:00.000Z' },
      ]);
      assert.match(body.answer, /raise prices by 10% in April\. \[1\]/);
      // Never another user's, a discarded or an unfinished conversation.
      assert.doesNotMatch(body.answer, /half|double|still being/);
    });

    test("another user asking the same never sees Ada's conversations", async () => {
      const body = await answer(bob, { question: 'What did I decide about the prices?' });
      assert.deepEqual(
        body.sources.map((s) => s.id),
        [ids.bob],
      );
      assert.match(body.answer, /cut prices by half/);
      assert.doesNotMatch(body.answer, /April/);
    });

    test('the offline answer quotes action items and transcript sentences that share the words', async () => {
      const tasks = await answer(ada, { question: 'What do I need to do about the price sheet?' });
      assert.match(tasks.answer, /To do: Send Maria the new price sheet \[1\]/);
      const quote = await answer(ada, { question: 'How much does the competitor charge?' });
      assert.match(quote.answer, /Speaker 0: The competitor charges twelve dollars a month\. \[1\]/);
      const text = await answer(ada, { question: 'When is the dentist cleaning?' });
      assert.equal(text.sources[0].id, ids.dentist);
      assert.match(text.answer, /booked a cleaning for next Thursday\. \[1\]/);
    });

    test('nothing relevant: says so, with no sources', async () => {
      const body = await answer(ada, { question: 'Did anyone mention skiing?' });
      assert.deepEqual(body.sources, []);
      assert.match(body.answer, /couldn't find/i);
    });

    test('"yesterday" is the day before today in the given timezone', async () => {
      const newYork = await answer(ada, { question: 'What happened yesterday?', timezone: 'America/New_York' });
      assert.deepEqual(new Set(newYork.sources.map((s) => s.id)), new Set([ids.pricing, ids.garden]));
      assert.match(newYork.answer, /\(2026-03-09\)/);
      const utc = await answer(ada, { question: 'What happened yesterday?' });
      assert.deepEqual(new Set(utc.sources.map((s) => s.id)), new Set([ids.pricing, ids.dentist]));
      // Already Wednesday 11 March in Tokyo: yesterday there is 9 March 15:00 – 10 March 15:00 UTC.
      const tokyo = await answer(ada, { question: 'What happened yesterday?', timezone: 'Asia/Tokyo' });
      assert.deepEqual(
        tokyo.sources.map((s) => s.id),
        [ids.pricing],
      );
    });

    test('a date phrase narrows a question with words', async () => {
      const inWindow = await answer(ada, { question: 'What about tomatoes on Monday?', timezone: 'America/New_York' });
      assert.deepEqual(
        inWindow.sources.map((s) => s.id),
        [ids.garden],
      );
      const outside = await answer(ada, { question: 'What about tomatoes today?', timezone: 'America/New_York' });
      assert.deepEqual(outside.sources, []);
      assert.match(outside.answer, /from 2026-03-10/);
    });

    test('limit bounds the sources', async () => {
      const body = await answer(ada, { question: 'What happened last week or this week?', limit: 1 });
      assert.ok(body.sources.length <= 1, 'body.sources.length <= 1');
      const all = await answer(ada, { question: 'What happened in the past 3 days?', limit: 10 });
      assert.equal(all.sources.length, 3);
    });

    test('validation: 422 in the HTTPValidationError shape', async () => {
      const bad: Array<[string, unknown]> = [
        ['missing question', {}],
        ['empty question', { question: '' }],
        ['blank question', { question: '   ' }],
        ['long question', { question: 'x'.repeat(1001) }],
        ['limit 0', { question: 'q', limit: 0 }],
        ['limit 11', { question: 'q', limit: 11 }],
        ['limit as text', { question: 'q', limit: '5' }],
        ['unknown timezone', { question: 'q', timezone: 'Not/A_Zone' }],
        ['question as number', { question: 5 }],
      ];
      for (const [name, payload] of bad) {
        const res = await ask(ada, payload);
        assert.equal(res.statusCode, 422, name);
        const detail = res.json().detail;
        assert.ok(Array.isArray(detail) && detail.length > 0 && Array.isArray(detail[0].loc), name);
      }
      const zone = await ask(ada, { question: 'q', timezone: 'Not/A_Zone' });
      assert.deepEqual(zone.json().detail[0].loc, ['body', 'timezone']);
      assert.match(zone.json().detail[0].msg, /not a valid IANA timezone/);
    });

    test('needs the conversations:read scope; 401 without a key', async () => {
      const memoriesOnly = await createUser(t.ctx, { scopes: ['memories:read'] });
      const res = await ask(memoriesOnly, { question: 'What did I decide about the prices?' });
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), { detail: 'Insufficient permissions. Required scope: conversations:read' });
      const anonymous = await t.app.inject({ method: 'POST', url: '/v1/dev/user/ask', payload: { question: 'q' } });
      assert.equal(anonymous.statusCode, 401);
    });

    test('counts against its own rate-limit policy', async () => {
      const res = await ask(ada, { question: 'Anything about tomatoes?' });
      assert.equal(res.headers['x-ratelimit-limit'], String(25 * t.ctx.config.rateLimitBoost));
    });
  });
}
