import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { type FuzzRequest, type Operation, operationsOf, requestsFor } from '../helpers/openapi-fuzz.js';

/**
 * Every operation of the app's own OpenAPI document gets FUZZ_RUNS generated requests (default 200)
 * with valid credentials: none may answer 5xx or take longer than FUZZ_TIMEOUT_MS. FUZZ_SEED replays a
 * run (the seed is printed).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const TIMEOUT_MS = Number(process.env.FUZZ_TIMEOUT_MS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

const IN_FLIGHT = 4;

/** Runs `work` over `items` with at most `limit` pending at once; results in the items' order. */
async function inFlight<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

interface Outcome {
  status: number | 'hang';
  body: string;
}

/** Sends one request; streams (SSE) count by their status, and any answer must end within the timeout. */
async function send(t: TestApp, request: FuzzRequest, auth: string): Promise<Outcome> {
  const headers: Record<string, string> = { authorization: auth };
  if (request.contentType) headers['content-type'] = request.contentType;
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  const answer = (async (): Promise<Outcome> => {
    const res = await t.app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers,
      payload: request.payload,
      payloadAsStream: true,
      signal,
    });
    const stream = res.stream() as Readable;
    if (String(res.headers['content-type']).startsWith('text/event-stream')) {
      stream.destroy();
      return { status: res.statusCode, body: '' };
    }
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk));
    return { status: res.statusCode, body: Buffer.concat(chunks).toString('utf8').slice(0, 300) };
  })();
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'hang', body: '' }), TIMEOUT_MS + 1_000);
  });
  try {
    return await Promise.race([answer, hang]);
  } catch (err) {
    return { status: signal.aborted ? 'hang' : 599, body: String(err) };
  } finally {
    clearTimeout(timer);
  }
}

interface Seeded {
  known: Record<string, string>;
  appsKnown: Record<string, string>;
  appKey: string;
  secret: string;
}

/** Real ids and credentials, so generated requests reach handlers and not only 404s. */
async function seed(t: TestApp, ada: TestUser): Promise<Seeded> {
  const post = async (url: string, payload: object, headers = ada.auth) => {
    const res = await t.app.inject({ method: 'POST', url, headers, payload });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json();
  };
  const conversation = await post('/v1/dev/user/conversations/from-segments', {
    transcript_segments: [{ text: 'We agreed to ship the report on Friday.', start: 0, end: 3 }],
  });
  const memory = await post('/v1/dev/user/memories', { content: 'Ada likes tea' });
  const item = await post('/v1/dev/user/action-items', { description: 'Ship the report' });
  const folder = await post('/v1/dev/user/folders', { name: 'Work' });
  const goal = await post('/v1/dev/user/goals', { title: 'Read', target_value: 5 });
  const person = await post('/v1/people', { name: 'Bob' }, ada.session);
  const app = await t.ctx.integrations.apps.create(ada.uid, {
    name: 'Fuzz',
    capabilities: ['external_integration'],
    actions: ['create_conversation', 'create_memories', 'read_conversations', 'read_memories'],
  });
  await t.ctx.integrations.apps.enable(ada.uid, app.app_id);
  // Revoking and deleting hit these instead, so the credentials the other operations use keep working.
  const spareKey = await t.ctx.keys.create(ada.uid, 'spare', null);
  const spareApp = await t.ctx.integrations.apps.create(ada.uid, { name: 'Spare' });
  const spareAppKey = await t.ctx.integrations.apps.createKey(ada.uid, spareApp.app_id);
  return {
    known: {
      conversation_id: conversation.id,
      memory_id: memory.id,
      action_item_id: item.id,
      folder_id: folder.id,
      goal_id: goal.id,
      id: person.id,
      person_id: person.id,
      app_id: app.app_id,
      key_id: spareKey.id,
      uid: ada.uid,
    },
    // The app-management routes act on the spare app; the integration routes use the enabled one.
    appsKnown: { app_id: spareApp.app_id, key_id: spareAppKey.id },
    appKey: app.api_key,
    secret: app.app_secret,
  };
}

/** Which credential an operation takes: developer key, app key, app secret, or session token. */
function credentialFor(op: Operation, ada: TestUser, appKey: string, secret: string): string {
  if (op.path.endsWith('/notification')) return `Bearer ${secret}`;
  if (op.path.startsWith('/v2/integrations')) return `Bearer ${appKey}`;
  if (op.path.startsWith('/v1/dev/user') || op.path === '/v1/dev/key') return ada.auth.authorization;
  return ada.session.authorization;
}

for (const dialect of dialects()) {
  describe(`OpenAPI fuzz (${dialect})`, () => {
    let t: TestApp;
    let ada: TestUser;
    before(async () => {
      t = await createTestApp(dialect);
      ada = await createUser(t.ctx, { name: 'Ada' });
    });
    after(() => t.close());

    test(`every operation answers ${RUNS} generated requests without a 5xx or a hang`, async (context) => {
      const { known, appsKnown, appKey, secret } = await seed(t, ada);
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const operations = operationsOf(doc);
      assert.ok(operations.length > 50, `the document lists ${operations.length} operations`);
      const failures: string[] = [];
      let sent = 0;
      const statuses = new Map<string, number>();
      for (const [i, op] of operations.entries()) {
        const auth = credentialFor(op, ada, appKey, secret);
        const started = Date.now();
        const values = op.path.startsWith('/v1/apps/') ? { ...known, ...appsKnown } : known;
        const requests = fc.sample(requestsFor(op, values), { numRuns: RUNS, seed: SEED + i });
        // A few requests in flight at once (as clients send them): the database round trips overlap.
        const outcomes = await inFlight(requests, IN_FLIGHT, (request) => send(t, request, auth));
        for (const [j, outcome] of outcomes.entries()) {
          const request = requests[j];
          sent++;
          statuses.set(String(outcome.status), (statuses.get(String(outcome.status)) ?? 0) + 1);
          if (outcome.status === 'hang' || outcome.status >= 500) {
            const payload = request.payload === undefined ? '' : String(request.payload).slice(0, 200);
            failures.push(
              `${op.method} ${op.path}: ${outcome.status} for ${request.method} ${request.url.slice(0, 200)} ` +
                `[${request.contentType}] ${JSON.stringify(payload)} → ${outcome.body}`,
            );
          }
        }
        if (process.env.FUZZ_DEBUG) context.diagnostic(`${op.method} ${op.path}: ${Date.now() - started} ms`);
      }
      const counts = [...statuses].sort().map(([status, n]) => `${status}×${n}`);
      context.diagnostic(
        `seed ${SEED}: ${sent} requests, ${operations.length} operations, answers ${counts.join(' ')}`,
      );
      assert.deepEqual(failures.slice(0, 20), [], `${failures.length} of ${sent} requests failed (FUZZ_SEED=${SEED})`);
    });
  });
}
