import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { FakeAppServer } from '../helpers/fake-app-server.js';
import { deliveries, drainWebhooks, enabledApp, type TestAppRecord } from './fixtures.js';

const MEETING =
  'Tomorrow I need to send the quarterly budget report to Maria before the finance review. ' +
  'We agreed to cut travel costs by ten percent and I will book the meeting room for Thursday.';

const BATCH = [
  {
    text: 'Remind me to water the tomatoes tonight.',
    speaker: 'SPEAKER_00',
    speaker_id: 0,
    is_user: true,
    start: 0,
    end: 2.5,
  },
  { text: 'Sure, and the basil too.', speaker: 'SPEAKER_01', speaker_id: 1, is_user: false, start: 2.5, end: 4 },
];

for (const dialect of dialects()) {
  describe(`webhooks (${dialect})`, () => {
    let t: TestApp;
    let clock: ManualClock;
    let fake: FakeAppServer;
    let user: TestUser;

    before(async () => {
      fake = await FakeAppServer.start();
      clock = new ManualClock(Date.now());
      t = await createTestApp(dialect, { clock, config: { allowPrivateWebhooks: true, webhookTimeoutMs: 300 } });
      user = await createUser(t.ctx, { name: 'Ada' });
    });
    after(async () => {
      await t.close();
      await fake.close();
    });

    /** An app enabled by `who` whose webhook is `<fake>/<path>`; the fake verifies its signatures. */
    const hookApp = async (path: string, triggersOn: string, who: TestUser = user): Promise<TestAppRecord> => {
      const app = await enabledApp(t, who, { triggers_on: triggersOn, webhook_url: `${fake.url}${path}` });
      fake.verifyWith(path, app.secret);
      return app;
    };
    const drainAll = async () => {
      while ((await t.ctx.runner.drain()) + (await drainWebhooks(t)) > 0);
    };

    test('memory_creation: a developer-API create sends the conversation JSON, signed, with ?uid=', async () => {
      const app = await hookApp('/memories-dev', 'memory_creation');
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/dev/user/conversations',
        headers: user.auth,
        payload: { text: MEETING },
      });
      const { id } = created.json();
      await drainAll();
      const [call] = await fake.waitFor(1, '/memories-dev');
      assert.equal(call.query.get('uid'), user.uid);
      const body = call.json as { id: string; structured: { title: string }; transcript_segments: unknown[] };
      assert.equal(body.id, id);
      assert.notEqual(body.structured.title, '');
      assert.ok(Array.isArray(body.transcript_segments), 'Array.isArray(body.transcript_segments)');
      assert.equal(call.signatureValid, true);
      assert.equal(call.headers['x-keepsake-event'], 'memory_creation');
      assert.match(String(call.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
      const [row] = (await deliveries(t, user.uid)).filter((d) => d.app_id === app.appId);
      assert.deepEqual([row.status, row.attempts, row.last_status_code, row.body], ['delivered', 1, 200, null]);
    });

    test('memory_creation: an integration create fires it too, once per conversation', async () => {
      const app = await hookApp('/memories-int', 'memory_creation');
      await t.app.inject({
        method: 'POST',
        url: `/v2/integrations/${app.appId}/user/conversations?uid=${user.uid}`,
        headers: app.bearer,
        payload: { text: MEETING },
      });
      await drainAll();
      await drainAll();
      const calls = await fake.waitFor(1, '/memories-int');
      assert.equal(calls.length, 1);
      assert.equal((calls[0].json as { source: string }).source, 'external_integration');
    });

    test('memory_creation: a discarded conversation sends nothing', async () => {
      await hookApp('/memories-discard', 'memory_creation');
      await t.ctx.conversations.createFromText(user.uid, { text: 'um uh hmm' });
      await drainAll();
      assert.equal(fake.callsTo('/memories-discard').length, 0);
    });

    test('memory_creation: apps of other users, or not enabled, are not called', async () => {
      const bob = await createUser(t.ctx, { name: 'Bob' });
      await hookApp('/memories-bob', 'memory_creation', bob);
      await t.ctx.conversations.createFromText(user.uid, { text: MEETING });
      await drainAll();
      assert.equal(fake.callsTo('/memories-bob').length, 0);
    });

    test('transcript_processed: each batch is POSTed with ?session_id=&uid= and {session_id, segments}', async () => {
      await hookApp('/live', 'transcript_processed');
      await t.ctx.integrations.webhooks.onTranscriptBatch(user.uid, 'session-1', BATCH);
      await drainAll();
      const [call] = await fake.waitFor(1, '/live');
      assert.equal(call.query.get('session_id'), 'session-1');
      assert.equal(call.query.get('uid'), user.uid);
      const body = call.json as {
        session_id: string;
        segments: Array<{ text: string; speaker: string; is_user: boolean }>;
      };
      assert.equal(body.session_id, 'session-1');
      assert.deepEqual(
        body.segments.map((s) => [s.text, s.speaker, s.is_user]),
        BATCH.map((s) => [s.text, s.speaker, s.is_user]),
      );
      assert.equal(call.signatureValid, true);
    });

    test('transcript_processed: a webhook URL with its own query keeps it', async () => {
      const app = await enabledApp(t, user, {
        triggers_on: 'transcript_processed',
        webhook_url: `${fake.url}/keyed?key=abc`,
      });
      await t.ctx.integrations.webhooks.onTranscriptBatch(user.uid, 'session-2', BATCH);
      await drainAll();
      const [call] = await fake.waitFor(1, '/keyed');
      assert.deepEqual([call.query.get('key'), call.query.get('uid')], ['abc', user.uid]);
      await t.ctx.integrations.apps.disable(user.uid, app.appId);
    });

    test('a failing app is retried with exponential backoff, then dead-lettered after the last attempt', async () => {
      const fresh = await createUser(t.ctx);
      await hookApp('/failing', 'transcript_processed', fresh);
      fake.on('/failing', { status: 500, json: { error: 'boom' } });
      await t.ctx.integrations.webhooks.onTranscriptBatch(fresh.uid, 'session-f', BATCH);
      await drainAll();
      const gaps: number[] = [];
      for (let attempt = 2; attempt <= 8; attempt++) {
        const job = await t.ctx.store.db
          .selectFrom('jobs')
          .selectAll()
          .where('user_id', '=', fresh.uid)
          .where('kind', '=', 'webhook.deliver')
          .executeTakeFirstOrThrow();
        gaps.push(Number(job.run_at) - clock.now());
        clock.set(Number(job.run_at));
        await drainAll();
      }
      assert.deepEqual(gaps, [1000, 1000, 2000, 4000, 8000, 16000, 32000]);
      const [row] = await deliveries(t, fresh.uid);
      assert.deepEqual(
        [row.status, row.attempts, row.last_status_code, row.last_error],
        ['dead_letter', 8, 500, 'HTTP 500'],
      );
      const calls = fake.callsTo('/failing');
      assert.equal(calls.length, 8);
      assert.equal(
        new Set(calls.map((c) => c.headers['idempotency-key'])).size,
        1,
        'the same Idempotency-Key on every attempt',
      );
      assert.ok(
        calls.every((c) => c.signatureValid === true),
        'calls.every((c) => c.signatureValid === true)',
      );
      const job = await t.ctx.store.db
        .selectFrom('jobs')
        .selectAll()
        .where('user_id', '=', fresh.uid)
        .where('kind', '=', 'webhook.deliver')
        .executeTakeFirstOrThrow();
      assert.equal(job.status, 'dead_letter');
    });

    test('a stalled app times out and the attempt is recorded', async () => {
      const fresh = await createUser(t.ctx);
      await hookApp('/stalled', 'transcript_processed', fresh);
      fake.on('/stalled', 'stall');
      await t.ctx.integrations.webhooks.onTranscriptBatch(fresh.uid, 'session-s', BATCH);
      const started = Date.now();
      await drainAll();
      assert.ok(Date.now() - started < 3000, 'the timeout (300 ms in this test) bounds the attempt');
      const [row] = await deliveries(t, fresh.uid);
      assert.equal(row.status, 'pending');
      assert.equal(row.attempts, 1);
      assert.match(String(row.last_error), /^WebhookTimeoutError/);
    });

    test('an app that recovers is delivered on the next attempt', async () => {
      const fresh = await createUser(t.ctx);
      await hookApp('/flaky', 'transcript_processed', fresh);
      let calls = 0;
      fake.on('/flaky', () => (++calls === 1 ? { status: 503 } : { status: 200, json: { session_id: 'x' } }));
      await t.ctx.integrations.webhooks.onTranscriptBatch(fresh.uid, 'session-r', BATCH);
      await drainAll();
      clock.advance(1000);
      await drainAll();
      const [row] = await deliveries(t, fresh.uid);
      assert.deepEqual([row.status, row.attempts, row.last_status_code], ['delivered', 2, 200]);
    });

    test('disabling the app skips its pending deliveries', async () => {
      const fresh = await createUser(t.ctx);
      const app = await hookApp('/disabled', 'transcript_processed', fresh);
      await t.ctx.integrations.webhooks.onTranscriptBatch(fresh.uid, 'session-d', BATCH);
      await t.ctx.integrations.apps.disable(fresh.uid, app.appId);
      await drainAll();
      assert.equal(fake.callsTo('/disabled').length, 0);
      const [row] = await deliveries(t, fresh.uid);
      assert.deepEqual([row.status, row.outcome], ['skipped', 'app_disabled']);
    });

    test('a batch without webhook apps writes nothing', async () => {
      const fresh = await createUser(t.ctx);
      await t.ctx.integrations.webhooks.onTranscriptBatch(fresh.uid, 'session-n', BATCH);
      assert.equal((await deliveries(t, fresh.uid)).length, 0);
    });
  });

  describe(`webhook isolation (${dialect})`, () => {
    let t: TestApp;
    let fake: FakeAppServer;

    before(async () => {
      fake = await FakeAppServer.start();
      t = await createTestApp(dialect, {
        config: { allowPrivateWebhooks: true, webhookTimeoutMs: 5000 },
        runJobs: true,
      });
    });
    after(async () => {
      await t.close();
      await fake.close();
    });

    test('a stalled app does not delay another app or the caller', async () => {
      const user = await createUser(t.ctx);
      await enabledApp(t, user, { triggers_on: 'transcript_processed', webhook_url: `${fake.url}/slow` });
      await enabledApp(t, user, { triggers_on: 'transcript_processed', webhook_url: `${fake.url}/fast` });
      fake.on('/slow', 'stall');
      const started = Date.now();
      for (let i = 0; i < 12; i++) await t.ctx.integrations.webhooks.onTranscriptBatch(user.uid, `session-${i}`, BATCH);
      const queued = Date.now() - started;
      await fake.waitFor(12, '/fast', 3000);
      assert.ok(Date.now() - started < 3000, 'every fast delivery arrived while the slow app was still stalling');
      assert.ok(queued < 1000, `queueing 12 batches took ${queued} ms`);
      assert.ok(fake.callsTo('/slow').length >= 1, "fake.callsTo('/slow').length >= 1");
    });
  });

  describe(`webhook SSRF guard (${dialect})`, () => {
    let t: TestApp;
    let fake: FakeAppServer;
    const PUBLIC = 'https://hooks.example.com/x';
    // A save refuses private targets now; these stand for apps stored while ALLOW_PRIVATE_WEBHOOKS was on.
    const storedWithTarget = async (app: { appId: string }, url: string) => {
      await t.ctx.store.db.updateTable('apps').set({ webhook_url: url }).where('id', '=', app.appId).execute();
    };

    before(async () => {
      fake = await FakeAppServer.start();
      t = await createTestApp(dialect, { config: { allowPrivateWebhooks: false } });
    });
    after(async () => {
      await t.close();
      await fake.close();
    });

    test('a loopback target is refused and dead-lettered unless ALLOW_PRIVATE_WEBHOOKS=true', async () => {
      const user = await createUser(t.ctx);
      await storedWithTarget(
        await enabledApp(t, user, { triggers_on: 'transcript_processed', webhook_url: PUBLIC }),
        `${fake.url}/private`,
      );
      await t.ctx.integrations.webhooks.onTranscriptBatch(user.uid, 'session-p', BATCH);
      while ((await drainWebhooks(t)) > 0);
      assert.equal(fake.callsTo('/private').length, 0);
      const [row] = await deliveries(t, user.uid);
      assert.equal(row.status, 'dead_letter');
      assert.match(String(row.last_error), /^refused private target/);
    });

    test('a name that resolves to loopback is refused too', async () => {
      const user = await createUser(t.ctx);
      const port = new URL(fake.url).port;
      const app = await enabledApp(t, user, { triggers_on: 'transcript_processed', webhook_url: PUBLIC });
      await storedWithTarget(app, `http://localhost:${port}/named`);
      await t.ctx.integrations.webhooks.onTranscriptBatch(user.uid, 'session-q', BATCH);
      while ((await drainWebhooks(t)) > 0);
      assert.equal(fake.callsTo('/named').length, 0);
      const [row] = await deliveries(t, user.uid);
      assert.equal(row.status, 'dead_letter');
    });
  });
}
