import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import type { AppConfigInput } from '../../src/domain/apps/model.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { type Behaviour, FakeAppServer } from '../helpers/fake-app-server.js';
import { FakeOpenAi } from '../helpers/fake-openai.js';
import { deliveries, drainWebhooks, enabledApp } from './fixtures.js';

const BATCH = [
  { text: 'I keep forgetting to drink water at work.', speaker: 'SPEAKER_00', is_user: true, start: 0, end: 3 },
];
const TEMPLATE = 'Hi {{user_name}}. Facts: {{user_facts}}. Chat: {{user_chat}}. Context: {{user_context}}.';

const ask = (
  prompt: string,
  params: string[] | null = ['user_name', 'user_facts', 'user_context', 'user_chat'],
): Behaviour => ({
  status: 200,
  json: { session_id: 's', notification: params === null ? { prompt } : { prompt, params } },
});

for (const dialect of dialects()) {
  describe(`proactive notifications (${dialect})`, () => {
    let t: TestApp;
    let clock: ManualClock;
    let fake: FakeAppServer;
    let llm: FakeOpenAi;
    let paths = 0;

    before(async () => {
      fake = await FakeAppServer.start();
      llm = await FakeOpenAi.start();
      clock = new ManualClock(Date.now());
      t = await createTestApp(dialect, {
        clock,
        config: {
          allowPrivateWebhooks: true,
          llm: { baseUrl: llm.baseUrl, apiKey: 'llm-test-key', model: 'tiny-model' },
        },
      });
    });
    after(async () => {
      await t.close();
      await fake.close();
      await llm.close();
    });

    /** A fresh user with a proactive app enabled; the app answers each batch with `reply`. */
    const setup = async (reply: Behaviour, config: Partial<AppConfigInput> = {}) => {
      const user = await createUser(t.ctx, { name: 'Ada' });
      const path = `/proactive-${++paths}`;
      const app = await enabledApp(t, user, {
        name: 'Hydration Coach',
        capabilities: ['external_integration', 'proactive_notification'],
        triggers_on: 'transcript_processed',
        webhook_url: `${fake.url}${path}`,
        scopes: ['user_name', 'user_facts'],
        ...config,
      });
      fake.on(path, reply);
      return { user, app };
    };
    const batch = async (user: TestUser) => {
      await t.ctx.integrations.webhooks.onTranscriptBatch(user.uid, 'session-1', BATCH);
      while ((await drainWebhooks(t)) > 0);
    };
    const outcome = async (user: TestUser) =>
      (await deliveries(t, user.uid)).filter((d) => d.kind === 'transcript_processed').map((d) => d.outcome);
    const notificationsOf = async (user: TestUser) =>
      (await t.app.inject({ method: 'GET', url: '/v1/notifications', headers: user.session })).json() as Array<{
        title: string;
        message: string;
        source: string;
      }>;

    test('a notification template is rendered with the granted variables, sent to the LLM and delivered', async () => {
      const { user, app } = await setup(ask(TEMPLATE));
      await t.ctx.integrations.integration.importMemories(app.appId, user.uid, {
        memories: [{ content: 'Works night shifts' }],
      });
      llm.answer(() => ({ content: 'Ada, time for a glass of water!' }));
      const before = llm.requests.length;
      await batch(user);
      assert.equal(llm.requests.length, before + 1);
      const request = llm.requests[llm.requests.length - 1];
      assert.equal(request.model, 'tiny-model');
      assert.equal(request.authorization, 'Bearer llm-test-key');
      const prompt = request.messages[0].content;
      assert.match(prompt, /^Hi Ada\. Facts: /);
      assert.match(prompt, /Works night shifts/);
      // user_chat and user_context were not granted: they render empty.
      assert.match(prompt, /\. Chat: \. Context: \.$/);
      assert.deepEqual(
        (await notificationsOf(user)).map((n) => [n.title, n.message, n.source]),
        [['Hydration Coach says', 'Ada, time for a glass of water!', 'proactive']],
      );
      assert.deepEqual(await outcome(user), ['notified']);
    });

    test("granted user_context and user_chat carry the live batch and the app's earlier messages", async () => {
      const { user, app } = await setup(ask('Context: {{user_context}} Chat: {{user_chat}}'), {
        scopes: ['user_context', 'user_chat'],
      });
      await t.ctx.integrations.notifications.deliver(user.uid, {
        appId: app.appId,
        title: 't',
        message: 'Earlier nudge',
        source: 'integration',
      });
      llm.answer(() => ({ content: 'Another helpful nudge.' }));
      await batch(user);
      const prompt = llm.prompts()[llm.prompts().length - 1];
      assert.match(prompt, /User: I keep forgetting to drink water at work\./);
      assert.match(prompt, /AI: Earlier nudge/);
    });

    test('params narrow the variables: one the app did not list renders empty', async () => {
      const { user } = await setup(ask('Name={{user_name}} Facts=[{{user_facts}}]', ['user_name']));
      llm.answer(() => ({ content: 'A nudge for Ada.' }));
      await batch(user);
      assert.equal(llm.prompts()[llm.prompts().length - 1], 'Name=Ada Facts=[]');
    });

    test('a reply with only {session_id} asks for nothing and the LLM is not called', async () => {
      const { user } = await setup({ status: 200, json: { session_id: 's' } });
      const before = llm.requests.length;
      await batch(user);
      assert.equal(llm.requests.length, before);
      assert.deepEqual(await outcome(user), ['no_notification']);
      assert.deepEqual(await notificationsOf(user), []);
    });

    test('a prompt shorter than 5 characters is refused', async () => {
      const { user } = await setup(ask('Hey'));
      await batch(user);
      assert.deepEqual(await outcome(user), ['prompt_too_short']);
    });

    test('a malformed notification is recorded, not fatal', async () => {
      const { user } = await setup({ status: 200, json: { session_id: 's', notification: 'a bare string' } });
      await batch(user);
      assert.deepEqual(await outcome(user), ['invalid_notification']);
    });

    test('an app without the proactive_notification capability gets no notification', async () => {
      const { user } = await setup(ask(TEMPLATE), { capabilities: ['external_integration'], scopes: [] });
      await batch(user);
      assert.deepEqual(await outcome(user), ['not_capable']);
    });

    test('at most one notification per user and app every 30 s', async () => {
      const { user } = await setup(ask(TEMPLATE));
      llm.answer(() => ({ content: 'Drink some water now.' }));
      await batch(user);
      clock.advance(10_000);
      await batch(user);
      assert.deepEqual(await outcome(user), ['notified', 'cooldown']);
      clock.advance(21_000);
      await batch(user);
      assert.deepEqual(await outcome(user), ['notified', 'cooldown', 'notified']);
      assert.equal((await notificationsOf(user)).length, 2);
    });

    test('the cooldown is per app: another app of the same user is not held back', async () => {
      const { user } = await setup(ask(TEMPLATE));
      const second = await enabledApp(t, user, {
        capabilities: ['external_integration', 'proactive_notification'],
        triggers_on: 'transcript_processed',
        webhook_url: `${fake.url}/proactive-second`,
        scopes: ['user_name'],
      });
      fake.on('/proactive-second', ask('Hello {{user_name}}!'));
      llm.answer(() => ({ content: 'Stay hydrated today.' }));
      await batch(user);
      const rows = await deliveries(t, user.uid);
      assert.ok(
        rows.some((d) => d.app_id === second.appId),
        'rows.some((d) => d.app_id === second.appId)',
      );
      assert.deepEqual(
        rows.map((d) => d.outcome),
        ['notified', 'notified'],
      );
    });

    test('an LLM failure is recorded and sends nothing', async () => {
      const { user } = await setup(ask(TEMPLATE));
      llm.answer(() => ({ status: 500 }));
      await batch(user);
      assert.deepEqual(await outcome(user), ['llm_failed']);
      assert.deepEqual(await notificationsOf(user), []);
    });

    test('an LLM reply under 5 characters sends nothing', async () => {
      const { user } = await setup(ask(TEMPLATE));
      llm.answer(() => ({ content: 'ok' }));
      await batch(user);
      assert.deepEqual(await outcome(user), ['reply_too_short']);
    });
  });

  describe(`proactive notifications without an LLM (${dialect})`, () => {
    let t: TestApp;
    let fake: FakeAppServer;

    before(async () => {
      fake = await FakeAppServer.start();
      t = await createTestApp(dialect, { config: { allowPrivateWebhooks: true, llm: null } });
    });
    after(async () => {
      await t.close();
      await fake.close();
    });

    test('the request is skipped and recorded, never answered with made-up text', async () => {
      const user = await createUser(t.ctx);
      await enabledApp(t, user, {
        capabilities: ['external_integration', 'proactive_notification'],
        triggers_on: 'transcript_processed',
        webhook_url: `${fake.url}/no-llm`,
        scopes: ['user_name'],
      });
      fake.on('/no-llm', ask(TEMPLATE));
      await t.ctx.integrations.webhooks.onTranscriptBatch(user.uid, 'session-1', BATCH);
      while ((await drainWebhooks(t)) > 0);
      const [row] = await deliveries(t, user.uid);
      assert.deepEqual([row.status, row.outcome], ['delivered', 'llm_not_configured']);
      const list = await t.app.inject({ method: 'GET', url: '/v1/notifications', headers: user.session });
      assert.deepEqual(list.json(), []);
    });
  });
}
