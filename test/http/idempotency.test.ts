import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RETENTION_MS } from '../../src/http/idempotency.js';
import type { TestUser } from '../helpers/app.js';
import { dialects } from '../helpers/app.js';
import { appWithTwoUsers } from '../helpers/suite.js';
import { enabledApp } from '../integrations/fixtures.js';

const TEXT = 'Met Maria about the quarterly budget; I will send her the report on Friday.';

/** Every create that honours Idempotency-Key, with a body and the table its rows land in. */
const CREATES = [
  { url: '/v1/dev/user/conversations?wait=false', body: { text: TEXT }, table: 'conversations' },
  {
    url: '/v1/dev/user/conversations/from-segments?wait=false',
    body: { transcript_segments: [{ text: TEXT, start: 0, end: 4 }] },
    table: 'conversations',
  },
  { url: '/v1/dev/user/memories', body: { content: 'Ada likes tea' }, table: 'memories' },
  {
    url: '/v1/dev/user/memories/batch',
    body: { memories: [{ content: 'one fact' }, { content: 'another fact' }] },
    table: 'memories',
  },
  { url: '/v1/dev/user/action-items', body: { description: 'Send the report' }, table: 'action_items' },
  {
    url: '/v1/dev/user/action-items/batch',
    body: { action_items: [{ description: 'a' }, { description: 'b' }] },
    table: 'action_items',
  },
  { url: '/v1/dev/user/goals', body: { title: 'Run more', target_value: 5 }, table: 'goals' },
  { url: '/v1/dev/user/folders', body: { name: 'Work' }, table: 'folders' },
] as const;

for (const dialect of dialects()) {
  describe(`Idempotency-Key on creates (${dialect})`, () => {
    const { t, ada, bob } = appWithTwoUsers(dialect);

    const post = (user: TestUser, url: string, payload: object, key?: string) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { ...user.auth, ...(key === undefined ? {} : { 'idempotency-key': key }) },
        payload,
      });
    const count = async (table: (typeof CREATES)[number]['table'], userId: string) => {
      const row = await t.ctx.store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };

    for (const create of CREATES) {
      test(`${create.url}: a retry with the same key replays the first answer and creates nothing`, async () => {
        const key = `retry-${create.url}`;
        const before = await count(create.table, ada.uid);
        const first = await post(ada, create.url, create.body, key);
        assert.equal(first.statusCode, 200, first.body);
        assert.equal(first.headers['idempotent-replayed'], undefined);
        const created = (await count(create.table, ada.uid)) - before;
        assert.ok(created > 0, 'created > 0');
        const again = await post(ada, create.url, create.body, key);
        assert.equal(again.statusCode, 200);
        assert.equal(again.headers['idempotent-replayed'], 'true');
        assert.equal(again.body, first.body);
        assert.equal(await count(create.table, ada.uid), before + created);
      });
    }

    test('the same key with a different body is refused with a 422 at the header, and nothing is created', async () => {
      const url = '/v1/dev/user/memories';
      assert.equal((await post(ada, url, { content: 'first' }, 'changed-body')).statusCode, 200);
      const before = await count('memories', ada.uid);
      const res = await post(ada, url, { content: 'second' }, 'changed-body');
      assert.equal(res.statusCode, 422);
      const [issue] = res.json().detail;
      assert.deepEqual(issue.loc, ['header', 'idempotency-key']);
      assert.equal(issue.type, 'idempotency_key_reused');
      assert.match(issue.msg, /different request/);
      assert.equal(await count('memories', ada.uid), before);
    });

    test('the same key on another route is a different request (422)', async () => {
      assert.equal((await post(ada, '/v1/dev/user/folders', { name: 'Home' }, 'two-routes')).statusCode, 200);
      const res = await post(ada, '/v1/dev/user/action-items', { description: 'Home' }, 'two-routes');
      assert.equal(res.statusCode, 422);
    });

    test('the same body in another key order is the same request (replayed)', async () => {
      const url = '/v1/dev/user/goals';
      const first = await post(ada, url, { title: 'Read', target_value: 3, unit: 'books' }, 'key-order');
      const again = await post(ada, url, { unit: 'books', target_value: 3, title: 'Read' }, 'key-order');
      assert.equal(again.statusCode, 200);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body);
    });

    test('keys are per user: two users with the same key each create their own', async () => {
      const url = '/v1/dev/user/conversations?wait=false';
      const [a, b] = [ada, bob].map((u) => count('conversations', u.uid));
      const first = await post(ada, url, { text: TEXT }, 'shared-key');
      const second = await post(bob, url, { text: TEXT }, 'shared-key');
      assert.equal(second.statusCode, 200);
      assert.equal(second.headers['idempotent-replayed'], undefined);
      assert.notEqual(second.json().id, first.json().id);
      assert.equal(await count('conversations', ada.uid), (await a) + 1);
      assert.equal(await count('conversations', bob.uid), (await b) + 1);
    });

    test('concurrent requests with one key create one row; the others replay it', async () => {
      const url = '/v1/dev/user/memories';
      const before = await count('memories', ada.uid);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => post(ada, url, { content: 'said at once' }, 'concurrent')),
      );
      assert.deepEqual(
        answers.map((r) => r.statusCode),
        Array(8).fill(200),
      );
      assert.equal(new Set(answers.map((r) => r.json().id)).size, 1);
      assert.equal(answers.filter((r) => r.headers['idempotent-replayed'] === 'true').length, 7);
      assert.equal(await count('memories', ada.uid), before + 1);
    });

    test('a conversation processed before answering replays its final status', async () => {
      const url = '/v1/dev/user/conversations';
      const first = await post(ada, url, { text: TEXT }, 'processed');
      assert.equal(first.statusCode, 200);
      assert.equal(first.json().status, 'completed');
      const again = await post(ada, url, { text: TEXT }, 'processed');
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body);
    });

    test('a retry while the first is still processing waits for its final answer', async () => {
      const url = '/v1/dev/user/conversations';
      const before = await count('conversations', ada.uid);
      const [first, second] = await Promise.all([
        post(ada, url, { text: TEXT }, 'in-flight'),
        post(ada, url, { text: TEXT }, 'in-flight'),
      ]);
      assert.deepEqual([first.statusCode, second.statusCode], [200, 200]);
      assert.equal(first.body, second.body);
      assert.equal(first.json().status, 'completed');
      assert.equal(await count('conversations', ada.uid), before + 1);
    });

    test('a create that failed leaves its key free for the corrected retry', async () => {
      const url = '/v1/dev/user/conversations?wait=false';
      const late = { text: TEXT, started_at: '2024-01-02T00:00:00Z', finished_at: '2024-01-01T00:00:00Z' };
      assert.equal((await post(ada, url, late, 'failed-first')).statusCode, 422);
      // A different body: the failed attempt recorded nothing, so this is a first use, not a reuse.
      const res = await post(ada, url, { text: TEXT }, 'failed-first');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['idempotent-replayed'], undefined);
    });

    test('keys must be 1-255 printable ASCII characters (422 at the header)', async () => {
      const url = '/v1/dev/user/memories';
      for (const key of ['x'.repeat(256), 'tab\there', 'é'.normalize()]) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { ...ada.auth, 'idempotency-key': Buffer.from(key).toString('latin1') },
          payload: { content: 'bad key' },
        });
        assert.equal(res.statusCode, 422, key);
        assert.deepEqual(res.json().detail[0].loc, ['header', 'idempotency-key']);
      }
      assert.equal((await post(ada, url, { content: 'edge key' }, '~'.repeat(255))).statusCode, 200);
    });

    test('a key is reusable for a new request once its record has expired', async () => {
      const url = '/v1/dev/user/memories';
      assert.equal((await post(ada, url, { content: 'old' }, 'expiring')).statusCode, 200);
      await t.ctx.store.db
        .updateTable('idempotency_keys')
        .set({ created_at: Date.now() - RETENTION_MS - 1000 })
        .where('key', '=', 'expiring')
        .execute();
      const res = await post(ada, url, { content: 'new' }, 'expiring');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['idempotent-replayed'], undefined);
      assert.equal(res.json().content, 'new');
    });

    test('without the header, every create is a new one', async () => {
      const url = '/v1/dev/user/action-items';
      const before = await count('action_items', ada.uid);
      await post(ada, url, { description: 'twice' });
      await post(ada, url, { description: 'twice' });
      assert.equal(await count('action_items', ada.uid), before + 2);
    });

    test('integration creates: keys are per app and user, and replay {}', async () => {
      const app = await enabledApp(t, ada);
      const other = await enabledApp(t, ada);
      const send = (appId: string, bearer: Record<string, string>, path: string, payload: object) =>
        t.app.inject({
          method: 'POST',
          url: `/v2/integrations/${appId}/user/${path}?uid=${ada.uid}`,
          headers: { ...bearer, 'idempotency-key': 'from-app' },
          payload,
        });
      const before = await count('conversations', ada.uid);
      const first = await send(app.appId, app.bearer, 'conversations', { text: TEXT });
      const again = await send(app.appId, app.bearer, 'conversations', { text: TEXT });
      assert.equal(first.statusCode, 200);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, '{}');
      const fromOther = await send(other.appId, other.bearer, 'conversations', { text: TEXT });
      assert.equal(fromOther.headers['idempotent-replayed'], undefined);
      assert.equal(await count('conversations', ada.uid), before + 2);

      const memories = await count('memories', ada.uid);
      const facts = { memories: [{ content: 'Ada lives in London' }] };
      const m1 = await t.app.inject({
        method: 'POST',
        url: `/v2/integrations/${app.appId}/user/memories?uid=${ada.uid}`,
        headers: { ...app.bearer, 'idempotency-key': 'facts' },
        payload: facts,
      });
      const m2 = await t.app.inject({
        method: 'POST',
        url: `/v2/integrations/${app.appId}/user/memories?uid=${ada.uid}`,
        headers: { ...app.bearer, 'idempotency-key': 'facts' },
        payload: facts,
      });
      assert.equal(m1.statusCode, 200);
      assert.equal(m2.headers['idempotent-replayed'], 'true');
      assert.equal(await count('memories', ada.uid), memories + 1);
    });

    test('the OpenAPI document lists the header on every create', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const paths = [
        '/v1/dev/user/conversations',
        '/v1/dev/user/conversations/from-segments',
        '/v1/dev/user/memories',
        '/v1/dev/user/memories/batch',
        '/v1/dev/user/action-items',
        '/v1/dev/user/action-items/batch',
        '/v1/dev/user/goals',
        '/v1/dev/user/folders',
        '/v2/integrations/{app_id}/user/conversations',
        '/v2/integrations/{app_id}/user/memories',
      ];
      for (const path of paths) {
        const params: Array<{ in: string; name: string }> = doc.paths[path].post.parameters ?? [];
        assert.ok(
          params.some((p) => p.in === 'header' && p.name === 'idempotency-key'),
          `${path} documents Idempotency-Key`,
        );
      }
    });
  });
}
