import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { enabledApp, type TestAppRecord } from './fixtures.js';

interface SearchPage {
  conversations: Array<{ id: string; source: string; transcript_segments: unknown[]; discarded: boolean }>;
  total_pages: number;
  current_page: number;
  per_page: number;
}

const DAY = 86_400_000;

for (const dialect of dialects()) {
  describe(`integration search, tasks and the v1 notification (${dialect})`, () => {
    let t: TestApp;
    let clock: ManualClock;
    let ada: TestUser;
    let bob: TestUser;
    let app: TestAppRecord;
    const ids: Record<string, string> = {};

    before(async () => {
      clock = new ManualClock(Date.parse('2026-11-10T09:00:00Z'));
      t = await createTestApp(dialect, { clock });
      ada = await createUser(t.ctx, { name: 'Ada' });
      bob = await createUser(t.ctx, { name: 'Bob' });
      app = await enabledApp(t, ada);
      await t.ctx.integrations.apps.enable(bob.uid, app.appId);
      const texts = {
        porto: 'We booked the flights to Porto for the conference and the hotel near the river.',
        piano: 'I practised the piano scales for an hour and the teacher liked the progress.',
        garden: 'The garden needs new tomato plants before the rain comes on Friday.',
      };
      for (const [name, text] of Object.entries(texts)) {
        ids[name] = (await t.ctx.conversations.createFromText(ada.uid, { text })).id;
        clock.advance(DAY);
      }
      await t.ctx.conversations.update(ada.uid, ids.garden, { discarded: true });
      await t.ctx.conversations.createFromText(bob.uid, { text: 'Bob booked flights to Porto as well, privately.' });
    });
    after(() => t.close());

    const search = (body: unknown, uid = ada.uid, extra = '') =>
      t.app.inject({
        method: 'POST',
        url: `/v2/integrations/${app.appId}/search/conversations?uid=${uid}${extra}`,
        headers: app.bearer,
        payload: body as object,
      });

    test('a query finds only the user’s conversations holding its words', async () => {
      const res = await search({ query: 'Porto flights' });
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json() as SearchPage;
      assert.deepEqual(
        page.conversations.map((c) => c.id),
        [ids.porto],
      );
      assert.deepEqual([page.total_pages, page.current_page, page.per_page], [1, 1, 10]);
      assert.equal(typeof page.conversations[0].source, 'string');
    });

    test('an empty body lists every conversation newest first, discarded ones included (the reference default)', async () => {
      const page = (await search({})).json() as SearchPage;
      assert.deepEqual(
        page.conversations.map((c) => c.id),
        [ids.garden, ids.piano, ids.porto],
      );
    });

    test('include_discarded false leaves discarded ones out', async () => {
      const page = (await search({ include_discarded: false })).json() as SearchPage;
      assert.deepEqual(
        page.conversations.map((c) => c.id),
        [ids.piano, ids.porto],
      );
    });

    test('pages: per_page 2 gives 2 pages; page 2 holds the oldest', async () => {
      const page = (await search({ per_page: 2, page: 2 })).json() as SearchPage;
      assert.deepEqual([page.total_pages, page.current_page, page.per_page], [2, 2, 2]);
      assert.deepEqual(
        page.conversations.map((c) => c.id),
        [ids.porto],
      );
    });

    test('null fields take their defaults', async () => {
      const res = await search({
        query: 'piano',
        page: null,
        per_page: null,
        include_discarded: null,
        speaker_id: null,
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual((res.json() as SearchPage).per_page, 10);
    });

    test('start_date and end_date bound created_at; a bare date covers its UTC day', async () => {
      const page = (await search({ start_date: '2026-11-11', end_date: '2026-11-11' })).json() as SearchPage;
      assert.deepEqual(
        page.conversations.map((c) => c.id),
        [ids.piano],
      );
    });

    test('a malformed date → 400 with the reference text', async () => {
      const res = await search({ start_date: 'yesterday' });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().detail, /^Invalid start_date format/);
    });

    test('max_transcript_segments=0 empties each conversation’s transcript', async () => {
      const page = (await search({}, ada.uid, '&max_transcript_segments=0')).json() as SearchPage;
      assert.ok(
        page.conversations.every((c) => c.transcript_segments.length === 0),
        'page.conversations.every((c) => c.transcript_segments.length === 0)',
      );
    });

    test('a bad page value → 422', async () => {
      assert.equal((await search({ page: 0 })).statusCode, 422);
    });

    describe('tasks', () => {
      const tasks = async (query: string) => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/v2/integrations/${app.appId}/tasks?uid=${ada.uid}${query}`,
          headers: app.bearer,
        });
        assert.equal(res.statusCode, 200, res.body);
        return (res.json() as { tasks: Array<{ description: string; completed: boolean }> }).tasks.map(
          (x) => x.description,
        );
      };

      before(async () => {
        await t.ctx.actionItems.create(ada.uid, { description: 'Book the hotel', due_at: '2026-11-20T10:00:00Z' });
        await t.ctx.actionItems.create(ada.uid, { description: 'Buy tomato plants', due_at: '2026-11-25T10:00:00Z' });
        await t.ctx.actionItems.create(ada.uid, { description: 'Call the teacher', completed: true });
        await t.ctx.actionItems.create(bob.uid, { description: 'Bob’s private errand' });
      });

      test('lists only the user’s items, open first', async () => {
        assert.deepEqual(await tasks(''), ['Book the hotel', 'Buy tomato plants', 'Call the teacher']);
      });

      test('completed=false and completed=true filter', async () => {
        assert.deepEqual(await tasks('&completed=false'), ['Book the hotel', 'Buy tomato plants']);
        assert.deepEqual(await tasks('&completed=true'), ['Call the teacher']);
      });

      test('due_start_date and due_end_date bound due_at (bare dates cover the day)', async () => {
        assert.deepEqual(await tasks('&due_start_date=2026-11-21'), ['Buy tomato plants']);
        assert.deepEqual(await tasks('&due_end_date=2026-11-20'), ['Book the hotel']);
      });

      test('limit and offset page the list', async () => {
        assert.deepEqual(await tasks('&limit=1&offset=1'), ['Buy tomato plants']);
      });

      test('a malformed due date → 400 naming it', async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/v2/integrations/${app.appId}/tasks?uid=${ada.uid}&due_end_date=soon`,
          headers: app.bearer,
        });
        assert.equal(res.statusCode, 400);
        assert.match(res.json().detail, /^Invalid due_end_date format/);
      });
    });

    describe('POST /v1/integrations/notification', () => {
      const v1 = (body: unknown, credential: string | null = app.secret) =>
        t.app.inject({
          method: 'POST',
          url: '/v1/integrations/notification',
          headers: credential ? { authorization: `Bearer ${credential}` } : {},
          payload: body as object,
        });

      test('sends the exact text to the user, like the v2 route', async () => {
        const fresh = await createUser(t.ctx);
        await t.ctx.integrations.apps.enable(fresh.uid, app.appId);
        const res = await v1({ aid: app.appId, uid: fresh.uid, message: 'Your table is ready' });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { status: 'Ok' });
        assert.equal(res.headers['x-ratelimit-remaining'], '9');
        const list = await t.app.inject({ method: 'GET', url: '/v1/notifications', headers: fresh.session });
        assert.deepEqual(
          list.json().map((n: { message: string; app_id: string }) => [n.message, n.app_id]),
          [['Your table is ready', app.appId]],
        );
      });

      test('shares the 10 per hour limit with the v2 route', async () => {
        const fresh = await createUser(t.ctx);
        await t.ctx.integrations.apps.enable(fresh.uid, app.appId);
        for (let i = 0; i < 5; i++) {
          const v2 = await t.app.inject({
            method: 'POST',
            url: `/v2/integrations/${app.appId}/notification?uid=${fresh.uid}&message=hi${i}`,
            headers: { authorization: `Bearer ${app.secret}` },
          });
          assert.equal(v2.statusCode, 200);
        }
        for (let i = 0; i < 5; i++) {
          assert.equal((await v1({ aid: app.appId, uid: fresh.uid, message: `v1 ${i}` })).statusCode, 200);
        }
        const limited = await v1({ aid: app.appId, uid: fresh.uid, message: 'one too many' });
        assert.equal(limited.statusCode, 429);
        assert.deepEqual(limited.json(), { detail: 'Rate limit exceeded. Maximum 10 notifications per hour.' });
      });

      test('a missing aid or uid → 400 with the reference text', async () => {
        assert.deepEqual((await v1({ uid: ada.uid, message: 'x' })).json(), {
          detail: 'aid (app id) in request body is required',
        });
        const noUid = await v1({ aid: app.appId, message: 'x' });
        assert.equal(noUid.statusCode, 400);
        assert.deepEqual(noUid.json(), { detail: 'uid is required' });
      });

      test('no bearer → 401; a wrong secret → 401; a user without the app → 404', async () => {
        assert.equal((await v1({ aid: app.appId, uid: ada.uid, message: 'x' }, null)).statusCode, 401);
        assert.equal((await v1({ aid: app.appId, uid: ada.uid, message: 'x' }, 'nope')).statusCode, 401);
        const stranger = await createUser(t.ctx);
        assert.equal((await v1({ aid: app.appId, uid: stranger.uid, message: 'x' })).statusCode, 404);
      });

      test('a missing message → 422', async () => {
        assert.equal((await v1({ aid: app.appId, uid: ada.uid })).statusCode, 422);
      });
    });
  });
}
