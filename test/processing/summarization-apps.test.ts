import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { adminCommands } from '../../src/cli/admin.js';
import { ManualClock } from '../../src/context-types.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { FakeOpenAi } from '../helpers/fake-openai.js';

const TEXT =
  'We planned the garden for spring: Maria will order tomato seedlings by Friday and I will fix the fence on Sunday.';
const PROMPT = 'List the plants mentioned in the conversation.';

interface Conversation {
  id: string;
  structured: { title: string };
  apps_results: Array<{ app_id: string; content: string }>;
}

/** Creates an app over HTTP as `owner`; returns its id. */
async function createApp(t: TestApp, owner: TestUser, body: Record<string, unknown>): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/apps', headers: owner.session, payload: body });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().app_id as string;
}

async function enable(t: TestApp, user: TestUser, appId: string): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: `/v1/apps/${appId}/enable`, headers: user.session });
  assert.equal(res.statusCode, 200, res.body);
}

/** A processed conversation of `user`: created over the developer API, then every runnable job run. */
async function converse(t: TestApp, user: TestUser, text = TEXT): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/dev/user/conversations',
    headers: user.auth,
    payload: { text },
  });
  assert.equal(res.statusCode, 200, res.body);
  await t.ctx.runner.drain();
  return res.json().id as string;
}

async function read(t: TestApp, user: TestUser, id: string): Promise<Conversation> {
  const res = await t.app.inject({ method: 'GET', url: `/v1/dev/user/conversations/${id}`, headers: user.auth });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as Conversation;
}

/** The stored runs of a conversation, whatever their status. */
function runs(t: TestApp, conversationId: string) {
  return t.ctx.store.db
    .selectFrom('conversation_app_results')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .orderBy('app_id')
    .execute();
}

for (const dialect of dialects()) {
  describe(`summarization apps (${dialect})`, () => {
    let t: TestApp;
    let clock: ManualClock;
    let llm: FakeOpenAi;
    let replies = 0;

    before(async () => {
      llm = await FakeOpenAi.start();
      // Each reply names the app that asked and counts, so a replaced result can be told apart.
      llm.answer((request) => {
        const name = /You are "([^"]+)"/.exec(request.messages.map((m) => m.content).join('\n'))?.[1] ?? '?';
        return name === 'Flaky' ? { status: 500 } : { content: `${name} says: tomatoes (#${++replies})` };
      });
      clock = new ManualClock(Date.now());
      t = await createTestApp(dialect, {
        clock,
        engine: createLocalEngine(),
        config: { llm: { baseUrl: llm.baseUrl, apiKey: 'llm-key', model: 'tiny-model' } },
      });
    });
    after(async () => {
      await t.close();
      await llm.close();
    });

    /** A user with a fresh summarization app (owned by someone else) enabled. */
    const userWithApp = async (name = 'Gardener') => {
      const owner = await createUser(t.ctx, { name: 'Owner' });
      const user = await createUser(t.ctx, { name: 'Ada' });
      const appId = await createApp(t, owner, { name, capabilities: ['memories'], memory_prompt: PROMPT });
      await enable(t, user, appId);
      return { owner, user, appId };
    };
    const promptsFor = (needle: string) => llm.prompts().filter((p) => p.includes(needle));

    test('an enabled app with a prompt gets the transcript and summary, and its reply is in apps_results', async () => {
      const { user, appId } = await userWithApp('Gardener');
      const text = `${TEXT} Marker one.`;
      const id = await converse(t, user, text);
      const conversation = await read(t, user, id);
      const [prompt, ...more] = promptsFor('Marker one.');
      assert.equal(more.length, 0, 'one LLM call');
      assert.ok(prompt.includes(PROMPT), 'the app prompt');
      assert.ok(prompt.includes(`Title: ${conversation.structured.title}`), 'the structured summary');
      assert.match(conversation.apps_results[0]?.content ?? '', /^Gardener says: tomatoes/);
      assert.deepEqual(
        conversation.apps_results.map((r) => r.app_id),
        [appId],
      );
      const list = await t.app.inject({ method: 'GET', url: '/v1/dev/user/conversations', headers: user.auth });
      assert.deepEqual(
        (list.json() as Conversation[]).find((c) => c.id === id)?.apps_results,
        conversation.apps_results,
      );
      assert.deepEqual(
        (await runs(t, id)).map((r) => [r.status, r.user_id, r.revision]),
        [['completed', user.uid, 0]],
      );
    });

    test('an app the user did not enable, or one without a prompt, runs nothing', async () => {
      const owner = await createUser(t.ctx, { name: 'Owner' });
      const user = await createUser(t.ctx, { name: 'Ada' });
      await createApp(t, owner, { name: 'Not enabled', capabilities: ['memories'], memory_prompt: PROMPT });
      const noPrompt = await createApp(t, owner, { name: 'No prompt', capabilities: ['memories', 'chat'] });
      await enable(t, user, noPrompt);
      const turnedOff = await createApp(t, owner, { name: 'Off', capabilities: ['memories'], memory_prompt: PROMPT });
      await enable(t, user, turnedOff);
      const disabled = await t.app.inject({
        method: 'POST',
        url: `/v1/apps/${turnedOff}/disable`,
        headers: user.session,
      });
      assert.equal(disabled.statusCode, 200);
      const id = await converse(t, user, `${TEXT} Marker two.`);
      assert.deepEqual(promptsFor('Marker two.'), []);
      assert.deepEqual(await runs(t, id), []);
      assert.deepEqual((await read(t, user, id)).apps_results, []);
    });

    test('a memory_prompt without the memories capability is refused with 422', async () => {
      const owner = await createUser(t.ctx, { name: 'Owner' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/apps',
        headers: owner.session,
        payload: { name: 'Chatty', capabilities: ['chat'], memory_prompt: PROMPT },
      });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), {
        detail: [
          { loc: ['body', 'memory_prompt'], msg: 'memory_prompt needs the memories capability', type: 'value_error' },
        ],
      });
    });

    test('the owner sets and removes memory_prompt with PATCH, and the app view shows it', async () => {
      const owner = await createUser(t.ctx, { name: 'Owner' });
      const appId = await createApp(t, owner, { name: 'Later', capabilities: ['memories'] });
      const patch = (memory_prompt: string | null) =>
        t.app.inject({ method: 'PATCH', url: `/v1/apps/${appId}`, headers: owner.session, payload: { memory_prompt } });
      const set = await patch(`  ${PROMPT}  `);
      assert.equal(set.statusCode, 200, set.body);
      assert.equal(set.json().memory_prompt, PROMPT);
      const cleared = await patch(null);
      assert.equal(cleared.json().memory_prompt, null);
      assert.equal((await patch('x'.repeat(10_001))).statusCode, 422);
    });

    test("another user's conversation never runs my app", async () => {
      const { appId } = await userWithApp('Mine');
      const bob = await createUser(t.ctx, { name: 'Bob' });
      const id = await converse(t, bob, `${TEXT} Marker three.`);
      assert.deepEqual(promptsFor('Marker three.'), []);
      assert.deepEqual(await runs(t, id), []);
      assert.equal(
        (await t.ctx.store.db.selectFrom('jobs').select('id').where('payload', 'like', `%${appId}%`).execute()).length,
        0,
      );
    });

    test('an LLM that keeps failing is retried with backoff, then the run is recorded as failed', async () => {
      const { user, appId } = await userWithApp('Flaky');
      const id = await converse(t, user, `${TEXT} Marker four.`);
      const job = () =>
        t.ctx.store.db
          .selectFrom('jobs')
          .selectAll()
          .where('kind', '=', 'app.summarize')
          .where('payload', 'like', `%${id}%`)
          .executeTakeFirstOrThrow();
      assert.deepEqual([(await job()).status, (await job()).attempts], ['queued', 1]);
      assert.deepEqual(await runs(t, id), [], 'nothing recorded before the last attempt');
      for (const wait of [1000, 2000]) {
        clock.advance(wait);
        await t.ctx.runner.drain();
      }
      assert.deepEqual([(await job()).status, (await job()).attempts], ['dead_letter', 3]);
      const [run] = await runs(t, id);
      assert.deepEqual([run?.app_id, run?.status, run?.content], [appId, 'failed', '']);
      assert.ok(run?.reason, 'the last error is kept');
      assert.ok(promptsFor('Marker four.').length >= 3, 'one call per attempt at least');
      assert.deepEqual((await read(t, user, id)).apps_results, []);
    });

    test('a restore keeps the result; a reprocess replaces it', async () => {
      const { user, appId } = await userWithApp('Rerun');
      const id = await converse(t, user, `${TEXT} Marker five.`);
      const first = (await read(t, user, id)).apps_results;
      assert.equal(first.length, 1);
      // Discarded and restored by the user: shown again as it was, nothing runs again.
      for (const discarded of [true, false]) {
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/v1/dev/user/conversations/${id}`,
          headers: user.auth,
          payload: { discarded },
        });
        assert.equal(res.statusCode, 200, res.body);
      }
      await t.ctx.runner.drain();
      assert.deepEqual((await read(t, user, id)).apps_results, first);
      assert.equal(promptsFor('Marker five.').length, 1);

      // Processed again at a new revision: the new result replaces the old one.
      const row = await t.ctx.repos.conversations.findById(user.uid, id);
      assert.ok(row, 'row');
      await t.ctx.repos.conversations.update(user.uid, id, { status: 'processing', revision: row.revision + 1 });
      await t.ctx.pipeline.runProcessJob(user.uid, id, row.revision + 1, true);
      await t.ctx.runner.drain();
      const second = (await read(t, user, id)).apps_results;
      assert.equal(second.length, 1);
      assert.equal(second[0]?.app_id, appId);
      assert.notEqual(second[0]?.content, first[0]?.content);
      assert.deepEqual(
        (await runs(t, id)).map((r) => [r.status, r.revision]),
        [['completed', row.revision + 1]],
      );
      assert.equal(promptsFor('Marker five.').length, 2);
    });

    test('admin app create takes --memory-prompt', async () => {
      const handler = adminCommands.get('app create');
      assert.ok(handler, 'handler');
      const out = await handler(t.ctx, ['--name', 'CLI', '--capabilities', 'memories', '--memory-prompt', PROMPT]);
      const app = await t.ctx.integrations.apps.find(String(out.app_id));
      assert.equal(app?.memory_prompt, PROMPT);
    });
  });

  describe(`summarization apps without an LLM (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { engine: createLocalEngine() });
    });
    after(() => t.close());

    test('the run is recorded as skipped (llm_not_configured) and apps_results stays empty', async () => {
      const owner = await createUser(t.ctx, { name: 'Owner' });
      const user = await createUser(t.ctx, { name: 'Ada' });
      const appId = await createApp(t, owner, { name: 'Offline', capabilities: ['memories'], memory_prompt: PROMPT });
      await enable(t, user, appId);
      const id = await converse(t, user);
      assert.deepEqual(
        (await runs(t, id)).map((r) => [r.app_id, r.status, r.reason, r.content]),
        [[appId, 'skipped', 'llm_not_configured', '']],
      );
      assert.deepEqual((await read(t, user, id)).apps_results, []);
    });
  });
}
