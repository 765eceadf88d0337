import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery } from 'kysely';
import { ManualClock } from '../../src/context-types.js';
import type { MemoriesTable } from '../../src/store/schema.js';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers/app.js';

// SQLite's bm25 gives a word found in at least half of all memories no weight; once such words match
// 1,000 memories or more, a query made only of them lists its matches newest first (SearchRepository).
describe('memory search for words in most memories (sqlite)', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  const clock = new ManualClock();
  const START = Date.parse('2025-01-01T00:00:00Z');
  let adaIds: string[] = []; // in insertion (= creation) order

  const row = (userId: string, n: number, content: string, extra: Partial<MemoriesTable> = {}): MemoriesTable => ({
    id: randomUUID(),
    user_id: userId,
    content,
    category: n % 2 === 0 ? 'work' : 'hobbies',
    visibility: 'private',
    tags: '[]',
    origin: 'manual',
    conversation_id: null,
    app_id: null,
    manually_added: 1,
    reviewed: 0,
    user_review: null,
    edited: 0,
    created_at: START + n * 60_000,
    updated_at: START + n * 60_000,
    ...extra,
  });

  before(async () => {
    t = await createTestApp('sqlite', { clock });
    ada = await createUser(t.ctx, { name: 'Ada' });
    bob = await createUser(t.ctx, { name: 'Bob' });
    const rows = Array.from({ length: 1200 }, (_, n) => row(ada.uid, n, `Talks with friends about plan ${n}.`));
    // Two memories with a rare word, one far more about it than the other (bm25 ranks it first).
    rows[10] = row(ada.uid, 10, 'Friends say the quokka quokka quokka is lovely.');
    rows[1100] = row(
      ada.uid,
      1100,
      'Friends once saw a quokka during a very long trip across the western coast of Australia.',
    );
    rows[1190] = row(ada.uid, 1190, 'Rejected: friends everywhere.', { user_review: 0 });
    rows[20] = row(ada.uid, 20, 'A quokka, alone.');
    await t.ctx.repos.memories.insertMany(rows);
    adaIds = rows.map((r) => r.id);
    await t.ctx.repos.memories.insertMany(
      Array.from({ length: 300 }, (_, n) => row(bob.uid, 2000 + n, `Bob and his friends, note ${n}.`)),
    );
  });
  after(() => t.close());

  const search = async (user: TestUser, query: string): Promise<string[]> => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/dev/user/memories/search?${query}`, headers: user.auth });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().map((m: { id: string }) => m.id);
  };

  test('a word in nearly every memory: the newest matches first, page after page, without rejected ones', async () => {
    const visible = adaIds.filter((_, n) => n !== 1190 && n !== 20).reverse();
    assert.deepEqual(await search(ada, 'q=friends&limit=25'), visible.slice(0, 25));
    assert.deepEqual(await search(ada, 'q=friends&limit=25&offset=25'), visible.slice(25, 50));
    assert.deepEqual(await search(ada, 'q=friends&limit=5&offset=1190'), visible.slice(1190, 1195));
    assert.equal(visible.length, 1198);
  });

  test('the newest-first page is read backwards through the index, not sorted from every match', async () => {
    for (const categories of [undefined, ['work']]) {
      const query = t.ctx.repos.search.newestMemoryPage(ada.uid, ['friends'], { categories, limit: 25, offset: 0 });
      const compiled = query.compile();
      const plan = await t.ctx.store.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]),
      );
      const detail = plan.rows.map((r) => r.detail).join(' | ');
      assert.match(detail, /SCAN memories_fts VIRTUAL TABLE/, detail);
      assert.doesNotMatch(detail, /TEMP B-TREE/, detail);
    }
  });

  test('the list filters still apply, and only the caller’s memories come back', async () => {
    const work = adaIds.filter((_, n) => n !== 1190 && n !== 20 && n % 2 === 0).reverse();
    assert.deepEqual(await search(ada, 'q=friends&limit=10&categories=work'), work.slice(0, 10));
    const bobs = await search(bob, 'q=friends&limit=100');
    assert.equal(bobs.length, 100);
    assert.ok(
      bobs.every((id) => !adaIds.includes(id)),
      'bobs.every((id) => !adaIds.includes(id))',
    );
  });

  test('with a rarer word, the rarer word ranks and the common one still has to match', async () => {
    // The older memory says "quokka" three times in a short sentence: it ranks first. The one without
    // "friends" is left out.
    assert.deepEqual(await search(ada, 'q=friends%20quokka'), [adaIds[10], adaIds[1100]]);
    assert.deepEqual(await search(ada, 'q=quokka%20friends&limit=1'), [adaIds[10]]);
    assert.deepEqual(await search(ada, 'q=friends%20quokka&offset=1'), [adaIds[1100]]);
    assert.deepEqual((await search(ada, 'q=quokka')).sort(), [adaIds[10], adaIds[20], adaIds[1100]].sort());
    assert.deepEqual(await search(bob, 'q=friends%20quokka'), []);
  });
});
