import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { type BusEvent, createBus, type EventBus, userChannel } from '../../src/providers/bus/index.js';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers/app.js';
import { enabledApp, type TestAppRecord } from './fixtures.js';

const log = pino({ level: 'silent' });
const redisUrl = process.env.TEST_REDIS_URL;

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The same behaviour from both adapters; `pair` gives two buses as two processes would hold them. */
function busContract(name: string, pair: () => [EventBus, EventBus]) {
  describe(`event bus: ${name}`, () => {
    let publisher: EventBus;
    let subscriber: EventBus;

    before(() => {
      [publisher, subscriber] = pair();
    });
    after(async () => {
      await publisher.close();
      if (subscriber !== publisher) await subscriber.close();
    });

    test('an event reaches the subscribers of its channel only', async () => {
      const mine: BusEvent[] = [];
      const theirs: BusEvent[] = [];
      const offMine = subscriber.subscribe(userChannel('u1'), (e) => mine.push(e));
      const offTheirs = subscriber.subscribe(userChannel('u2'), (e) => theirs.push(e));
      await subscriber.ready();
      await publisher.publish(userChannel('u1'), { type: 'notification', message: 'hi' });
      await until(() => mine.length === 1);
      offMine();
      offTheirs();
      assert.deepEqual(mine, [{ type: 'notification', message: 'hi' }]);
      assert.deepEqual(theirs, []);
    });

    test('after unsubscribing nothing more arrives', async () => {
      const seen: BusEvent[] = [];
      const off = subscriber.subscribe(userChannel('u3'), (e) => seen.push(e));
      await subscriber.ready();
      off();
      await publisher.publish(userChannel('u3'), { type: 'notification' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(seen, []);
    });

    test('a failing subscriber does not keep the event from the others', async () => {
      const seen: BusEvent[] = [];
      const offBad = subscriber.subscribe(userChannel('u4'), () => {
        throw new Error('subscriber bug');
      });
      const offGood = subscriber.subscribe(userChannel('u4'), (e) => seen.push(e));
      await subscriber.ready();
      await publisher.publish(userChannel('u4'), { type: 'memory_created' });
      await until(() => seen.length === 1);
      offBad();
      offGood();
    });
  });
}

busContract('in-process', () => {
  const bus = createBus(null, log);
  return [bus, bus];
});

if (redisUrl) {
  busContract('Redis (two connections, as two processes)', () => [createBus(redisUrl, log), createBus(redisUrl, log)]);

  describe('shared state across processes through Redis', () => {
    let first: TestApp;
    let second: TestApp;
    let user: TestUser;
    let app: TestAppRecord;

    let dataDir: string;

    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'keepsake-bus-'));
      // Two processes: each its own context and app, on the same database file and the same Redis.
      first = await createTestApp('sqlite', { config: { redisUrl, dataDir } });
      second = await createTestApp('sqlite', { config: { redisUrl, dataDir } });
      user = await createUser(first.ctx);
      app = await enabledApp(first, user);
    });
    after(async () => {
      await second.close();
      await first.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    const notify = (t: TestApp) =>
      t.app.inject({
        method: 'POST',
        url: `/v2/integrations/${app.appId}/notification?uid=${user.uid}&message=hello`,
        headers: { authorization: `Bearer ${app.secret}` },
      });

    test('the hourly notification limit is counted across processes', async () => {
      for (let i = 0; i < 5; i++) assert.equal((await notify(first)).statusCode, 200);
      for (let i = 0; i < 5; i++) assert.equal((await notify(second)).statusCode, 200);
      assert.equal((await notify(first)).statusCode, 429);
      assert.equal((await notify(second)).statusCode, 429);
    });

    test('a notification sent through one process reaches a subscriber of the other', async () => {
      const fresh = await createUser(first.ctx);
      await first.ctx.integrations.apps.enable(fresh.uid, app.appId);
      const seen: BusEvent[] = [];
      const off = first.ctx.bus.subscribe(userChannel(fresh.uid), (e) => seen.push(e));
      await first.ctx.bus.ready();
      const res = await second.app.inject({
        method: 'POST',
        url: `/v2/integrations/${app.appId}/notification?uid=${fresh.uid}&message=${encodeURIComponent('across nodes')}`,
        headers: { authorization: `Bearer ${app.secret}` },
      });
      assert.equal(res.statusCode, 200);
      await until(() => seen.length === 1);
      off();
      assert.equal(seen[0].message, 'across nodes');
    });
  });
}
