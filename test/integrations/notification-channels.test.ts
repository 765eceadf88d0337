import assert from 'node:assert/strict';
import { get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
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
      assert.ok(
        rows.every((d) => d.status === 'delivered'),
        "rows.every((d) => d.status === 'delivered')",
      );
      assert.equal(call.headers['idempotency-key'], rows[rows.length - 1].id);
    });
  });
}
