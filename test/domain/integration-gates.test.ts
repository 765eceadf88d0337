import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { ManualClock } from '../../src/context-types.js';
import { defineIntegrationPolicies, GATES, IntegrationGates } from '../../src/domain/apps/gates.js';
import type { RateLimiter } from '../../src/providers/limits/limiter.js';
import { appRow, FakeApps } from './fakes/apps.js';
import { memoryLimiter, unreachableLimiter } from './fakes/limiter.js';
import { refusal } from './refusal.js';

// SPEC §5, research/omi-rest.md §3.1: bearer (401) → key of this app (403) → rate limit (429) → app
// exists (404) → user enabled the app (403) → action selected (403).
const INTEGRATION = { capabilities: ['external_integration'], actions: ['create_conversation', 'read_memories'] };

function setUp(limiter: (clock: ManualClock) => RateLimiter = memoryLimiter) {
  const clock = new ManualClock();
  const apps = new FakeApps();
  const counters = limiter(clock);
  defineIntegrationPolicies(counters);
  apps.add(appRow('app', INTEGRATION));
  apps.grant('ada', 'app');
  const gates = new IntegrationGates(apps.port, counters, pino({ level: 'silent' }));
  return { clock, apps, gates };
}

describe('integration gates', () => {
  test('a request without a bearer is refused with 401', async () => {
    const { gates } = setUp();
    await assert.rejects(
      gates.checkKey('app', null, GATES.createConversation),
      refusal(401, "Missing or invalid Authorization header. Must be 'Bearer API_KEY'"),
    );
  });

  test("another app's key is refused with the route's own 403 text", async () => {
    const { apps, gates } = setUp();
    apps.add(appRow('other', INTEGRATION));
    await assert.rejects(
      gates.checkKey('app', 'sk_other', GATES.createConversation),
      refusal(403, 'Invalid integration API key'),
    );
    await assert.rejects(
      gates.checkKey('app', 'sk_other', GATES.readMemories),
      refusal(403, 'Invalid integrationAPI key'),
    );
  });

  test('an admitted request gets its app and the X-RateLimit headers of the route policy', async () => {
    const { gates } = setUp();
    const admission = await gates.admit('app', 'ada', GATES.createConversation);
    assert.equal(admission.app.id, 'app');
    assert.deepEqual(admission.headers, {
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '9',
      'x-ratelimit-reset': '3600',
    });
  });

  test('the eleventh conversation within the hour is refused with 429 and Retry-After', async () => {
    const { clock, gates } = setUp();
    for (let i = 0; i < 10; i++) await gates.admit('app', 'ada', GATES.createConversation);
    clock.advance(600_000);
    await assert.rejects(gates.admit('app', 'ada', GATES.createConversation), {
      statusCode: 429,
      message: 'Rate limit exceeded. Try again in 3000s.',
      headers: {
        'x-ratelimit-limit': '10',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': '3000',
        'retry-after': '3000',
      },
    });
  });

  test('the limit counts per app and user: another user of the same app is admitted', async () => {
    const { apps, gates } = setUp();
    apps.grant('bob', 'app');
    for (let i = 0; i < 10; i++) await gates.admit('app', 'ada', GATES.createConversation);
    assert.equal((await gates.admit('app', 'bob', GATES.createConversation)).app.id, 'app');
  });

  test('the limit is checked before the app is looked up', async () => {
    const { apps, gates } = setUp();
    for (let i = 0; i < 10; i++) await gates.admit('app', 'ada', GATES.createConversation);
    const lookups = apps.lookups;
    await assert.rejects(gates.admit('app', 'ada', GATES.createConversation), { statusCode: 429 });
    assert.equal(apps.lookups, lookups);
  });

  test('a deleted app is not found, though its keys still exist', async () => {
    const { apps, gates } = setUp();
    apps.add({ ...appRow('gone', INTEGRATION), deleted_at: 1 });
    apps.grant('ada', 'gone');
    await gates.checkKey('gone', 'sk_gone', GATES.createConversation);
    await assert.rejects(gates.admit('gone', 'ada', GATES.createConversation), refusal(404, 'App not found'));
  });

  test('a user who has not enabled the app is refused with 403', async () => {
    const { gates } = setUp();
    await assert.rejects(
      gates.admit('app', 'bob', GATES.createConversation),
      refusal(403, 'App is not enabled for this user'),
    );
  });

  test('an action the app did not select is refused with the gate text', async () => {
    const { gates } = setUp();
    await assert.rejects(
      gates.admit('app', 'ada', GATES.createMemories),
      refusal(403, 'App does not have the capability to create memories'),
    );
  });

  test('when the counters cannot be reached the request is admitted without headers (fails open)', async () => {
    const { gates } = setUp(() => unreachableLimiter());
    const admission = await gates.admit('app', 'ada', GATES.createConversation);
    assert.deepEqual([admission.app.id, admission.headers], ['app', {}]);
  });
});
