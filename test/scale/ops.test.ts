import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { ListenClient, listenServer, listenUrl } from '../listen/support.js';

const redisUrl = process.env.TEST_REDIS_URL;

for (const dialect of dialects()) {
  describe(`readiness and metrics (${dialect})`, () => {
    let t: TestApp;
    let user: TestUser;
    before(async () => {
      t = await createTestApp(dialect);
      user = await createUser(t.ctx);
    });
    after(() => t.close());

    test('readyz answers 200 with the database checked and Redis and the queue not configured', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(response.statusCode, 200);
      const { speech, ...report } = response.json();
      assert.deepEqual(report, {
        status: 'ready',
        checks: { database: 'ok', redis: 'not_configured', queue: 'not_configured' },
      });
      assert.deepEqual(Object.keys(speech).sort(), ['provider', 'reason']);
    });

    test('readyz answers 503 draining once the node drains, while healthz stays 200', async () => {
      t.ctx.ops.state.draining = true;
      try {
        const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(ready.statusCode, 503);
        assert.equal(ready.json().status, 'draining');
        assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      } finally {
        t.ctx.ops.state.draining = false;
      }
    });

    test('metrics expose a latency histogram per route pattern, method and status class', async () => {
      const read = await t.app.inject({ method: 'GET', url: '/v1/dev/user/memories', headers: user.auth });
      assert.equal(read.statusCode, 200);
      const response = await t.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      const labels = ['route="/v1/dev/user/memories"', 'method="GET"', 'status_class="2xx"'];
      assert.match(response.body, /# TYPE keepsake_http_request_duration_seconds histogram/);
      // Label order carries no meaning in the exposition format; prom-client writes `le` first.
      const sample = (name: string, with_: string[]) =>
        response.body
          .split('\n')
          .find((line) => line.startsWith(`${name}{`) && with_.every((label) => line.includes(label)))
          ?.split(' ')[1];
      assert.equal(sample('keepsake_http_request_duration_seconds_bucket', [...labels, 'le="+Inf"']), '1');
      assert.equal(sample('keepsake_http_request_duration_seconds_count', labels), '1');
    });

    test('metrics report queued jobs by kind with the age of the oldest due one', async () => {
      const now = t.ctx.clock.now();
      await t.ctx.jobs.enqueue(
        {
          id: 'ops-job-1',
          kind: 'ops.test',
          userId: user.uid,
          payload: {},
          idempotencyKey: 'ops-test-1',
          maxAttempts: 1,
          runAt: now - 5_000,
        },
        now,
      );
      const body = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.match(body, /keepsake_jobs\{kind="ops\.test",status="queued"\} 1/);
      const age = /keepsake_jobs_oldest_queued_age_seconds\{kind="ops\.test"\} ([\d.]+)/.exec(body);
      assert.ok(age && Number(age[1]) >= 5, `age ${age?.[1]}`);
    });

    test('metrics report open listen sockets and webhook outcomes of the last hour', async () => {
      const body = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.match(body, /^keepsake_listen_open_sockets 0$/m);
      assert.match(body, /# TYPE keepsake_webhook_deliveries_last_hour gauge/);
      assert.match(body, /# TYPE keepsake_stt_provider_errors_total counter/);
    });

    test('metrics report the event-loop delay since the previous scrape', async () => {
      await t.app.inject({ method: 'GET', url: '/metrics' });
      // Block the loop for ~60 ms: the next scrape's maximum covers it.
      await new Promise((resolve) => setTimeout(resolve, 30));
      const until = Date.now() + 60;
      while (Date.now() < until) {
        // busy
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
      const body = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      const max = /^keepsake_event_loop_delay_seconds\{quantile="1"\} (\S+)$/m.exec(body);
      assert.ok(max, body);
      assert.ok(Number(max[1]) >= 0.04, `max delay ${max[1]}`);
      assert.match(body, /^keepsake_event_loop_delay_seconds\{quantile="0.99"\} \S+$/m);
    });
  });
}

describe('metrics token', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
    t.ctx.config.ops.metricsToken = 'scrape-secret-123';
  });
  after(() => t.close());

  test('metrics answer 401 without the token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 401);
    assert.deepEqual(response.json(), { detail: 'Invalid or missing metrics token' });
  });

  test('metrics answer 401 with a wrong token', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-secret-124' },
    });
    assert.equal(response.statusCode, 401);
  });

  test('metrics answer 200 with the token', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-secret-123' },
    });
    assert.equal(response.statusCode, 200);
  });
});

describe('readiness with Redis', () => {
  test('readyz answers 503 naming Redis when Redis cannot be reached', async () => {
    const t = await createTestApp('sqlite', { config: { redisUrl: 'redis://127.0.0.1:1' } });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(response.statusCode, 503);
      const { speech, ...report } = response.json();
      assert.deepEqual(report, {
        status: 'not_ready',
        checks: { database: 'ok', redis: 'error', queue: 'not_configured' },
      });
      assert.equal(typeof speech, 'object');
    } finally {
      await t.close();
    }
  });

  test('readyz checks Redis and the queue in queue dispatch mode', {
    skip: redisUrl ? false : 'TEST_REDIS_URL not set',
  }, async () => {
    const t = await createTestApp('sqlite', { config: { redisUrl: redisUrl ?? null, dispatchMode: 'queue' } });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json().checks, { database: 'ok', redis: 'ok', queue: 'ok' });
    } finally {
      await t.close();
    }
  });
});

describe('drain', () => {
  test('closing the server hands an open listen socket close code 1001 so the client reconnects elsewhere', async () => {
    const server = await listenServer('sqlite');
    const client = await ListenClient.connect(listenUrl(server.base, { custom_stt: 'enabled' }), server.user.session);
    await client.waitForEvent('conversation_session');
    await server.close();
    const closed = await client.waitForClose();
    assert.equal(closed.code, 1001);
  });
});
