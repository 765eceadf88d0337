import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { FakeAppServer } from '../helpers/fake-app-server.js';
import { FakeOpenAi } from '../helpers/fake-openai.js';
import { ListenClient, listenUrl, segment, suggest } from '../listen/support.js';
import { Cluster, exitOf, type Node, sleep, stopNode, waitUntil } from './cluster.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const skip = databaseUrl && redisUrl ? false : 'TEST_DATABASE_URL and TEST_REDIS_URL not set';

/** The pid inside a lease owner (`host:pid:random:runner`). */
const pidOf = (leaseOwner: string | null) => Number(leaseOwner?.split(':')[1]);

describe('scale-out: 2 serve and 2 worker processes on one PostgreSQL and Redis', { skip }, () => {
  let cluster: Cluster;
  let node1: Node;
  let node2: Node;
  let workers: Node[];
  let fake: FakeAppServer;
  let llm: FakeOpenAi;

  before(async () => {
    fake = await FakeAppServer.start();
    llm = await FakeOpenAi.start();
    cluster = await Cluster.create(databaseUrl ?? '', redisUrl ?? '', 11, {
      // Short timers so silence, leases and reconciliation happen within the test (docs/deployment.md).
      LISTEN_LIFECYCLE_CHECK_SECONDS: '1',
      LISTEN_MIN_CONVERSATION_TIMEOUT_SECONDS: '1',
      LISTEN_FINALIZATION_LEASE_SECONDS: '2',
      LISTEN_SWEEP_INTERVAL_SECONDS: '2',
      ALLOW_PRIVATE_WEBHOOKS: 'true',
      LLM_BASE_URL: llm.baseUrl,
      LLM_API_KEY: 'llm-test-key',
      LLM_MODEL: 'tiny-model',
    });
    node1 = await cluster.serve({ SHUTDOWN_DELAY_SECONDS: '2' });
    node2 = await cluster.serve();
    workers = [await cluster.worker(), await cluster.worker()];
  });
  after(async () => {
    await cluster?.stop();
    await fake?.close();
    await llm?.close();
  });

  const wsBase = (node: Node) => node.url.replace('http://', 'ws://');
  const session = () => ({ authorization: `Bearer ${cluster.owner.token}` });

  /** Opens a stream on `node` (client transcripts, 1 s silence) and sends one segment. */
  async function streamOne(node: Node, text: string, query: Record<string, string> = {}) {
    const url = listenUrl(wsBase(node), { custom_stt: 'enabled', conversation_timeout: 1, ...query });
    const client = await ListenClient.connect(url, session());
    const [bound] = await client.waitForEvent('conversation_session', 1, 10_000);
    client.send(suggest(segment(text, 0, 3)));
    await client.waitFor(() => client.transcripts().length > 0, 10_000, 'transcript');
    return { client, conversationId: String(bound.conversation_id) };
  }

  const eventsFor = (client: ListenClient, type: string, conversationId: string) =>
    client.events(type).filter((e) => e.conversation_id === conversationId);
  /** Waits for at least one such event (null keeps `waitFor` waiting; an empty array would not). */
  const waitEvent = (client: ListenClient, type: string, conversationId: string, timeoutMs: number) =>
    client.waitFor(
      () => {
        const found = eventsFor(client, type, conversationId);
        return found.length > 0 ? found : null;
      },
      timeoutMs,
      `${type} of ${conversationId}`,
    );

  const finalizeJob = async (conversationId: string) => {
    const rows = await cluster.query<{ id: string; status: string; attempts: number; lease_owner: string | null }>(
      'select id, status, attempts, lease_owner from jobs where idempotency_key like $1',
      [`listen-finalization:${cluster.owner.uid}:${conversationId}:%`],
    );
    return rows[0];
  };

  test('readiness reports database, Redis and queue on every API node', async () => {
    for (const node of [node1, node2]) {
      const response = await fetch(`${node.url}/readyz`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), {
        status: 'ready',
        checks: { database: 'ok', redis: 'ok', queue: 'ok' },
        // The cluster runs with STT_PROVIDER=none: informational, the node is still ready.
        speech: { provider: null, reason: 'stt_disabled' },
      });
    }
  });

  test('a stream on node 1 receives the lifecycle events of finalization run by a worker', async () => {
    const { client, conversationId } = await streamOne(node1, 'Remind me to water the plants on Sunday morning.');
    await waitEvent(client, 'memory_processing_started', conversationId, 15_000);
    const [created] = await waitEvent(client, 'memory_created', conversationId, 20_000);
    assert.equal(created.lifecycle_phase, 'completed');
    // The event is published inside the job, just before the job row is marked completed.
    await waitUntil(
      async () => (await finalizeJob(conversationId)).status === 'completed',
      5_000,
      () => 'not done',
    );
    const job = await finalizeJob(conversationId);
    assert.ok(
      workers.some((w) => w.pid === pidOf(job.lease_owner)),
      `job ran in ${job.lease_owner}, not a worker`,
    );
    await client.close();
  });

  test('memory_processing_started from a worker sweep reaches the socket on node 1 over Redis', async () => {
    const clientId = randomUUID();
    const { client, conversationId } = await streamOne(node1, 'Pick up the dry cleaning on Friday evening.', {
      client_conversation_id: clientId,
      conversation_timeout: '600',
    });
    // As if node 1 had stalled: its lease on the recording session lapses while the socket stays
    // open, so a worker's recovery sweep (not this socket) hands the conversation to processing.
    await cluster.query('update recording_sessions set lease_expires_at = 0 where id = $1', [clientId]);
    const [started] = await waitEvent(client, 'memory_processing_started', conversationId, 20_000);
    assert.equal(started.recording_session_id, clientId);
    assert.equal(started.lifecycle_phase, 'processing');
    const [created] = await waitEvent(client, 'memory_created', conversationId, 20_000);
    assert.equal(created.recording_session_id, clientId);
    assert.equal(eventsFor(client, 'memory_processing_started', conversationId).length, 1);
    const job = await finalizeJob(conversationId);
    assert.ok(
      workers.some((w) => w.pid === pidOf(job.lease_owner)),
      `job ran in ${job.lease_owner}`,
    );
    await client.close();
  });

  test('conversation processing requested on node 2 runs on a worker and the request waits for it', async () => {
    const response = await fetch(`${node2.url}/v1/dev/user/conversations/from-segments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cluster.owner.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        transcript_segments: [
          { text: 'I need to renew my passport before the trip to Lisbon in May.', start: 0, end: 4 },
        ],
      }),
    });
    assert.equal(response.status, 200);
    const created = (await response.json()) as { id: string; status: string };
    assert.equal(created.status, 'completed');
    // The answer waits for the process job; the extract job it queued is claimed by a worker soon after.
    const jobsOf = () =>
      cluster.query<{ kind: string; status: string; lease_owner: string | null }>(
        "select kind, status, lease_owner from jobs where payload like '%' || $1 || '%'",
        [created.id],
      );
    let rows = await jobsOf();
    for (const deadline = Date.now() + 120_000; rows.some((row) => row.lease_owner === null); ) {
      assert.ok(Date.now() < deadline, `jobs still unclaimed: ${JSON.stringify(rows)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await jobsOf();
    }
    assert.ok(rows.length > 0, 'rows.length > 0');
    for (const row of rows)
      assert.ok(
        workers.some((w) => w.pid === pidOf(row.lease_owner)),
        JSON.stringify(row),
      );
  });

  test('a worker killed mid-lease: another worker finishes the job and the fanout happens once', async () => {
    // Hold the fanout table so the worker that claims the job stalls inside its lease, as a hung worker would.
    const lock = new pg.Client({ connectionString: cluster.databaseUrl });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE finalization_fanouts IN EXCLUSIVE MODE');
    const { client, conversationId } = await streamOne(node1, 'Book the car service for Tuesday afternoon.');
    await waitUntil(
      async () => {
        const [row] = await cluster.query<{ n: number }>(
          "select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'finalization_fanouts' and not l.granted",
        );
        return row.n > 0 && (await finalizeJob(conversationId))?.status === 'leased';
      },
      20_000,
      () => 'no worker reached the fanout',
    );
    const holder = pidOf((await finalizeJob(conversationId)).lease_owner);
    const victim = workers.find((w) => w.pid === holder);
    assert.ok(victim, 'the lease holder is a worker');
    await stopNode(victim, 'SIGKILL');
    await lock.query('ROLLBACK');
    await lock.end();

    await waitEvent(client, 'memory_created', conversationId, 30_000);
    await sleep(1_500);
    assert.equal(eventsFor(client, 'memory_created', conversationId).length, 1);
    const fanouts = await cluster.query<{ status: string }>(
      'select status from finalization_fanouts where conversation_id = $1',
      [conversationId],
    );
    assert.deepEqual(
      fanouts.map((f) => f.status),
      ['completed'],
    );
    const job = await finalizeJob(conversationId);
    assert.equal(job.status, 'completed');
    assert.ok(job.attempts >= 2, `attempts ${job.attempts}`);
    assert.notEqual(pidOf(job.lease_owner), victim.pid);
    await client.close();
    workers = [...workers.filter((w) => w !== victim), await cluster.worker()];
  });

  test('the hourly notification limit holds across nodes and node 1 streams each notification once', async () => {
    const app = cluster.admin(['app', 'create', '--name', 'Nudge', '--owner', cluster.owner.uid]);
    cluster.admin(['app', 'enable', '--uid', cluster.owner.uid, '--app', String(app.app_id)]);
    const stream = await openNotificationStream(node1, cluster.owner.token);
    const send = (node: Node, i: number) =>
      fetch(`${node.url}/v2/integrations/${app.app_id}/notification?uid=${cluster.owner.uid}&message=note-${i}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.app_secret}` },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await send(i < 5 ? node1 : node2, i)).status);
    assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
    await waitUntil(
      async () => stream.ids().length >= 10,
      10_000,
      () => `stream got ${stream.ids().length}`,
    );
    await sleep(1_000);
    assert.equal(stream.ids().length, 10);
    assert.equal(new Set(stream.ids()).size, 10);
    stream.close();
  });

  test('the 30 s proactive cooldown holds across nodes and workers', async () => {
    fake.on('/proactive', {
      status: 200,
      json: { session_id: 's', notification: { prompt: 'Nudge {{user_name}}.', params: ['user_name'] } },
    });
    const app = cluster.admin([
      ...['app', 'create', '--name', 'Coach', '--owner', cluster.owner.uid],
      ...['--capabilities', 'external_integration,proactive_notification', '--triggers-on', 'transcript_processed'],
      ...['--webhook-url', `${fake.url}/proactive`, '--scopes', 'user_name'],
    ]);
    cluster.admin(['app', 'enable', '--uid', cluster.owner.uid, '--app', String(app.app_id)]);
    const first = await streamOne(node1, 'I keep forgetting to drink water at work.');
    const second = await streamOne(node2, 'I really should drink more water today.');
    await fake.waitFor(2, '/proactive', 20_000);
    await sleep(3_000);
    const sent = await cluster.query<{ n: number }>('select count(*)::int as n from notifications where app_id = $1', [
      app.app_id,
    ]);
    assert.equal(sent[0].n, 1);
    // Only the proactive prompt counts: with LLM_BASE_URL set, conversation processing asks the model too.
    const nudges = llm.requests.filter((r) => r.messages.some((m) => m.content.includes('Nudge Owner')));
    assert.equal(nudges.length, 1);
    await first.client.close();
    await second.client.close();
  });

  test('no job of any kind ran on an API node', async () => {
    const rows = await cluster.query<{ kind: string; lease_owner: string }>(
      'select kind, lease_owner from jobs where lease_owner is not null',
    );
    const kinds = new Set(rows.map((r) => r.kind));
    // Finalization, processing, extraction and the webhook outbox all went through BullMQ to workers.
    for (const kind of ['listen.finalize', 'conversation.process', 'conversation.extract', 'webhook.fanout'])
      assert.ok(kinds.has(kind), `no ${kind} job in ${[...kinds].join(', ')}`);
    const apiPids = new Set([node1.pid, node2.pid]);
    assert.deepEqual(
      rows.filter((r) => apiPids.has(pidOf(r.lease_owner))),
      [],
    );
  });

  test('SIGTERM drains node 1: readiness turns 503, the socket closes 1001 and resumes on node 2', async () => {
    const clientId = randomUUID();
    const { client, conversationId } = await streamOne(node1, 'Call the plumber about the kitchen sink.', {
      client_conversation_id: clientId,
      conversation_timeout: '600',
    });
    node1.child.kill('SIGTERM');
    await waitUntil(
      async () =>
        (await fetch(`${node1.url}/readyz`).then(
          (r) => r.status,
          () => 0,
        )) === 503,
      2_000,
      () => 'readiness did not turn 503 while draining',
    );
    const closed = await client.waitForClose(15_000);
    assert.equal(closed.code, 1001);
    assert.equal(await exitOf(node1), 0);

    const url = listenUrl(wsBase(node2), {
      custom_stt: 'enabled',
      conversation_timeout: 600,
      client_conversation_id: clientId,
    });
    const resumed = await ListenClient.connect(url, session());
    const [bound] = await resumed.waitForEvent('conversation_session', 1, 10_000);
    assert.equal(bound.conversation_id, conversationId);
    await resumed.close();
  });
});

/** An SSE reader of `/v1/notifications/stream`; resolves once the server announced the stream. */
async function openNotificationStream(node: Node, token: string) {
  const abort = new AbortController();
  const response = await fetch(`${node.url}/v1/notifications/stream?token=${encodeURIComponent(token)}`, {
    signal: abort.signal,
  });
  assert.equal(response.status, 200);
  const body = response.body;
  assert.ok(body, 'body');
  let text = '';
  const reader = body.getReader();
  void (async () => {
    const decoder = new TextDecoder();
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) return;
      text += decoder.decode(chunk.value, { stream: true });
    }
  })();
  await waitUntil(
    async () => text.includes(': connected'),
    5_000,
    () => 'stream not announced',
  );
  return {
    ids: () => [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]),
    close: () => abort.abort(),
  };
}
