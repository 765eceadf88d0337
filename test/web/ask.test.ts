import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { seedConversation } from '../dev/fixtures.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { page, signIn } from './support.js';

const NOW = Date.parse('2026-03-11T03:30:00Z');

for (const dialect of dialects()) {
  describe(`web ask page (${dialect})`, () => {
    let t: TestApp;
    let ada: TestUser;
    let cookie: string;
    const ids: Record<string, string> = {};

    before(async () => {
      t = await createTestApp(dialect, { clock: new ManualClock(NOW) });
      ada = await createUser(t.ctx, { name: 'Ada', timezone: 'America/New_York' });
      const bob = await createUser(t.ctx, { name: 'Bob' });
      cookie = await signIn(t.app, ada.token);
      ids.yesterday = await seedConversation(t.ctx, ada.uid, {
        title: 'Call with <b>Maria</b>',
        overview: 'Maria will bring the cake on Saturday.',
        createdAt: Date.parse('2026-03-10T02:00:00Z'), // Monday 9 March in New York
      });
      ids.today = await seedConversation(t.ctx, ada.uid, {
        title: 'Standup',
        overview: 'The release moves to Thursday.',
        createdAt: Date.parse('2026-03-10T15:00:00Z'),
      });
      await seedConversation(t.ctx, bob.uid, { title: 'Bob cake', overview: 'Bob bakes a cake.' });
    });
    after(() => t.close());

    test('the page offers the question box and is in the navigation', async () => {
      const res = await page(t.app, cookie, '/ask');
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /<input id="q" name="q" type="search"/);
      assert.match(res.body, /<a href="\/ask" aria-current="page">Ask<\/a>/);
      assert.match(res.body, /America\/New_York/);
    });

    test('asking shows the answer and links its own sources, escaped', async () => {
      const res = await page(t.app, cookie, `/ask?q=${encodeURIComponent('Who brings the cake?')}`);
      assert.equal(res.statusCode, 200);
      assert.match(
        res.body,
        /<p class="answer">From 1 conversation:\n• Maria will bring the cake on Saturday\. \[1\]<\/p>/,
      );
      assert.match(
        res.body,
        new RegExp(`<a href="/conversations/${ids.yesterday}">Call with &lt;b&gt;Maria&lt;/b&gt;</a>`),
      );
      assert.doesNotMatch(res.body, /Bob bakes/);
    });

    test('relative dates are read in the user time zone', async () => {
      const res = await page(t.app, cookie, `/ask?q=${encodeURIComponent('What happened yesterday?')}`);
      assert.match(res.body, new RegExp(`/conversations/${ids.yesterday}`));
      assert.doesNotMatch(res.body, new RegExp(`/conversations/${ids.today}`));
    });

    test('signed out, the page sends you to sign in', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/ask?q=cake' });
      assert.equal(res.statusCode, 303);
      assert.match(String(res.headers.location), /^\/sign-in\?next=/);
    });
  });
}
