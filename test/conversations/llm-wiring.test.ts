import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers/app.js';
import { type FakeServer, startFakeOpenAi } from '../processing/fake-openai.js';

// DESIGN §6: with LLM_BASE_URL set the pipeline uses the model; a failing model falls back to the
// local engine and the fallback is recorded on the conversation.
describe('LLM engine wiring', () => {
  let llm: FakeServer;
  let t: TestApp;
  let ada: TestUser;
  let failStructure = false;

  before(async () => {
    llm = await startFakeOpenAi((schema) => {
      if (schema.includes('structure')) {
        return failStructure
          ? { status: 500 }
          : {
              content: {
                title: 'Quarterly Budget Review With Maria',
                overview: 'The user and Maria reviewed the quarterly budget.',
                category: 'finance',
                emoji: '💰',
                events: [],
              },
            };
      }
      if (schema.includes('relevance')) return { content: { discard: false } };
      return { status: 500 };
    });
    t = await createTestApp('sqlite', {
      config: { llm: { baseUrl: llm.baseUrl, apiKey: 'test-key', model: 'fake-model' } },
    });
    ada = await createUser(t.ctx);
  });
  after(async () => {
    await t.close();
    await llm.close();
  });

  const create = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/dev/user/conversations',
      headers: ada.auth,
      payload: { text: 'I need to send the quarterly budget to Maria by Friday, and we agreed to cut travel costs.' },
    });
    assert.equal(res.statusCode, 200);
    return res.json().id as string;
  };

  test('the model writes the structure when it answers', async () => {
    const id = await create();
    const row = await t.ctx.repos.conversations.findById(ada.uid, id);
    // Issue 17: the model's title is kept as it wrote it (trimmed, capped), not re-cased.
    assert.equal(row?.title, 'Quarterly Budget Review With Maria');
    assert.equal(row?.category, 'finance');
    assert.ok(
      llm.requests.some((r) => r.authorization === 'Bearer test-key'),
      "llm.requests.some((r) => r.authorization === 'Bearer test-key')",
    );
  });

  test('a failing model falls back to the local engine and the fallback is recorded', async () => {
    failStructure = true;
    const id = await create();
    await t.ctx.runner.drain();
    const row = await t.ctx.repos.conversations.findById(ada.uid, id);
    assert.notEqual(row?.title, '');
    assert.notEqual(row?.title, 'Quarterly Budget Review With Maria');
    const processing = JSON.parse(row?.processing ?? '{}') as { fallbacks: string[] };
    assert.ok(
      processing.fallbacks.some((f) => f.startsWith('structure:')),
      JSON.stringify(processing),
    );
    assert.ok(
      processing.fallbacks.some((f) => f.startsWith('action_items:')),
      JSON.stringify(processing),
    );
  });
});
