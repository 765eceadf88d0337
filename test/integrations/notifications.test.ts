import assert from 'node:assert/strict';
import { get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { userChannel } from '../../src/providers/bus/index.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { FakeAppServer } from '../helpers/fake-app-server.js';
import { deliveries, drainWebhooks, enabledApp, type TestAppRecord } from './fixtures.js';

/** Opens the SSE stream and collects its `event: notification` frames. */
async function openStream(base: string, path: string, headers: Record<string, string> = {}) {
  const frames: Array<{ event: string; data: unknown; id: string }> = [];
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    httpGet(`${base}${path}`, { headers }, resolve).on('error', reject);
  });
  let buffer = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    buffer += chunk;
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const lines = buffer.slice(0, cut).split('\n');
      buffer = buffer.slice(cut + 2);
      const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
      const event = field('event');
      if (event) frames.push({ event, data: JSON.parse(field('data') ?? 'null'), id: field('id') ?? '' });
      cut = buffer.indexOf('\n\n');
    }
  });
  return { response, frames, close: () => response.destroy() };
}

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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
      assert.ok(adas.json().every((n: { message: string }) => n.message !== 'first' && n.message !== 'second'));
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

  describe(`notification delivery channels (${dialect})`, () => {
    let t: TestApp;
    let gateway: FakeAppServer;
    let base: string;
    let user: TestUser;
    let app: TestAppRecord;

    before(async () => {
      gateway = await FakeAppServer.start();
      t = await createTestApp(dialect, {
        config: { pushWebhookUrl: `${gateway.url}/topic`, pushWebhookSecret: 'push-secret' },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      user = await createUser(t.ctx, { name: 'Ada' });
      app = await enabledApp(t, user, { name: 'Café Bot' });
      gateway.verifyWith('/topic', 'push-secret');
    });
    after(async () => {
      await t.close();
      await gateway.close();
    });

    const notify = (message: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v2/integrations/${app.appId}/notification?uid=${user.uid}&message=${encodeURIComponent(message)}`,
        headers: { authorization: `Bearer ${app.secret}` },
      });

    test('the SSE stream carries each new notification as an event: notification frame', async () => {
      const stream = await openStream(base, '/v1/notifications/stream', user.session);
      assert.equal(stream.response.statusCode, 200);
      assert.match(String(stream.response.headers['content-type']), /^text\/event-stream/);
      await t.ctx.bus.ready();
      await notify('Live hello');
      await until(() => stream.frames.length === 1);
      stream.close();
      const [frame] = stream.frames;
      assert.equal(frame.event, 'notification');
      assert.deepEqual((frame.data as { message: string; title: string }).message, 'Live hello');
      assert.equal((frame.data as { title: string }).title, 'Café Bot says');
      assert.equal(frame.id, (frame.data as { id: string }).id);
    });

    test('EventSource clients may pass the session token as ?token=', async () => {
      const stream = await openStream(base, `/v1/notifications/stream?token=${encodeURIComponent(user.token)}`);
      assert.equal(stream.response.statusCode, 200);
      await notify('Via token');
      await until(() => stream.frames.length === 1);
      stream.close();
    });

    test("a stream never carries another user's notifications", async () => {
      const bob = await createUser(t.ctx, { name: 'Bob' });
      const stream = await openStream(base, '/v1/notifications/stream', bob.session);
      await notify('For Ada only');
      await new Promise((resolve) => setTimeout(resolve, 100));
      stream.close();
      assert.equal(stream.frames.length, 0);
    });

    test('the stream without a valid session → 401', async () => {
      const missing = await t.app.inject({ method: 'GET', url: '/v1/notifications/stream' });
      assert.equal(missing.statusCode, 401);
      const wrong = await t.app.inject({ method: 'GET', url: '/v1/notifications/stream?token=forged' });
      assert.equal(wrong.statusCode, 401);
    });

    test('the push gateway receives a signed JSON POST with a Title header, through the outbox', async () => {
      const before = gateway.callsTo('/topic').length;
      await notify('Push me ☕');
      await drainWebhooks(t);
      const calls = await gateway.waitFor(before + 1, '/topic');
      const call = calls[calls.length - 1];
      assert.deepEqual(
        { ...(call.json as object), id: 'x', created_at: 'x' },
        {
          type: 'notification',
          id: 'x',
          uid: user.uid,
          app_id: app.appId,
          title: 'Café Bot says',
          message: 'Push me ☕',
          source: 'integration',
          created_at: 'x',
        },
      );
      assert.equal(call.headers.title, `=?UTF-8?B?${Buffer.from('Café Bot says').toString('base64')}?=`);
      assert.equal(call.signatureValid, true);
      const rows = (await deliveries(t, user.uid)).filter((d) => d.kind === 'push');
      assert.ok(rows.every((d) => d.status === 'delivered'));
      assert.equal(call.headers['idempotency-key'], rows[rows.length - 1].id);
    });
  });
}
