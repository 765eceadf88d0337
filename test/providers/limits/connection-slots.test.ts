import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import pino from 'pino';
import { testConfig } from '../../../src/config.js';
import { createConnectionLimits, LocalConnectionSlots } from '../../../src/providers/limits/connection-slots.js';

const silent = pino({ level: 'silent' });
const LIMIT = 2;
const limits = (overrides: Partial<ReturnType<typeof testConfig>> = {}) =>
  testConfig({ ops: { ...testConfig().ops, maxListenSocketsPerUser: LIMIT }, ...overrides });

/** Polls `probe` until it holds (a lease lapsing is the event waited for), for at most `capMs`. */
async function eventually(probe: () => Promise<boolean>, capMs = 5_000): Promise<void> {
  const deadline = Date.now() + capMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('connection slots in one process', () => {
  test('a user holds at most the limit; releasing (once, however often called) frees one', async () => {
    const slots = new LocalConnectionSlots(LIMIT);
    const first = await slots.acquire('u');
    const second = await slots.acquire('u');
    assert.ok(first && second, 'first && second');
    assert.equal(await slots.acquire('u'), null);
    assert.ok(await slots.acquire('someone-else'), "await slots.acquire('someone-else')");
    first();
    first();
    assert.ok(await slots.acquire('u'), "await slots.acquire('u')");
    assert.equal(await slots.acquire('u'), null, 'a second call of the same release frees nothing more');
  });
});

describe('connection slots shared through Redis', {
  skip: process.env.TEST_REDIS_URL ? false : 'TEST_REDIS_URL is not set',
}, () => {
  const config = () => limits({ redisUrl: process.env.TEST_REDIS_URL ?? '' });

  test('two processes share one count per user', async () => {
    const [a, b] = [createConnectionLimits(config(), silent), createConnectionLimits(config(), silent)];
    try {
      const user = randomUUID();
      const onA = await a.listen.acquire(user);
      assert.ok(onA, 'onA');
      assert.ok(await b.listen.acquire(user), 'await b.listen.acquire(user)');
      assert.equal(await a.listen.acquire(user), null);
      assert.equal(await b.listen.acquire(user), null);
      assert.ok(await a.streams.acquire(user), 'notification streams are counted apart');
      onA();
      await eventually(async () => {
        const again = await b.listen.acquire(user);
        return again !== null;
      });
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('the slots of a process that died come free once their lease lapses; live leases are renewed', async () => {
    const leaseMs = 300;
    const dead = createConnectionLimits(config(), silent, leaseMs);
    const live = createConnectionLimits(config(), silent, leaseMs);
    const other = createConnectionLimits(config(), silent, leaseMs);
    try {
      const crashed = randomUUID();
      assert.ok(
        (await dead.listen.acquire(crashed)) && (await dead.listen.acquire(crashed)),
        '(await dead.listen.acquire(crashed)) && (await dead.listen.acquire(crashed))',
      );
      await dead.close(); // gone without releasing
      assert.equal(await other.listen.acquire(crashed), null);
      await eventually(async () => (await other.listen.acquire(crashed)) !== null);

      const held = randomUUID();
      assert.ok(
        (await live.listen.acquire(held)) && (await live.listen.acquire(held)),
        '(await live.listen.acquire(held)) && (await live.listen.acquire(held))',
      );
      const start = Date.now();
      while (Date.now() - start < leaseMs * 3) {
        assert.equal(await other.listen.acquire(held), null, 'a renewed lease stays held');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await live.close();
      await other.close();
    }
  });
});
