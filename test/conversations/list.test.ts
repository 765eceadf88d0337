import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';

const DAY = 24 * 3600 * 1000;
const BASE = Date.parse('2026-06-01T12:00:00Z');

for (const dialect of dialects()) {
  describe(`conversation list filters (${dialect})`, () => {
    let t: TestApp;
    let ada: TestUser;
    const clock = new ManualClock(BASE);
    const ids: string[] = [];
    let folderId = '';

    before(async () => {
      t = await createTestApp(dialect, { clock });
      ada = await createUser(t.ctx);
      const texts = [
        'We planned the hiking trip to the mountains and booked the flights and the hotel for the vacation.',
        'The doctor said my blood pressure is fine, but I should exercise more and sleep eight hours.',
        'I need to finish the quarterly sales report for the client meeting and review the project deadline.',
        'We talked about the mortgage, the savings account and how to invest in index funds this year.',
      ];
      for (const text of texts) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/dev/user/conversations',
          headers: ada.auth,
          payload: { text },
        });
        ids.push(res.json().id);
        clock.advance(DAY);
      }
      folderId = randomUUID();
      const now = clock.now();
      await t.ctx.store.db
        .insertInto('folders')
        .values({
          id: folderId,
          user_id: ada.uid,
          name: 'Work',
          description: null,
          color: '#000',
          icon: '💼',
          position: 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await t.ctx.repos.conversations.update(ada.uid, ids[2], { folder_id: folderId, starred: 1 });
    });
    after(() => t.close());

    const list = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/dev/user/conversations${query}`, headers: ada.auth });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Array<{ id: string; structured: { category: string }; folder_name: string | null }>;
    };

    test('newest first', async () => {
      assert.deepEqual(
        (await list('')).map((c) => c.id),
        [...ids].reverse(),
      );
    });

    test('limit and offset page through and end with an empty page', async () => {
      assert.deepEqual(
        (await list('?limit=2')).map((c) => c.id),
        [ids[3], ids[2]],
      );
      assert.deepEqual(
        (await list('?limit=2&offset=2')).map((c) => c.id),
        [ids[1], ids[0]],
      );
      assert.deepEqual(await list('?limit=2&offset=4'), []);
    });

    test('start_date and end_date are inclusive on created_at', async () => {
      const start = new Date(BASE + DAY).toISOString();
      const end = new Date(BASE + 2 * DAY).toISOString();
      const page = await list(`?start_date=${start}&end_date=${end}`);
      assert.deepEqual(
        page.map((c) => c.id),
        [ids[2], ids[1]],
      );
    });

    test('categories match any of the listed values', async () => {
      const all = await list('');
      const cats = [...new Set(all.map((c) => c.structured.category))];
      const wanted = cats.slice(0, 2);
      const page = await list(`?categories=${wanted.join(',')}`);
      assert.ok(page.length > 0, 'page.length > 0');
      assert.ok(
        page.every((c) => wanted.includes(c.structured.category)),
        'page.every((c) => wanted.includes(c.structured.category))',
      );
      assert.equal(page.length, all.filter((c) => wanted.includes(c.structured.category)).length);
    });

    test('unknown category → 400 with the reference detail', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/v1/dev/user/conversations?categories=work,foo',
        headers: ada.auth,
      });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { detail: "Invalid category 'foo' is not a valid CategoryEnum" });
    });

    test('folder_id filters and resolves folder_name', async () => {
      const page = await list(`?folder_id=${folderId}`);
      assert.deepEqual(
        page.map((c) => c.id),
        [ids[2]],
      );
      assert.equal(page[0].folder_name, 'Work');
      const empty = await t.app.inject({
        method: 'GET',
        url: '/v1/dev/user/conversations?folder_id=',
        headers: ada.auth,
      });
      assert.equal(empty.statusCode, 422);
    });

    test('starred true, false and omitted', async () => {
      assert.deepEqual(
        (await list('?starred=true')).map((c) => c.id),
        [ids[2]],
      );
      assert.equal((await list('?starred=false')).length, 3);
      assert.equal((await list('')).length, 4);
      const bad = await t.app.inject({
        method: 'GET',
        url: '/v1/dev/user/conversations?starred=notabool',
        headers: ada.auth,
      });
      assert.equal(bad.statusCode, 422);
    });

    test('limit outside 1..1000 and a negative offset are 422s', async () => {
      for (const q of ['limit=0', 'limit=1001', 'offset=-1', 'offset=99999999999', 'limit=abc']) {
        const res = await t.app.inject({ method: 'GET', url: `/v1/dev/user/conversations?${q}`, headers: ada.auth });
        assert.equal(res.statusCode, 422, q);
        assert.equal(res.json().detail[0].loc[0], 'query');
      }
    });

    test('another user sees none of these', async () => {
      const bob = await createUser(t.ctx, { name: 'Bob' });
      const res = await t.app.inject({ method: 'GET', url: '/v1/dev/user/conversations', headers: bob.auth });
      assert.deepEqual(res.json(), []);
      const byFolder = await t.app.inject({
        method: 'GET',
        url: `/v1/dev/user/conversations?folder_id=${folderId}`,
        headers: bob.auth,
      });
      assert.deepEqual(byFolder.json(), []);
    });
  });
}
