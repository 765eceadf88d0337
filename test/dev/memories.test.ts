import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { MEMORY_CATEGORIES } from '../../src/domain/categories.js';
import { createUser, dialects, type TestUser } from '../helpers/app.js';
import { appWithTwoUsers } from '../helpers/suite.js';
import { invalid } from '../helpers/validation.js';
import { countRows, seedConversation, seedMemory } from './fixtures.js';

interface Memory {
  id: string;
  content: string;
  category: string;
  visibility: string;
  tags: string[];
  created_at: string;
  manually_added: boolean;
  reviewed: boolean;
  user_review: boolean | null;
  edited: boolean;
  scoring: string;
  source: string;
  conversation_id: string | null;
  app_id: string | null;
}

for (const dialect of dialects()) {
  describe(`developer memories API (${dialect})`, () => {
    const clock = new ManualClock();
    const { t, ada, bob, call, postOk } = appWithTwoUsers(dialect, { clock });
    const create = (user: TestUser, payload: Record<string, unknown>): Promise<Memory> => {
      clock.advance(1000);
      return postOk(user, '/v1/dev/user/memories', payload);
    };

    test('create stores a manual memory with the reference fields and its source', async () => {
      const memory = await create(ada, {
        content: '  Prefers tea over coffee  ',
        category: 'habits',
        tags: ['drinks', ' drinks ', ''],
      });
      assert.equal(memory.content, 'Prefers tea over coffee');
      assert.equal(memory.category, 'habits');
      assert.equal(memory.visibility, 'private');
      assert.deepEqual(memory.tags, ['drinks']);
      assert.equal(memory.manually_added, true);
      assert.equal(memory.reviewed, true);
      assert.equal(memory.user_review, true);
      assert.equal(memory.edited, false);
      assert.match(memory.scoring, /^100_\d{10}$/);
      assert.equal(memory.source, 'manual');
      assert.equal(memory.conversation_id, null);
      assert.equal(memory.app_id, null);
    });

    test('identical content creates a second memory instead of overwriting the first', async () => {
      const first = await create(ada, { content: 'Lives in Lisbon' });
      const second = await create(ada, { content: 'Lives in Lisbon' });
      assert.notEqual(first.id, second.id);
      const list: Memory[] = (await call(ada, 'GET', '/v1/dev/user/memories?limit=100')).json();
      assert.equal(list.filter((m) => m.content === 'Lives in Lisbon').length, 2);
    });

    test('a memory without a category is filed as manual', async () => {
      const memory = await create(ada, { content: 'Has a cat named Pixel' });
      assert.equal(memory.category, 'manual');
    });

    test('list is newest first with limit and offset', async () => {
      const user = await createUser(t.ctx);
      const ids = [];
      for (const content of ['one', 'two', 'three']) ids.push((await create(user, { content })).id);
      const page1: Memory[] = (await call(user, 'GET', '/v1/dev/user/memories?limit=2')).json();
      const page2: Memory[] = (await call(user, 'GET', '/v1/dev/user/memories?limit=2&offset=2')).json();
      assert.deepEqual(
        page1.map((m) => m.id),
        [ids[2], ids[1]],
      );
      assert.deepEqual(
        page2.map((m) => m.id),
        [ids[0]],
      );
    });

    test('list defaults to 25 items', async () => {
      const user = await createUser(t.ctx);
      const batch = Array.from({ length: 25 }, (_, i) => ({ content: `fact ${i}` }));
      await call(user, 'POST', '/v1/dev/user/memories/batch', { memories: batch });
      await call(user, 'POST', '/v1/dev/user/memories/batch', { memories: batch.slice(0, 5) });
      const list: Memory[] = (await call(user, 'GET', '/v1/dev/user/memories')).json();
      assert.equal(list.length, 25);
    });

    test('categories filter is a comma-separated OR', async () => {
      const user = await createUser(t.ctx);
      await create(user, { content: 'work fact', category: 'work' });
      await create(user, { content: 'hobby fact', category: 'hobbies' });
      await create(user, { content: 'other fact', category: 'other' });
      const list: Memory[] = (await call(user, 'GET', '/v1/dev/user/memories?categories=work,%20hobbies,')).json();
      assert.deepEqual(list.map((m) => m.content).sort(), ['hobby fact', 'work fact']);
    });

    test('an unknown category in the filter → 400 with the reference detail', async () => {
      const res = await call(ada, 'GET', '/v1/dev/user/memories?categories=work,foo');
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json(), { detail: "Invalid category 'foo' is not a valid MemoryCategory" });
    });

    test('memories from conversations and apps report their source', async () => {
      const user = await createUser(t.ctx);
      const conversationId = await seedConversation(t.ctx, user.uid);
      await seedMemory(t.ctx, user.uid, { content: 'from a talk', origin: 'conversation', conversationId });
      await seedMemory(t.ctx, user.uid, { content: 'from an app', origin: 'app', appId: 'app_1' });
      const list: Memory[] = (await call(user, 'GET', '/v1/dev/user/memories')).json();
      const byContent = new Map(list.map((m) => [m.content, m]));
      assert.equal(byContent.get('from a talk')?.source, 'conversation');
      assert.equal(byContent.get('from a talk')?.conversation_id, conversationId);
      assert.equal(byContent.get('from a talk')?.manually_added, false);
      assert.equal(byContent.get('from an app')?.source, 'app');
      assert.equal(byContent.get('from an app')?.app_id, 'app_1');
    });

    test('memories the user rejected are not listed', async () => {
      const user = await createUser(t.ctx);
      await seedMemory(t.ctx, user.uid, { content: 'kept' });
      await seedMemory(t.ctx, user.uid, { content: 'rejected', userReview: 0 });
      const list: Memory[] = (await call(user, 'GET', '/v1/dev/user/memories')).json();
      assert.deepEqual(
        list.map((m) => m.content),
        ['kept'],
      );
    });

    test('visibility other than public or private → 422', async () => {
      const res = await call(ada, 'POST', '/v1/dev/user/memories', { content: 'x', visibility: 'friends' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().detail[0].loc, ['body', 'visibility']);
    });

    test('an unknown category in a body → 422 on that field', async () => {
      const res = await call(ada, 'POST', '/v1/dev/user/memories', { content: 'x', category: 'gossip' });
      assert.equal(res.statusCode, 422);
      // One issue, as FastAPI reports it: not also "must be null" and "must match a schema in anyOf".
      // The message names the categories a memory can have.
      assert.deepEqual(res.json().detail, [
        { loc: ['body', 'category'], msg: `must be one of: ${MEMORY_CATEGORIES.join(', ')}`, type: 'enum' },
      ]);
    });

    test('whitespace-only content → 422 content cannot be empty', async () => {
      const res = await call(ada, 'POST', '/v1/dev/user/memories', { content: '   ' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), invalid(['body', 'content'], 'content cannot be empty'));
    });

    test('batch creates all and reports the count', async () => {
      const user = await createUser(t.ctx);
      const res = await call(user, 'POST', '/v1/dev/user/memories/batch', {
        memories: [{ content: 'a' }, { content: 'b', visibility: 'public' }],
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().created_count, 2);
      assert.deepEqual(
        res.json().memories.map((m: Memory) => [m.content, m.visibility]),
        [
          ['a', 'private'],
          ['b', 'public'],
        ],
      );
      assert.equal(await countRows(t.ctx, 'memories', user.uid), 2);
    });

    test('an empty batch creates nothing and says so', async () => {
      const res = await call(ada, 'POST', '/v1/dev/user/memories/batch', { memories: [] });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { memories: [], created_count: 0 });
    });

    test('a batch with one blank content → 422 and nothing is written', async () => {
      const user = await createUser(t.ctx);
      const res = await call(user, 'POST', '/v1/dev/user/memories/batch', {
        memories: [{ content: 'fine' }, { content: ' ' }],
      });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), invalid(['body', 'memories'], 'All memories must have non-empty content'));
      assert.equal(await countRows(t.ctx, 'memories', user.uid), 0);
    });

    test('patch edits content, marks it edited and keeps the id', async () => {
      const memory = await create(ada, { content: 'Drives a Fiat' });
      clock.advance(1000);
      const res = await call(ada, 'PATCH', `/v1/dev/user/memories/${memory.id}`, {
        content: 'Drives a Volvo',
        tags: ['car'],
      });
      assert.equal(res.statusCode, 200);
      const body: Memory = res.json();
      assert.equal(body.id, memory.id);
      assert.equal(body.content, 'Drives a Volvo');
      assert.equal(body.edited, true);
      assert.deepEqual(body.tags, ['car']);
    });

    test('patch is atomic: an invalid visibility leaves the content unchanged', async () => {
      const memory = await create(ada, { content: 'Original words' });
      const res = await call(ada, 'PATCH', `/v1/dev/user/memories/${memory.id}`, {
        content: 'New words',
        visibility: 'everyone',
      });
      assert.equal(res.statusCode, 422);
      const stored = await t.ctx.repos.memories.findById(ada.uid, memory.id);
      assert.equal(stored?.content, 'Original words');
      assert.equal(stored?.edited, 0);
    });

    test('patch with no field → 422 with the reference detail', async () => {
      const memory = await create(ada, { content: 'Unchanged' });
      const res = await call(ada, 'PATCH', `/v1/dev/user/memories/${memory.id}`, { content: null });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(
        res.json(),
        invalid(['body'], 'At least one field (content, visibility, tags, or category) must be provided'),
      );
    });

    test("patch and delete of another user's memory → 404 Memory not found", async () => {
      const memory = await create(ada, { content: 'Private to Ada' });
      const patched = await call(bob, 'PATCH', `/v1/dev/user/memories/${memory.id}`, { content: 'hijacked' });
      const deleted = await call(bob, 'DELETE', `/v1/dev/user/memories/${memory.id}`);
      assert.deepEqual([patched.statusCode, deleted.statusCode], [404, 404]);
      assert.deepEqual(deleted.json(), { detail: 'Memory not found' });
      assert.equal((await t.ctx.repos.memories.findById(ada.uid, memory.id))?.content, 'Private to Ada');
    });

    test('delete removes the memory and answers success', async () => {
      const memory = await create(ada, { content: 'Short-lived' });
      const res = await call(ada, 'DELETE', `/v1/dev/user/memories/${memory.id}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { success: true });
      assert.equal(await t.ctx.repos.memories.findById(ada.uid, memory.id), undefined);
      assert.equal((await call(ada, 'DELETE', `/v1/dev/user/memories/${memory.id}`)).statusCode, 404);
    });

    test("one user never sees another's memories", async () => {
      await create(bob, { content: "Bob's secret" });
      const list: Memory[] = (await call(ada, 'GET', '/v1/dev/user/memories?limit=1000')).json();
      assert.ok(
        list.every((m) => m.content !== "Bob's secret"),
        'list.every((m) => m.content !== "Bob\'s secret")',
      );
    });

    test('a read-only key can list but not create (403 with the scope)', async () => {
      const reader = await createUser(t.ctx, { scopes: null });
      assert.equal((await call(reader, 'GET', '/v1/dev/user/memories?limit=1')).statusCode, 200);
      const res = await call(reader, 'POST', '/v1/dev/user/memories', { content: 'x' });
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), { detail: 'Insufficient permissions. Required scope: memories:write' });
    });

    test("omi-cli's auth probe: an omi_dev_ key on GET memories?limit=1, a bad key → 401", async () => {
      const ok = await t.app.inject({
        method: 'GET',
        url: '/v1/dev/user/memories?limit=1',
        headers: { authorization: `Bearer ${ada.key}` },
      });
      assert.equal(ok.statusCode, 200);
      assert.ok(Array.isArray(ok.json()), 'Array.isArray(ok.json())');
      const bad = await t.app.inject({
        method: 'GET',
        url: '/v1/dev/user/memories?limit=1',
        headers: { authorization: `Bearer omi_dev_${'0'.repeat(32)}` },
      });
      assert.equal(bad.statusCode, 401);
      assert.deepEqual(bad.json(), { detail: 'Invalid API Key' });
    });
  });
}
