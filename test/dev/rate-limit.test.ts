import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { ConfigError, loadConfig, testConfig } from '../../src/config.js';
import { ManualClock } from '../../src/context-types.js';
import { AppError } from '../../src/errors.js';
import { MemoryCounterStore } from '../../src/providers/limits/counter-store.js';
import { boosted, createRateLimiter, DEFAULT_POLICIES, RateLimiter } from '../../src/providers/limits/limiter.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';

const silent = pino({ level: 'silent' });

describe('rate-limit policies and configuration', () => {
  test('RATE_LIMIT_BOOST multiplies every max, floored, never below 1; windows stay', () => {
    assert.equal(boosted(120, 2.5), 300);
    assert.equal(boosted(25, 0.5), 12);
    assert.equal(boosted(25, 0.001), 1);
    const limiter = new RateLimiter(new MemoryCounterStore(new ManualClock()), 2, {}, silent);
    assert.deepEqual(limiter.policy('dev:conversations_read'), {
      name: 'dev:conversations_read',
      max: 120,
      windowSeconds: 3600,
    });
  });

  test('the defaults are the reference hourly policies', () => {
    assert.deepEqual(DEFAULT_POLICIES['dev:memories_read'], { max: 120, windowSeconds: 3600 });
    assert.deepEqual(DEFAULT_POLICIES['dev:conversations_read'], { max: 60, windowSeconds: 3600 });
    assert.deepEqual(DEFAULT_POLICIES['dev:conversation_transcript_read'], { max: 25, windowSeconds: 3600 });
    assert.deepEqual(DEFAULT_POLICIES['dev:memories_batch'], { max: 15, windowSeconds: 3600 });
  });

  test('RATE_LIMITS overrides policies as policy=max/windowSeconds', () => {
    const config = loadConfig({ RATE_LIMITS: 'dev:memories_read=5/60, dev:goals_write=1/10' });
    assert.deepEqual(config.rateLimits, {
      'dev:memories_read': { max: 5, windowSeconds: 60 },
      'dev:goals_write': { max: 1, windowSeconds: 10 },
    });
    const limiter = new RateLimiter(new MemoryCounterStore(new ManualClock()), 1, config.rateLimits, silent);
    assert.deepEqual(limiter.policy('dev:memories_read'), { name: 'dev:memories_read', max: 5, windowSeconds: 60 });
  });

  test('a malformed RATE_LIMITS fails at start naming the variable', () => {
    for (const value of ['dev:memories_read=5', 'memories=5/60', 'dev:memories_read=0/60', 'dev:x=5/abc']) {
      assert.throws(
        () => loadConfig({ RATE_LIMITS: value }),
        (err: Error) => err instanceof ConfigError && /RATE_LIMITS/.test(err.message),
        value,
      );
    }
  });

  test('RATE_LIMITS names no policy carries are reported', () => {
    const limiter = new RateLimiter(
      new MemoryCounterStore(new ManualClock()),
      1,
      { 'dev:memory_read': { max: 1, windowSeconds: 1 } },
      silent,
    );
    assert.deepEqual(limiter.unknownOverrides(), ['dev:memory_read']);
  });

  test('the test config lifts the limits (other suites send many requests)', () => {
    assert.ok(testConfig().rateLimitBoost >= 1e6, 'testConfig().rateLimitBoost >= 1e6');
  });
});

for (const dialect of dialects()) {
  describe(`developer API rate limits (${dialect})`, () => {
    let t: TestApp;
    let clock: ManualClock;
    let ada: TestUser;

    before(async () => {
      clock = new ManualClock();
      t = await createTestApp(dialect, {
        clock,
        config: {
          rateLimitBoost: 1,
          rateLimits: {
            'dev:memories_read': { max: 3, windowSeconds: 60 },
            'dev:conversations_read': { max: 100, windowSeconds: 3600 },
            'dev:conversation_transcript_read': { max: 1, windowSeconds: 3600 },
          },
        },
      });
      ada = await createUser(t.ctx);
    });
    after(() => t.close());

    const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.auth });

    test('every response after authentication carries X-RateLimit-* headers, errors included', async () => {
      const user = await createUser(t.ctx);
      const cases: Array<[string, string, number]> = [
        ['GET', '/v1/dev/user/memories', 200],
        ['GET', '/v1/dev/user/memories?categories=nope', 400],
        ['PATCH', '/v1/dev/user/memories/unknown', 404],
        ['GET', '/v1/dev/user/conversations', 200],
        ['GET', '/v1/dev/user/conversations/unknown', 404],
        ['GET', '/v1/dev/user/action-items', 200],
        ['GET', '/v1/dev/user/goals/unknown', 404],
        ['GET', '/v1/dev/user/folders', 200],
        ['GET', '/v1/dev/key', 200],
      ];
      for (const [method, url, status] of cases) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: user.auth,
          payload: method === 'PATCH' ? { content: 'x' } : undefined,
        });
        assert.equal(res.statusCode, status, url);
        for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
          assert.match(String(res.headers[header]), /^\d+$/, `${header} on ${method} ${url}`);
        }
      }
    });

    test('the limit is counted per key: the max is allowed, the next request → 429 with Retry-After', async () => {
      const user = await createUser(t.ctx);
      const remaining = [];
      for (let i = 0; i < 3; i++) {
        const res = await get(user, '/v1/dev/user/memories');
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['x-ratelimit-limit'], '3');
        assert.equal(res.headers['x-ratelimit-reset'], '60');
        remaining.push(res.headers['x-ratelimit-remaining']);
      }
      assert.deepEqual(remaining, ['2', '1', '0']);
      clock.advance(12_000);
      const blocked = await get(user, '/v1/dev/user/memories');
      assert.equal(blocked.statusCode, 429);
      assert.deepEqual(blocked.json(), { detail: 'Rate limit exceeded (policy dev:memories_read). Try again in 48s.' });
      assert.equal(blocked.headers['retry-after'], '48');
      assert.equal(blocked.headers['x-ratelimit-remaining'], '0');
      assert.equal(blocked.headers['x-ratelimit-reset'], '48');
    });

    test('the window resets after its length', async () => {
      const user = await createUser(t.ctx);
      for (let i = 0; i < 3; i++) await get(user, '/v1/dev/user/memories');
      assert.equal((await get(user, '/v1/dev/user/memories')).statusCode, 429);
      clock.advance(60_000);
      const res = await get(user, '/v1/dev/user/memories');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-ratelimit-remaining'], '2');
    });

    test('another key, another policy and another user keep their own budgets', async () => {
      const user = await createUser(t.ctx);
      for (let i = 0; i < 4; i++) await get(user, '/v1/dev/user/memories');
      const secondKey = await t.ctx.keys.create(user.uid, 'second', null);
      const other = await t.app.inject({
        method: 'GET',
        url: '/v1/dev/user/memories',
        headers: { authorization: `Bearer ${secondKey.key}` },
      });
      assert.equal(other.statusCode, 200);
      assert.equal(
        (
          await t.app.inject({
            method: 'POST',
            url: '/v1/dev/user/memories',
            headers: user.auth,
            payload: { content: 'x' },
          })
        ).statusCode,
        200,
      );
      assert.equal((await get(ada, '/v1/dev/user/memories')).statusCode, 200);
    });

    test('include_transcript=true also draws on the transcript bucket', async () => {
      const user = await createUser(t.ctx);
      assert.equal((await get(user, '/v1/dev/user/conversations?include_transcript=true')).statusCode, 200);
      const blocked = await get(user, '/v1/dev/user/conversations?include_transcript=true');
      assert.equal(blocked.statusCode, 429);
      assert.match(
        blocked.json().detail,
        /^Rate limit exceeded \(policy dev:conversation_transcript_read\)\. Try again in \d+s\.$/,
      );
      assert.equal((await get(user, '/v1/dev/user/conversations')).statusCode, 200);
    });
  });
}

describe('rate-limit counters in Redis', {
  skip: process.env.TEST_REDIS_URL ? false : 'TEST_REDIS_URL is not set',
}, () => {
  const url = process.env.TEST_REDIS_URL ?? '';
  const config = (overrides = {}) =>
    testConfig({
      redisUrl: url,
      rateLimitBoost: 1,
      rateLimits: { 'dev:memories_read': { max: 3, windowSeconds: 30 } },
      ...overrides,
    });

  test('two limiter instances (two processes) share one window', async () => {
    const clock = new ManualClock();
    const first = createRateLimiter(config(), clock, silent);
    const second = createRateLimiter(config(), clock, silent);
    try {
      const subject = `dev:${randomUUID()}:key`;
      const allowed = [];
      for (const limiter of [first, second, first, second])
        allowed.push((await limiter.hit('dev:memories_read', subject)).allowed);
      assert.deepEqual(allowed, [true, true, true, false]);
      const last = await second.hit('dev:memories_read', subject);
      assert.equal(last.remaining, 0);
      assert.ok(last.resetSeconds >= 1 && last.resetSeconds <= 30, String(last.resetSeconds));
    } finally {
      await first.close();
      await second.close();
    }
  });

  test('an unreachable Redis fails closed with 503 Rate limiter unavailable', async () => {
    const limiter = createRateLimiter(config({ redisUrl: 'redis://127.0.0.1:1' }), new ManualClock(), silent);
    try {
      await assert.rejects(limiter.hit('dev:memories_read', 'dev:u:k'), (err: unknown) => {
        assert.ok(err instanceof AppError, 'err instanceof AppError');
        assert.equal(err.statusCode, 503);
        assert.equal(err.detail, 'Rate limiter unavailable');
        return true;
      });
    } finally {
      await limiter.close();
    }
  });
});
