import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { type FakeEmbeddings, startFakeEmbeddings } from './fake-embeddings.js';
import { seedMemory } from './fixtures.js';

interface VectorResult {
  items: Array<{ id: string; content: string; category: string; relevance_score: number }>;
  returned_count: number;
  ranking: string;
}

const search = async (t: TestApp, user: TestUser, query: string, limit?: number): Promise<VectorResult> => {
  const url = `/v1/dev/user/memories/vector/search?query=${encodeURIComponent(query)}${limit ? `&limit=${limit}` : ''}`;
  const res = await t.app.inject({ method: 'GET', url, headers: user.auth });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
};

for (const dialect of dialects()) {
  describe(`memory vector search without an embedding provider (${dialect})`, () => {
    let t: TestApp;
    let ada: TestUser;

    before(async () => {
      t = await createTestApp(dialect, { config: { embeddings: null } });
      ada = await createUser(t.ctx);
    });
    after(() => t.close());

    test('answers with the full-text ranking in the reference shape', async () => {
      const id = await seedMemory(t.ctx, ada.uid, { content: 'Grows tomatoes on the balcony', category: 'hobbies' });
      await seedMemory(t.ctx, ada.uid, { content: 'Works night shifts' });
      const res = await t.app.inject({
        method: 'GET',
        url: '/v1/dev/user/memories/vector/search?query=tomatoes',
        headers: ada.auth,
      });
      const body = res.json();
      assert.equal(body.returned_count, 1);
      assert.equal(body.ranking, 'full_text');
      assert.deepEqual(Object.keys(body.items[0]).sort(), ['category', 'content', 'id', 'relevance_score']);
      assert.equal(body.items[0].id, id);
      assert.ok(
        body.items[0].relevance_score > 0 && body.items[0].relevance_score < 1,
        'body.items[0].relevance_score > 0 && body.items[0].relevance_score < 1',
      );
      assert.equal(body.archive_default_visible, false);
      assert.equal(body.policy.consumer, 'developer_api');
    });

    test("the fallback's scores say nothing of other users' memories", async () => {
      const bob = await createUser(t.ctx, { name: 'Bob' });
      await seedMemory(t.ctx, bob.uid, { content: 'Once saw a quokka on an island trip' });
      await seedMemory(t.ctx, bob.uid, { content: 'Likes quokka photos and island sunsets and long walks' });
      const scores = async () => (await search(t, bob, 'quokka')).items.map((i) => i.relevance_score);
      const before = await scores();
      assert.deepEqual(before, [1 / 2, 1 / 3]);
      // Another user writing the same word changes bm25's weights, but not what Bob sees.
      for (let i = 0; i < 25; i++) await seedMemory(t.ctx, ada.uid, { content: `Note ${i} about a quokka` });
      assert.deepEqual(await scores(), before);
    });

    test('when no memory holds every word, memories holding any of them answer', async () => {
      const user = await createUser(t.ctx);
      const id = await seedMemory(t.ctx, user.uid, { content: 'Keeps bees in the garden' });
      const result = await search(t, user, 'bees honey');
      assert.deepEqual(
        result.items.map((i) => i.id),
        [id],
      );
    });

    test("a question's own words ('what', 'in', 'the') match nothing; its content words search", async () => {
      const user = await createUser(t.ctx);
      const hiking = await seedMemory(t.ctx, user.uid, { content: 'Goes hiking in the Dolomites every summer' });
      const coffee = await seedMemory(t.ctx, user.uid, { content: 'Drinks a flat white every morning' });
      const result = await search(t, user, 'what do I drink in the morning');
      assert.deepEqual(
        result.items.map((i) => i.id),
        [coffee],
      );
      // A query of function words only matches nothing, on every database.
      const none = await search(t, user, 'in the');
      assert.deepEqual([none.items, none.returned_count, none.ranking], [[], 0, 'full_text']);
      assert.deepEqual(
        (await search(t, user, 'hiking')).items.map((i) => i.id),
        [hiking],
      );
    });

    test('limit outside 1..100 and a blank query → 422', async () => {
      for (const url of ['?query=x&limit=0', '?query=x&limit=101', '?query=%20', '?query=']) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/v1/dev/user/memories/vector/search${url}`,
          headers: ada.auth,
        });
        assert.equal(res.statusCode, 422, url);
      }
    });
  });

  for (const suffix of ['', '/v1']) {
    describe(`memory vector search with an OpenAI-compatible provider at base${suffix || ' (no /v1)'} (${dialect})`, () => {
      let t: TestApp;
      let fake: FakeEmbeddings;
      let clock: ManualClock;
      let ada: TestUser;

      before(async () => {
        fake = await startFakeEmbeddings();
        clock = new ManualClock();
        t = await createTestApp(dialect, {
          clock,
          config: { embeddings: { baseUrl: `${fake.url}${suffix}`, apiKey: 'sk-test', model: 'test-embed' } },
        });
        ada = await createUser(t.ctx);
      });
      beforeEach(() => {
        fake.fail = false;
        fake.requests.length = 0;
      });
      after(async () => {
        await t.close();
        await fake.close();
      });

      test('ranks memories by cosine similarity of their embeddings', async () => {
        const user = await createUser(t.ctx);
        const close = await seedMemory(t.ctx, user.uid, { content: 'loves green tea with honey' });
        const partial = await seedMemory(t.ctx, user.uid, { content: 'drinks green smoothies' });
        await seedMemory(t.ctx, user.uid, { content: 'commutes by bicycle' });
        const result = await search(t, user, 'green tea honey', 2);
        assert.equal(result.ranking, 'embeddings');
        assert.deepEqual(
          result.items.map((i) => i.id),
          [close, partial],
        );
        assert.equal(result.returned_count, 2);
        assert.ok(
          result.items[0].relevance_score > result.items[1].relevance_score,
          'result.items[0].relevance_score > result.items[1].relevance_score',
        );
        assert.equal(fake.requests[0].path, '/v1/embeddings');
        assert.equal(fake.requests[0].authorization, 'Bearer sk-test');
        assert.equal(fake.requests[0].model, 'test-embed');
      });

      test('memories are embedded once; later searches embed only the query', async () => {
        const user = await createUser(t.ctx);
        await seedMemory(t.ctx, user.uid, { content: 'collects vinyl records' });
        await search(t, user, 'music');
        fake.requests.length = 0;
        await search(t, user, 'records');
        assert.deepEqual(
          fake.requests.map((r) => r.input),
          [['records']],
        );
        const stored = await t.ctx.store.db
          .selectFrom('memory_embeddings')
          .selectAll()
          .where('user_id', '=', user.uid)
          .execute();
        assert.equal(stored.length, 1);
        assert.equal(stored[0].dims, 64);
      });

      test('an edited memory is embedded again', async () => {
        const memory = (
          await t.app.inject({
            method: 'POST',
            url: '/v1/dev/user/memories',
            headers: ada.auth,
            payload: { content: 'owns a sailboat' },
          })
        ).json();
        await search(t, ada, 'boat');
        await t.app.inject({
          method: 'PATCH',
          url: `/v1/dev/user/memories/${memory.id}`,
          headers: ada.auth,
          payload: { content: 'owns a canoe' },
        });
        fake.requests.length = 0;
        const result = await search(t, ada, 'canoe');
        assert.deepEqual(fake.requests[0].input, ['owns a canoe']);
        assert.equal(result.items[0].id, memory.id);
        assert.equal(result.items[0].content, 'owns a canoe');
      });

      test('when the provider fails, the full-text ranking answers', async () => {
        const user = await createUser(t.ctx);
        const id = await seedMemory(t.ctx, user.uid, { content: 'speaks Finnish' });
        fake.fail = true;
        const result = await search(t, user, 'finnish');
        assert.equal(result.ranking, 'full_text');
        assert.deepEqual(
          result.items.map((i) => i.id),
          [id],
        );
      });

      test("embeddings never mix users' memories", async () => {
        const other = await createUser(t.ctx);
        await seedMemory(t.ctx, other.uid, { content: 'secret island hideout' });
        const result = await search(t, ada, 'secret island hideout');
        assert.ok(
          result.items.every((i) => i.content !== 'secret island hideout'),
          "result.items.every((i) => i.content !== 'secret island hideout')",
        );
      });
    });
  }
}
