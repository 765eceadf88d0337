import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { invalid } from '../helpers/validation.js';
import { enabledApp, type TestAppRecord } from './fixtures.js';

const NOTE =
  'Tomorrow I need to send the quarterly budget report to Maria before the finance review. ' +
  'We agreed to cut travel costs by ten percent and I will book the meeting room for Thursday.';

const FACTS = 'I am a vegetarian. I live in Lisbon with my partner. I work as a nurse at the city hospital.';

for (const dialect of dialects()) {
  describe(`integration imports (${dialect})`, () => {
    let t: TestApp;
    let user: TestUser;
    let app: TestAppRecord;

    before(async () => {
      t = await createTestApp(dialect);
      user = await createUser(t.ctx, { name: 'Ada' });
      app = await enabledApp(t, user);
    });
    after(() => t.close());

    const post = (path: string, payload: object, uid = user.uid) =>
      t.app.inject({
        method: 'POST',
        url: `/v2/integrations/${app.appId}/${path}?uid=${uid}`,
        headers: app.bearer,
        payload,
      });
    const conversationsOf = (uid: string) =>
      t.ctx.store.db.selectFrom('conversations').selectAll().where('user_id', '=', uid).orderBy('created_at').execute();
    const memoriesOf = (uid: string) =>
      t.ctx.store.db.selectFrom('memories').selectAll().where('user_id', '=', uid).orderBy('created_at').execute();

    test('create conversation answers {} after a durable write, before processing', async () => {
      const fresh = await createUser(t.ctx);
      await t.ctx.integrations.apps.enable(fresh.uid, app.appId);
      const res = await post('user/conversations', { text: NOTE }, fresh.uid);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {});
      const [stored] = await conversationsOf(fresh.uid);
      assert.equal(stored.status, 'processing');
      const job = await t.ctx.store.db
        .selectFrom('jobs')
        .selectAll()
        .where('user_id', '=', fresh.uid)
        .executeTakeFirstOrThrow();
      assert.equal(job.kind, 'conversation.process');
      assert.ok(!job.payload.includes('budget'), 'the job payload carries ids only (SPEC §3.2)');
    });

    test('the queued conversation completes in the background with the integration defaults', async () => {
      const fresh = await createUser(t.ctx);
      await t.ctx.integrations.apps.enable(fresh.uid, app.appId);
      await post('user/conversations', { text: NOTE }, fresh.uid);
      await t.ctx.runner.drain();
      const [stored] = await conversationsOf(fresh.uid);
      assert.equal(stored.status, 'completed');
      assert.equal(stored.source, 'external_integration');
      assert.equal(stored.app_id, app.appId);
      assert.equal(stored.text_source, 'audio_transcript');
      assert.equal(stored.language, 'en');
      assert.equal(Number(stored.finished_at) - Number(stored.started_at), 300_000);
      assert.notEqual(stored.title, '');
    });

    test('source and app_id in the body are ignored', async () => {
      const fresh = await createUser(t.ctx);
      await t.ctx.integrations.apps.enable(fresh.uid, app.appId);
      await post(
        'user/conversations',
        { text: NOTE, source: 'omi', app_id: 'someone-else', text_source: 'message' },
        fresh.uid,
      );
      const [stored] = await conversationsOf(fresh.uid);
      assert.deepEqual(
        [stored.source, stored.app_id, stored.text_source],
        ['external_integration', app.appId, 'message'],
      );
    });

    test('whitespace-only text → 422 text cannot be empty', async () => {
      const res = await post('user/conversations', { text: '   ' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), invalid(['body', 'text'], 'text cannot be empty'));
    });

    test('a missing text → 422 FastAPI-style naming body.text', async () => {
      const res = await post('user/conversations', { language: 'en' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().detail[0].loc, ['body', 'text']);
    });

    test('explicit memories are saved at once with their tags, origin app and the app id', async () => {
      const fresh = await createUser(t.ctx);
      await t.ctx.integrations.apps.enable(fresh.uid, app.appId);
      const res = await post(
        'user/memories',
        {
          memories: [
            // Tags are trimmed, blank ones dropped and duplicates removed, as in the developer API.
            { content: ' Likes green tea ', tags: ['drinks', ' drinks ', '', '  '] },
            { content: 'Runs on Sundays' },
          ],
        },
        fresh.uid,
      );
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {});
      const stored = await memoriesOf(fresh.uid);
      assert.deepEqual(
        stored.map((m) => [m.content, JSON.parse(m.tags), m.origin, m.app_id, m.category, m.manually_added]),
        [
          ['Likes green tea', ['drinks'], 'app', app.appId, 'system', 0],
          ['Runs on Sundays', [], 'app', app.appId, 'system', 0],
        ],
      );
    });

    test('text is kept with a durable job that extracts memories from it', async () => {
      const fresh = await createUser(t.ctx, { name: 'Ines' });
      await t.ctx.integrations.apps.enable(fresh.uid, app.appId);
      const res = await post('user/memories', { text: FACTS, text_source: 'email' }, fresh.uid);
      assert.equal(res.statusCode, 200);
      assert.equal((await memoriesOf(fresh.uid)).length, 0, 'nothing extracted before the job runs');
      const job = await t.ctx.store.db
        .selectFrom('jobs')
        .selectAll()
        .where('user_id', '=', fresh.uid)
        .executeTakeFirstOrThrow();
      assert.equal(job.kind, 'app.memories.extract');
      assert.ok(!job.payload.includes('Lisbon'), "!job.payload.includes('Lisbon')");
      await t.ctx.runner.drain();
      const stored = await memoriesOf(fresh.uid);
      assert.ok(stored.length > 0, 'memories were extracted');
      assert.ok(
        stored.every((m) => m.origin === 'app' && m.app_id === app.appId),
        "stored.every((m) => m.origin === 'app' && m.app_id === app.appId)",
      );
      assert.ok(
        stored.every((m) => JSON.parse(m.tags).includes('email')),
        'tagged with the text source',
      );
      const imported = await t.ctx.store.db
        .selectFrom('app_memory_imports')
        .selectAll()
        .where('user_id', '=', fresh.uid)
        .executeTakeFirstOrThrow();
      assert.deepEqual([imported.status, imported.text], ['completed', null]);
    });

    test('neither text nor memories → 422 with the reference text', async () => {
      for (const payload of [{}, { text: '  ' }, { memories: [] }, { text: null, memories: null }]) {
        const res = await post('user/memories', payload);
        assert.equal(res.statusCode, 422, JSON.stringify(payload));
        assert.deepEqual(
          res.json(),
          invalid(['body'], 'Either text or explicit memories(facts) are required and cannot be empty'),
        );
      }
    });

    test('an explicit memory with blank content → 422 and nothing is saved', async () => {
      const fresh = await createUser(t.ctx);
      await t.ctx.integrations.apps.enable(fresh.uid, app.appId);
      const res = await post('user/memories', { memories: [{ content: 'Fine' }, { content: ' ' }] }, fresh.uid);
      assert.equal(res.statusCode, 422);
      assert.equal((await memoriesOf(fresh.uid)).length, 0);
    });

    test("an app writes only into the uid it names, never into another user's data", async () => {
      const bob = await createUser(t.ctx, { name: 'Bob' });
      const before = (await memoriesOf(bob.uid)).length;
      await post('user/memories', { memories: [{ content: 'Only for Ada' }] });
      assert.equal((await memoriesOf(bob.uid)).length, before);
    });
  });
}
