import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { ALL_ACTIONS, createApp, enabledApp, type TestAppRecord } from './fixtures.js';

/** Each integration route with a valid request, its 403 text for a foreign key and its capability text. */
const ROUTES = [
  {
    method: 'POST' as const,
    path: 'user/conversations',
    payload: { text: 'We agreed to ship the beta on Friday and review the crash reports together.' },
    action: 'create_conversation',
    badKey: 'Invalid integration API key',
    cannot: 'App does not have the capability to create conversations',
  },
  {
    method: 'POST' as const,
    path: 'user/memories',
    payload: { memories: [{ content: 'Likes green tea' }] },
    action: 'create_memories',
    badKey: 'Invalid integrationAPI key',
    cannot: 'App does not have the capability to create memories',
  },
  {
    method: 'GET' as const,
    path: 'memories',
    action: 'read_memories',
    badKey: 'Invalid integrationAPI key',
    cannot: 'App does not have the capability to read memories',
  },
  {
    method: 'GET' as const,
    path: 'conversations',
    action: 'read_conversations',
    badKey: 'Invalid API key',
    cannot: 'App does not have the capability to read conversations',
  },
  {
    method: 'POST' as const,
    path: 'search/conversations',
    payload: { query: 'beta' },
    action: 'read_conversations',
    badKey: 'Invalid API key',
    cannot: 'App does not have the capability to read conversations',
  },
  {
    method: 'GET' as const,
    path: 'tasks',
    action: 'read_tasks',
    badKey: 'Invalid API key',
    cannot: 'App does not have the capability to read tasks',
  },
];

for (const dialect of dialects()) {
  describe(`integration API gates (${dialect})`, () => {
    let t: TestApp;
    let user: TestUser;
    let app: TestAppRecord;
    let otherApp: TestAppRecord;

    before(async () => {
      t = await createTestApp(dialect);
      user = await createUser(t.ctx, { name: 'Ada' });
      app = await enabledApp(t, user);
      otherApp = await enabledApp(t, user);
    });
    after(() => t.close());

    const send = (route: (typeof ROUTES)[number], appId: string, headers: Record<string, string>, uid = user.uid) =>
      t.app.inject({
        method: route.method,
        url: `/v2/integrations/${appId}/${route.path}?uid=${uid}`,
        headers,
        ...('payload' in route ? { payload: route.payload } : {}),
      });

    for (const route of ROUTES) {
      describe(`${route.method} ${route.path}`, () => {
        test('an admitted request succeeds', async () => {
          const res = await send(route, app.appId, app.bearer);
          assert.equal(res.statusCode, 200, res.body);
        });

        test('no bearer → 401 with the reference text', async () => {
          const res = await send(route, app.appId, {});
          assert.equal(res.statusCode, 401);
          assert.deepEqual(res.json(), { detail: "Missing or invalid Authorization header. Must be 'Bearer API_KEY'" });
        });

        test('the key without its sk_ prefix is the same key, as the reference strips it', async () => {
          assert.ok(app.key.startsWith('sk_'), "app.key.startsWith('sk_')");
          const res = await send(route, app.appId, { authorization: `Bearer ${app.key.slice(3)}` });
          assert.equal(res.statusCode, 200, res.body);
        });

        test('a non-bearer scheme → 401', async () => {
          const res = await send(route, app.appId, { authorization: `Token ${app.key}` });
          assert.equal(res.statusCode, 401);
        });

        test("another app's key → 403 with the route's text", async () => {
          const res = await send(route, app.appId, otherApp.bearer);
          assert.equal(res.statusCode, 403);
          assert.deepEqual(res.json(), { detail: route.badKey });
        });

        test('a developer key is not an app key → 403', async () => {
          const res = await send(route, app.appId, user.auth);
          assert.equal(res.statusCode, 403);
          assert.equal(res.json().detail, route.badKey);
        });

        test('the key check comes before body and query validation', async () => {
          const res = await t.app.inject({
            method: route.method,
            url: `/v2/integrations/${app.appId}/${route.path}`,
            headers: otherApp.bearer,
            ...(route.method === 'POST' ? { payload: { nonsense: true, page: 'x' } } : {}),
          });
          assert.equal(res.statusCode, 403);
        });

        test('a missing uid → 422 naming the query parameter', async () => {
          const res = await t.app.inject({
            method: route.method,
            url: `/v2/integrations/${app.appId}/${route.path}`,
            headers: app.bearer,
            ...('payload' in route ? { payload: route.payload } : {}),
          });
          assert.equal(res.statusCode, 422);
          assert.deepEqual(res.json().detail[0].loc, ['query', 'uid']);
        });

        test('a user who has not enabled the app → 403 App is not enabled for this user', async () => {
          const stranger = await createUser(t.ctx, { name: 'Stranger' });
          const res = await send(route, app.appId, app.bearer, stranger.uid);
          assert.equal(res.statusCode, 403);
          assert.deepEqual(res.json(), { detail: 'App is not enabled for this user' });
        });

        test('an unknown uid → 403 (never enabled)', async () => {
          const res = await send(route, app.appId, app.bearer, 'no-such-user');
          assert.equal(res.statusCode, 403);
          assert.equal(res.json().detail, 'App is not enabled for this user');
        });

        test('an app without the action → 403 with the capability text', async () => {
          const others = ALL_ACTIONS.filter((a) => a !== route.action);
          const limited = await enabledApp(t, user, { actions: others });
          const res = await send(route, limited.appId, limited.bearer);
          assert.equal(res.statusCode, 403);
          assert.deepEqual(res.json(), { detail: route.cannot });
        });

        test('a deleted app → 404 App not found (its keys still authenticate)', async () => {
          const doomed = await enabledApp(t, user);
          await t.ctx.integrations.apps.delete(doomed.owner.uid, doomed.appId);
          const res = await send(route, doomed.appId, doomed.bearer);
          assert.equal(res.statusCode, 404);
          assert.deepEqual(res.json(), { detail: 'App not found' });
        });

        test('disabling the app revokes access at once', async () => {
          const revoked = await enabledApp(t, user);
          assert.equal((await send(route, revoked.appId, revoked.bearer)).statusCode, 200);
          await t.ctx.integrations.apps.disable(user.uid, revoked.appId);
          assert.equal((await send(route, revoked.appId, revoked.bearer)).statusCode, 403);
        });

        test('a revoked key stops working at once', async () => {
          const keyed = await enabledApp(t, user);
          const extra = await t.ctx.integrations.apps.createKey(keyed.owner.uid, keyed.appId);
          const headers = { authorization: `Bearer ${extra.secret}` };
          assert.equal((await send(route, keyed.appId, headers)).statusCode, 200);
          await t.ctx.integrations.apps.revokeKey(keyed.owner.uid, keyed.appId, extra.id);
          assert.equal((await send(route, keyed.appId, headers)).statusCode, 403);
        });
      });
    }

    test('an app key is valid only for its own app, for any user who enabled it', async () => {
      const bob = await createUser(t.ctx, { name: 'Bob' });
      await t.ctx.integrations.apps.enable(bob.uid, app.appId);
      const res = await send(ROUTES[3], app.appId, app.bearer, bob.uid);
      assert.equal(res.statusCode, 200);
    });
  });

  describe(`integration API rate limits (${dialect})`, () => {
    let t: TestApp;
    let user: TestUser;

    before(async () => {
      // Unboosted: the reference's hourly limits apply (10 conversations, 60 memory imports per app and user).
      t = await createTestApp(dialect, { config: { rateLimitBoost: 1 } });
      user = await createUser(t.ctx);
    });
    after(() => t.close());

    test('the 11th conversation create in an hour → 429 with Retry-After and X-RateLimit headers', async () => {
      const app = await enabledApp(t, user);
      const url = `/v2/integrations/${app.appId}/user/conversations?uid=${user.uid}`;
      for (let i = 0; i < 10; i++) {
        const ok = await t.app.inject({
          method: 'POST',
          url,
          headers: app.bearer,
          payload: { text: `Note number ${i} about the garden.` },
        });
        assert.equal(ok.statusCode, 200);
        assert.equal(ok.headers['x-ratelimit-remaining'], String(9 - i));
      }
      const res = await t.app.inject({ method: 'POST', url, headers: app.bearer, payload: { text: 'One too many.' } });
      assert.equal(res.statusCode, 429);
      assert.match(res.json().detail, /^Rate limit exceeded\. Try again in \d+s\.$/);
      assert.ok(Number(res.headers['retry-after']) > 0, "Number(res.headers['retry-after']) > 0");
      assert.equal(res.headers['x-ratelimit-limit'], '10');
      assert.equal(res.headers['x-ratelimit-remaining'], '0');
    });

    test('the limit is per app and user: another user of the same app is not limited', async () => {
      const app = await enabledApp(t, user);
      const bob = await createUser(t.ctx, { name: 'Bob' });
      await t.ctx.integrations.apps.enable(bob.uid, app.appId);
      const url = (uid: string) => `/v2/integrations/${app.appId}/user/conversations?uid=${uid}`;
      for (let i = 0; i < 11; i++) {
        await t.app.inject({
          method: 'POST',
          url: url(user.uid),
          headers: app.bearer,
          payload: { text: `Entry ${i}` },
        });
      }
      const res = await t.app.inject({
        method: 'POST',
        url: url(bob.uid),
        headers: app.bearer,
        payload: { text: 'Fresh bucket.' },
      });
      assert.equal(res.statusCode, 200);
    });

    test('reads are not rate limited', async () => {
      const app = await enabledApp(t, user);
      for (let i = 0; i < 70; i++) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/v2/integrations/${app.appId}/memories?uid=${user.uid}`,
          headers: app.bearer,
        });
        assert.equal(res.statusCode, 200);
      }
    });

    test('a key of an app that was never created → 403, not 404', async () => {
      const app = await createApp(t, { capabilities: ['external_integration'], actions: ['read_memories'] });
      const res = await t.app.inject({
        method: 'GET',
        url: `/v2/integrations/ghost/memories?uid=${user.uid}`,
        headers: app.bearer,
      });
      assert.equal(res.statusCode, 403);
    });
  });
}
