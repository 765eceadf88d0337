import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { seedActionItem, seedConversation, seedMemory } from '../dev/fixtures.js';
import { createTestApp, createUser, dialects, type TestUser } from '../helpers/app.js';
import { appWithTwoUsers } from '../helpers/suite.js';

// Cached developer-API reads (src/http/response-cache.ts): a cached body is served only while the
// user's data version, bumped by database triggers, is unchanged.

for (const dialect of dialects()) {
  describe(`response cache (${dialect})`, () => {
    const { t, ada, bob } = appWithTwoUsers(dialect);

    const get = (user: TestUser, url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers: { ...user.auth, ...headers } });
    const send = (user: TestUser, method: 'POST' | 'PATCH', url: string, payload: object) =>
      t.app.inject({ method, url, headers: user.auth, payload });
    const titles = (body: string) =>
      (JSON.parse(body) as Array<{ structured: { title: string } }>).map((c) => c.structured.title);

    test('a repeated list is answered from the cache with the same body and an ETag', async () => {
      await seedConversation(t.ctx, ada.uid, { title: 'Cached one' });
      const first = await get(ada, '/v1/dev/user/conversations?limit=5');
      const hits = t.ctx.responseCache.hits;
      const second = await get(ada, '/v1/dev/user/conversations?limit=5');
      assert.equal(second.statusCode, 200);
      assert.equal(t.ctx.responseCache.hits, hits + 1);
      assert.equal(second.body, first.body);
      assert.equal(second.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(second.headers.etag, first.headers.etag);
      assert.match(String(first.headers.etag), /^W\/"\d+-[\w-]{16}"$/);
      assert.equal(second.headers['cache-control'], 'private, no-cache');
      assert.equal(second.headers['x-ratelimit-limit'], first.headers['x-ratelimit-limit']);
    });

    test('query parameter order does not split the cache', async () => {
      await get(ada, '/v1/dev/user/memories?limit=3&offset=0');
      const hits = t.ctx.responseCache.hits;
      await get(ada, '/v1/dev/user/memories?offset=0&limit=3');
      assert.equal(t.ctx.responseCache.hits, hits + 1);
    });

    test('If-None-Match with the current ETag answers 304 without a body; a write makes it 200 again', async () => {
      const fresh = await get(ada, '/v1/dev/user/memories');
      const etag = String(fresh.headers.etag);
      const unchanged = await get(ada, '/v1/dev/user/memories', { 'if-none-match': etag });
      assert.equal(unchanged.statusCode, 304);
      assert.equal(unchanged.body, '');
      const created = await send(ada, 'POST', '/v1/dev/user/memories', { content: 'Ada likes green tea' });
      assert.equal(created.statusCode, 200);
      const changed = await get(ada, '/v1/dev/user/memories', { 'if-none-match': etag });
      assert.equal(changed.statusCode, 200);
      assert.notEqual(changed.headers.etag, etag);
      assert.ok(
        (JSON.parse(changed.body) as Array<{ content: string }>).some((m) => m.content === 'Ada likes green tea'),
        "(JSON.parse(changed.body) as Array<{ content: string }>).some((m) => m.content === 'Ada likes gre...",
      );
    });

    test("editing an action item through its own route shows in the conversation list's inline items", async () => {
      const conversationId = await seedConversation(t.ctx, ada.uid, { title: 'With an item' });
      const itemId = await seedActionItem(t.ctx, ada.uid, { description: 'Call the plumber', conversationId });
      const url = '/v1/dev/user/conversations?limit=50';
      const inline = (body: string) =>
        (JSON.parse(body) as Array<{ id: string; structured: { action_items: Array<{ completed: boolean }> } }>).find(
          (c) => c.id === conversationId,
        )?.structured.action_items[0]?.completed;
      assert.equal(inline((await get(ada, url)).body), false);
      assert.equal(inline((await get(ada, url)).body), false);
      const patched = await send(ada, 'PATCH', `/v1/dev/user/action-items/${itemId}`, { completed: true });
      assert.equal(patched.statusCode, 200);
      assert.equal(inline((await get(ada, url)).body), true);
    });

    test('renaming a folder and moving a conversation show in cached lists', async () => {
      const folder = JSON.parse((await send(ada, 'POST', '/v1/dev/user/folders', { name: 'Work' })).body) as {
        id: string;
      };
      await seedConversation(t.ctx, ada.uid, { title: 'Filed', folderId: folder.id });
      const url = `/v1/dev/user/conversations?folder_id=${folder.id}`;
      const folderName = (body: string) => (JSON.parse(body) as Array<{ folder_name: string }>)[0]?.folder_name;
      assert.equal(folderName((await get(ada, url)).body), 'Work');
      await get(ada, url);
      const renamed = await send(ada, 'PATCH', `/v1/dev/user/folders/${folder.id}`, { name: 'Office' });
      assert.equal(renamed.statusCode, 200);
      assert.equal(folderName((await get(ada, url)).body), 'Office');

      const count = async () =>
        (
          JSON.parse((await get(ada, '/v1/dev/user/folders')).body) as Array<{ id: string; conversation_count: number }>
        ).find((f) => f.id === folder.id)?.conversation_count;
      assert.equal(await count(), 1);
      assert.equal(await count(), 1);
      const other = await seedConversation(t.ctx, ada.uid, { title: 'Loose' });
      const moved = await send(ada, 'PATCH', `/v1/dev/user/conversations/${other}/folder`, { folder_id: folder.id });
      assert.equal(moved.statusCode, 200);
      assert.equal(await count(), 2);
    });

    test('a write straight to the database, past every repository, invalidates the cache', async () => {
      const id = await seedConversation(t.ctx, ada.uid, { title: 'Before the fix', createdAt: Date.now() + 60_000 });
      const url = '/v1/dev/user/conversations?limit=1';
      assert.deepEqual(titles((await get(ada, url)).body), ['Before the fix']);
      assert.deepEqual(titles((await get(ada, url)).body), ['Before the fix']);
      await t.ctx.store.db
        .updateTable('conversations')
        .set({ title: 'After the fix' })
        .where('user_id', '=', ada.uid)
        .where('id', '=', id)
        .execute();
      assert.deepEqual(titles((await get(ada, url)).body), ['After the fix']);
      await t.ctx.store.db.deleteFrom('conversations').where('user_id', '=', ada.uid).where('id', '=', id).execute();
      assert.ok(
        !titles((await get(ada, url)).body).includes('After the fix'),
        "!titles((await get(ada, url)).body).includes('After the fix')",
      );
    });

    test('a transcript appended to a completed conversation changes cached search results', async () => {
      const id = await seedConversation(t.ctx, ada.uid, { title: 'Weekly sync', segments: ['hello there'] });
      const url = '/v1/dev/user/conversations/search?q=zeppelin';
      assert.deepEqual(JSON.parse((await get(ada, url)).body), []);
      assert.deepEqual(JSON.parse((await get(ada, url)).body), []);
      await t.ctx.repos.conversations.appendSegments([
        {
          id: randomUUID(),
          user_id: ada.uid,
          conversation_id: id,
          seq: 1,
          text: 'we flew in a zeppelin',
          speaker: 'SPEAKER_00',
          speaker_id: 0,
          is_user: 0,
          person_id: null,
          start_sec: 2,
          end_sec: 3,
        },
      ]);
      assert.deepEqual(
        (JSON.parse((await get(ada, url)).body) as Array<{ id: string }>).map((c) => c.id),
        [id],
      );
    });

    test("users never share entries, and one user's write leaves another's cache warm", async () => {
      await seedMemory(t.ctx, bob.uid, { content: 'Bob keeps bees' });
      const url = '/v1/dev/user/memories?limit=100';
      const adaBody = (await get(ada, url)).body;
      const bobBody = (await get(bob, url)).body;
      assert.ok(!adaBody.includes('Bob keeps bees'), "!adaBody.includes('Bob keeps bees')");
      assert.ok(bobBody.includes('Bob keeps bees'), "bobBody.includes('Bob keeps bees')");
      const bobTag = (await get(bob, url)).headers.etag;
      const adaTag = (await get(ada, url)).headers.etag;
      assert.notEqual(bobTag, adaTag);
      // Bob's ETag means nothing for Ada.
      assert.equal((await get(ada, url, { 'if-none-match': String(bobTag) })).statusCode, 200);
      await send(bob, 'POST', '/v1/dev/user/memories', { content: 'Bob bought a hive' });
      const hits = t.ctx.responseCache.hits;
      assert.equal((await get(ada, url)).body, adaBody);
      assert.equal(t.ctx.responseCache.hits, hits + 1);
    });

    test('responses that include the transcript are not cached', async () => {
      await seedConversation(t.ctx, ada.uid, { title: 'Spoken', segments: ['a few words'] });
      const url = '/v1/dev/user/conversations?include_transcript=true&limit=2';
      const { hits, misses } = t.ctx.responseCache;
      const first = await get(ada, url);
      await get(ada, url);
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers.etag, undefined);
      assert.equal(t.ctx.responseCache.hits, hits);
      assert.equal(t.ctx.responseCache.misses, misses);
    });

    test('errors are neither cached nor tagged', async () => {
      const bad = await get(ada, '/v1/dev/user/conversations?categories=nonsense');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.headers.etag, undefined);
      const unauthenticated = await t.app.inject({ method: 'GET', url: '/v1/dev/user/memories' });
      assert.equal(unauthenticated.statusCode, 401);
    });
  });
}

describe('response cache in the OpenAPI document', () => {
  test('every cached list documents its 304', async () => {
    const t = await createTestApp('sqlite');
    try {
      const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/openapi.json' })).body) as {
        paths: Record<string, { get: { responses: Record<string, unknown> } }>;
      };
      for (const path of [
        '/v1/dev/user/conversations',
        '/v1/dev/user/conversations/search',
        '/v1/dev/user/memories',
        '/v1/dev/user/memories/search',
        '/v1/dev/user/action-items',
        '/v1/dev/user/folders',
      ]) {
        assert.ok(doc.paths[path]?.get.responses['304'], `${path} documents 304`);
      }
    } finally {
      await t.close();
    }
  });
});

describe('response cache limits', () => {
  test('a cached answer still counts against the rate limit', async () => {
    const t = await createTestApp('sqlite', {
      config: { rateLimitBoost: 1, rateLimits: { 'dev:memories_read': { max: 2, windowSeconds: 3600 } } },
    });
    try {
      const ada = await createUser(t.ctx);
      const call = () => t.app.inject({ method: 'GET', url: '/v1/dev/user/memories', headers: ada.auth });
      assert.equal((await call()).statusCode, 200);
      const cached = await call();
      assert.equal(cached.statusCode, 200);
      assert.equal(cached.headers['x-ratelimit-remaining'], '0');
      const limited = await call();
      assert.equal(limited.statusCode, 429);
      assert.match(JSON.parse(limited.body).detail, /dev:memories_read/);
    } finally {
      await t.close();
    }
  });

  test('RESPONSE_CACHE_MB=0 stores nothing but still answers If-None-Match', async () => {
    const t = await createTestApp('sqlite', { config: { responseCacheBytes: 0 } });
    try {
      const ada = await createUser(t.ctx);
      const first = await t.app.inject({ method: 'GET', url: '/v1/dev/user/memories', headers: ada.auth });
      await t.app.inject({ method: 'GET', url: '/v1/dev/user/memories', headers: ada.auth });
      assert.equal(t.ctx.responseCache.hits, 0);
      assert.deepEqual(t.ctx.responseCache.size, { entries: 0, bytes: 0 });
      const revalidated = await t.app.inject({
        method: 'GET',
        url: '/v1/dev/user/memories',
        headers: { ...ada.auth, 'if-none-match': String(first.headers.etag) },
      });
      assert.equal(revalidated.statusCode, 304);
    } finally {
      await t.close();
    }
  });

  test('the cache stays within its byte budget, dropping the least recently used entries', async () => {
    const budget = 256 * 1024;
    const t = await createTestApp('sqlite', { config: { responseCacheBytes: budget } });
    try {
      const ada = await createUser(t.ctx);
      for (let i = 0; i < 30; i++) await seedMemory(t.ctx, ada.uid, { content: `Fact number ${i} ${'x'.repeat(300)}` });
      for (let limit = 1; limit <= 30; limit++) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/v1/dev/user/memories?limit=${limit}`,
          headers: ada.auth,
        });
        assert.equal(res.statusCode, 200);
      }
      const { entries, bytes } = t.ctx.responseCache.size;
      assert.ok(bytes <= budget, `${bytes} bytes cached`);
      assert.ok(entries > 0 && entries < 30, `${entries} entries`);
      const hits = t.ctx.responseCache.hits;
      await t.app.inject({ method: 'GET', url: '/v1/dev/user/memories?limit=30', headers: ada.auth });
      assert.equal(t.ctx.responseCache.hits, hits + 1, 'the newest entry survives');
      await t.app.inject({ method: 'GET', url: '/v1/dev/user/memories?limit=1', headers: ada.auth });
      assert.equal(t.ctx.responseCache.hits, hits + 1, 'the oldest entry was evicted');
    } finally {
      await t.close();
    }
  });

  test('a malformed RESPONSE_CACHE_MB stops start-up with one line naming it', () => {
    assert.throws(
      () => loadConfig({ RESPONSE_CACHE_MB: 'lots' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError, 'err instanceof ConfigError');
        assert.match(err.message, /^RESPONSE_CACHE_MB must be an integer/);
        return true;
      },
    );
    assert.equal(loadConfig({}).responseCacheBytes, 64 * 1024 * 1024);
  });
});
