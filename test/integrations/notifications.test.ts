import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { userChannel } from '../../src/providers/bus/index.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { enabledApp, type TestAppRecord } from './fixtures.js';

for (const dialect of dialects()) {
  describe(`notification endpoint (${dialect})`, () => {
    let t: TestApp;
    let clock: ManualClock;
    let user: TestUser;
    let app: TestAppRecord;

    before(async () => {
      clock = new ManualClock(Date.parse('2026-11-20T10:15:00Z'));
      t = await createTestApp(dialect, { clock });
      user = await createUser(t.ctx, { name: 'Ada' });
      app = await enabledApp(t, user, { name: 'Weather Buddy' });
    });
    after(() => t.close());

    const notify = (
      appId: string,
      credential: string | null,
      uid = user.uid,
      message = 'Rain at 5pm, take an umbrella',
    ) =>
      t.app.inject({
        method: 'POST',
        url: `/v2/integrations/${appId}/notification?uid=${encodeURIComponent(uid)}&message=${encodeURIComponent(message)}`,
        headers: credential ? { authorization: `Bearer ${credential}` } : {},
      });

    test('with the app secret: 200 {"status":"Ok"} and the exact text is stored for the user', async () => {
      const fresh = await createUser(t.ctx);
      await t.ctx.integrations.apps.enable(fresh.uid, app.appId);
      const res = await notify(app.appId, app.secret, fresh.uid);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'Ok' });
      const list = await t.app.inject({ method: 'GET', url: '/v1/notifications', headers: fresh.session });
      assert.deepEqual(
        list
          .json()
          .map((n: { title: string; message: string; app_id: string; source: string }) => [
            n.title,
            n.message,
            n.app_id,
            n.source,
          ]),
        [['Weather Buddy says', 'Rain at 5pm, take an umbrella', app.appId, 'integration']],
      );
    });

    test('an app API key is accepted as well', async () => {
      const res = await notify(app.appId, app.key);
      assert.equal(res.statusCode, 200);
    });

    test('the first send of the hour reports 9 remaining and the seconds to the next UTC hour', async () => {
      const fresh = await createUser(t.ctx);
      await t.ctx.integrations.apps.enable(fresh.uid, app.appId);
      const res = await notify(app.appId, app.secret, fresh.uid);
      assert.equal(res.headers['x-ratelimit-limit'], '10');
      assert.equal(res.headers['x-ratelimit-remaining'], '9');
      assert.equal(res.headers['x-ratelimit-reset'], String(45 * 60 - (clock.now() % 3_600_000) / 1000 + 15 * 60));
    });

    test('the 11th send in one UTC hour → 429 with the reference text and Retry-After; the next hour resets', async () => {
      const fresh = await createUser(t.ctx);
      await t.ctx.integrations.apps.enable(fresh.uid, app.appId);
      for (let i = 0; i < 10; i++) assert.equal((await notify(app.appId, app.secret, fresh.uid)).statusCode, 200);
      const limited = await notify(app.appId, app.secret, fresh.uid);
      assert.equal(limited.statusCode, 429);
      assert.deepEqual(limited.json(), { detail: 'Rate limit exceeded. Maximum 10 notifications per hour.' });
      const toNextHour = 3600 - Math.floor((clock.now() % 3_600_000) / 1000);
      assert.equal(limited.headers['retry-after'], String(toNextHour));
      assert.equal(limited.headers['x-ratelimit-remaining'], '0');
      clock.advance(toNextHour * 1000);
      assert.equal((await notify(app.appId, app.secret, fresh.uid)).statusCode, 200);
      clock.advance(-toNextHour * 1000);
    });

    test('the limit is fixed: RATE_LIMIT_BOOST does not lift it', async () => {
      assert.ok(t.ctx.config.rateLimitBoost > 1, 'the test config boosts every boosted policy');
      const fresh = await createUser(t.ctx);
      await t.ctx.integrations.apps.enable(fresh.uid, app.appId);
      for (let i = 0; i < 10; i++) await notify(app.appId, app.secret, fresh.uid);
      assert.equal((await notify(app.appId, app.secret, fresh.uid)).statusCode, 429);
    });

    test('no bearer → 401', async () => {
      const res = await notify(app.appId, null);
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().detail, "Missing or invalid Authorization header. Must be 'Bearer API_KEY'");
    });

    test('a wrong secret, or the secret of another app → 401 Invalid API key', async () => {
      const other = await enabledApp(t, user);
      for (const credential of ['ksec_00000000000000000000000000000000', other.secret, user.key]) {
        const res = await notify(app.appId, credential);
        assert.equal(res.statusCode, 401);
        assert.deepEqual(res.json(), { detail: 'Invalid API key' });
      }
    });

    test('a deleted app → 404 App not found', async () => {
      const doomed = await enabledApp(t, user);
      await t.ctx.integrations.apps.delete(doomed.owner.uid, doomed.appId);
      const res = await notify(doomed.appId, doomed.secret);
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { detail: 'App not found' });
    });

    test('a user who has not installed the app, or an unknown user → 404 (SPEC §7.3)', async () => {
      const stranger = await createUser(t.ctx);
      for (const uid of [stranger.uid, 'no-such-user']) {
        const res = await notify(app.appId, app.secret, uid);
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.json(), { detail: 'User does not have this app installed' });
      }
    });

    test('uid and message are required query parameters → 422', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v2/integrations/${app.appId}/notification?uid=${user.uid}`,
        headers: { authorization: `Bearer ${app.secret}` },
      });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().detail[0].loc, ['query', 'message']);
    });

    test('a user reads only their own notifications, newest first, with limit and offset', async () => {
      const bob = await createUser(t.ctx, { name: 'Bob' });
      await t.ctx.integrations.apps.enable(bob.uid, app.appId);
      await notify(app.appId, app.secret, bob.uid, 'first');
      clock.advance(1000);
      await notify(app.appId, app.secret, bob.uid, 'second');
      const res = await t.app.inject({
        method: 'GET',
        url: '/v1/notifications?limit=1&offset=0',
        headers: bob.session,
      });
      assert.deepEqual(
        res.json().map((n: { message: string }) => n.message),
        ['second'],
      );
      const adas = await t.app.inject({ method: 'GET', url: '/v1/notifications?limit=100', headers: user.session });
      assert.ok(
        adas.json().every((n: { message: string }) => n.message !== 'first' && n.message !== 'second'),
        "adas.json().every((n: { message: string }) => n.message !== 'first' && n.message !== 'second')",
      );
    });

    test("every notification is published on the user's bus channel (listen sockets forward it)", async () => {
      const events: unknown[] = [];
      const off = t.ctx.bus.subscribe(userChannel(user.uid), (event) => events.push(event));
      await notify(app.appId, app.secret, user.uid, 'On the bus');
      off();
      assert.equal(events.length, 1);
      assert.deepEqual(
        { ...(events[0] as object), id: 'x', created_at: 'x' },
        {
          type: 'notification',
          id: 'x',
          app_id: app.appId,
          title: 'Weather Buddy says',
          message: 'On the bus',
          source: 'integration',
          created_at: 'x',
        },
      );
    });
  });
}
