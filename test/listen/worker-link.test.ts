import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createConnection, createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { ManualClock } from '../../src/context-types.js';
import { QueueDispatcher } from '../../src/listen/dispatch.js';
import { DEFAULT_LINK_LIMITS, WorkerLink } from '../../src/listen/worker-link.js';
import { FINALIZE_JOB } from '../../src/store/repositories/finalization.js';
import { createTestApp, createUser, type TestApp } from '../helpers/app.js';

const redisUrl = process.env.TEST_REDIS_URL;
const FAST = { ...DEFAULT_LINK_LIMITS, backoffBaseMs: 5, backoffMaxMs: 20, degradedCooldownMs: 60_000 };

/** A TCP proxy to Redis that can be down (port reserved, nothing listening) or up. */
async function redisProxy(target: URL): Promise<{ url: string; up(): Promise<void>; close(): Promise<void> }> {
  const reserve = createServer();
  await new Promise<void>((resolve) => reserve.listen(0, '127.0.0.1', resolve));
  const address = reserve.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => reserve.close(() => resolve()));
  let server: Server | null = null;
  return {
    url: `redis://127.0.0.1:${port}`,
    async up() {
      server = createServer((client) => {
        const upstream = createConnection(Number(target.port || 6379), target.hostname);
        client.pipe(upstream).pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      });
      await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
    },
    async close() {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
  };
}

async function until(probe: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('processing-worker link (queue dispatch)', { skip: redisUrl ? false : 'TEST_REDIS_URL not set' }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let uid: string;
  const log = pino({ level: 'silent' });
  before(async () => {
    clock = new ManualClock();
    t = await createTestApp('sqlite', { clock });
    uid = (await createUser(t.ctx)).uid;
  });
  after(() => t.close());

  const finalizationJob = () =>
    t.ctx.jobs.enqueue(
      {
        id: randomUUID(),
        kind: FINALIZE_JOB,
        userId: uid,
        payload: { conversation_id: randomUUID(), revision: 1 },
        idempotencyKey: randomUUID(),
        maxAttempts: 5,
        runAt: clock.now(),
      },
      clock.now(),
    );
  const generation = async (jobId: string) => (await t.ctx.jobs.findById(jobId))?.dispatch_generation;

  test('requests made while the queue is unreachable stay buffered and are re-sent on reconnect', async () => {
    const proxy = await redisProxy(new URL(redisUrl ?? ''));
    const dispatcher = new QueueDispatcher(proxy.url, t.ctx.jobs, clock);
    const link = new WorkerLink(dispatcher, clock, log, { ...FAST, backoffBaseMs: 50 });
    try {
      const jobId = await finalizationJob();
      link.request(jobId, 'conversation-a');
      await until(() => link.state === 'RECONNECT_BACKOFF', 'backoff');
      assert.equal(link.buffered, 1);
      await proxy.up();
      await until(() => link.state === 'CONNECTED', 'reconnect');
      await until(() => false, 'settle', 300).catch(() => undefined);
      // Re-sent with a new dispatch generation, so a lost earlier delivery would be dropped as stale.
      assert.equal(await generation(jobId), 1);
      assert.equal(link.buffered, 1);
    } finally {
      link.close();
      await dispatcher.close();
      await proxy.close();
    }
  });

  test('six failed reconnect attempts leave the link DEGRADED with its requests still buffered', async () => {
    const proxy = await redisProxy(new URL(redisUrl ?? ''));
    const dispatcher = new QueueDispatcher(proxy.url, t.ctx.jobs, clock);
    const link = new WorkerLink(dispatcher, clock, log, FAST);
    try {
      link.request(await finalizationJob(), 'conversation-b');
      await until(() => link.state === 'DEGRADED', 'degraded', 20_000);
      assert.equal(link.buffered, 1);
    } finally {
      link.close();
      await dispatcher.close();
      await proxy.close();
    }
  });

  test('at most 100 requests are buffered; the oldest is dropped', async () => {
    const proxy = await redisProxy(new URL(redisUrl ?? ''));
    const dispatcher = new QueueDispatcher(proxy.url, t.ctx.jobs, clock);
    const link = new WorkerLink(dispatcher, clock, log, FAST);
    try {
      for (let i = 0; i < 101; i++) link.request(randomUUID(), `conversation-${i}`);
      assert.equal(link.buffered, 100);
    } finally {
      link.close();
      await dispatcher.close();
      await proxy.close();
    }
  });

  test('a request without a result after 120 s is re-sent at most 3 times', async () => {
    const dispatcher = new QueueDispatcher(redisUrl ?? '', t.ctx.jobs, clock);
    const link = new WorkerLink(dispatcher, clock, log, FAST);
    try {
      const jobId = await finalizationJob();
      link.request(jobId, 'conversation-c');
      await until(() => false, 'first send', 200).catch(() => undefined);
      // A first dispatch moves generation 0 to 1 (the workers' sweep then counts the job as sent).
      assert.equal(await generation(jobId), 1);
      for (let i = 0; i < 5; i++) {
        clock.advance(120_000);
        await link.tick();
      }
      assert.equal(await generation(jobId), 4);
      assert.equal(link.state, 'CONNECTED');
      assert.equal(link.buffered, 1);
    } finally {
      link.close();
      await dispatcher.close();
    }
  });
});
