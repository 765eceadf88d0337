import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { enabledApp, type TestAppRecord } from './fixtures.js';

// Issue 17: the Omi integration SDKs' eight methods, as they go over the wire (BasedHardware/omi
// sdks/integration: one key for every call as `Authorization: Bearer`, `Accept: application/json`, query
// values as strings with arrays repeated, a JSON body only where the method has one), against a real
// listening server. Only the base URL and the key change, as for a user of the unmodified SDK.

type Query = Record<string, string | number | boolean | string[] | undefined>;

function wire(base: string, key: string) {
  return async (method: 'GET' | 'POST', path: string, query?: Query, body?: unknown) => {
    const url = new URL(base + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, item);
      else url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
}

for (const dialect of dialects()) {
  describe(`integration SDK calls as sent (${dialect})`, () => {
    let t: TestApp;
    let user: TestUser;
    let app: TestAppRecord;
    let call: ReturnType<typeof wire>;

    before(async () => {
      t = await createTestApp(dialect);
      user = await createUser(t.ctx, { name: 'Ada' });
      app = await enabledApp(t, user);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      call = wire(`http://127.0.0.1:${port}`, app.key);
    });
    after(() => t.close());

    test('createConversation and createMemories store for the user', async () => {
      const created = await call(
        'POST',
        `/v2/integrations/${app.appId}/user/conversations`,
        { uid: user.uid },
        {
          text: 'We planted the tomatoes today and agreed to water them every morning before work.',
          text_source: 'other_text',
          language: 'en',
        },
      );
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const memories = await call(
        'POST',
        `/v2/integrations/${app.appId}/user/memories`,
        { uid: user.uid },
        {
          memories: [{ content: 'Grows heirloom tomatoes', tags: ['garden'] }],
          text_source: 'other',
        },
      );
      assert.equal(memories.status, 200, JSON.stringify(memories.body));
      await t.ctx.runner.drain();
    });

    test('listConversations, listMemories, searchConversations and listTasks read them back', async () => {
      const conversations = await call('GET', `/v2/integrations/${app.appId}/conversations`, {
        uid: user.uid,
        limit: 10,
        offset: 0,
        include_discarded: true,
        statuses: ['completed', 'processing'],
        max_transcript_segments: 5,
      });
      assert.equal(conversations.status, 200, JSON.stringify(conversations.body));
      const listed = conversations.body.conversations as Array<Record<string, unknown>>;
      assert.equal(listed.length, 1);
      assert.equal(typeof listed[0].source, 'string');

      const memories = await call('GET', `/v2/integrations/${app.appId}/memories`, {
        uid: user.uid,
        limit: 10,
        offset: 0,
      });
      assert.equal(memories.status, 200);
      const memory = (memories.body.memories as Array<Record<string, unknown>>).find((m) =>
        String(m.content).includes('heirloom'),
      );
      assert.ok(memory, 'memory');
      assert.equal(memory.uid, user.uid);
      assert.ok('layer' in memory, "'layer' in memory");

      const found = await call(
        'POST',
        `/v2/integrations/${app.appId}/search/conversations`,
        { uid: user.uid, max_transcript_segments: 3 },
        { query: 'tomatoes', page: 1, per_page: 10, include_discarded: false },
      );
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.equal((found.body.conversations as unknown[]).length, 1);
      assert.deepEqual([found.body.current_page, found.body.per_page, found.body.total_pages], [1, 10, 1]);

      const tasks = await call('GET', `/v2/integrations/${app.appId}/tasks`, {
        uid: user.uid,
        limit: 10,
        offset: 0,
        completed: false,
        start_date: '2000-01-01',
        due_end_date: '2100-01-01T00:00:00Z',
      });
      assert.equal(tasks.status, 200, JSON.stringify(tasks.body));
      assert.ok(Array.isArray(tasks.body.tasks), 'Array.isArray(tasks.body.tasks)');
    });

    test('sendNotification and sendNotificationV1 deliver with the same key', async () => {
      const v2 = await call('POST', `/v2/integrations/${app.appId}/notification`, {
        message: 'Water the tomatoes',
        uid: user.uid,
      });
      assert.equal(v2.status, 200, JSON.stringify(v2.body));
      assert.deepEqual(v2.body, { status: 'Ok' });
      const v1 = await call('POST', '/v1/integrations/notification', undefined, {
        aid: app.appId,
        uid: user.uid,
        message: 'Frost tonight',
      });
      assert.equal(v1.status, 200, JSON.stringify(v1.body));
      assert.equal(v1.body.status, 'Ok');
      const stored = await t.ctx.store.db
        .selectFrom('notifications')
        .select('message')
        .where('user_id', '=', user.uid)
        .execute();
      assert.deepEqual(stored.map((n) => n.message).sort(), ['Frost tonight', 'Water the tomatoes']);
    });
  });
}
