import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { FakeOpenAi } from '../helpers/fake-openai.js';
import { type FakeEmbeddings, startFakeEmbeddings } from './fake-embeddings.js';
import { seedConversation } from './fixtures.js';

const NOW = Date.parse('2026-03-11T15:00:00Z');

for (const dialect of dialects()) {
  describe(`ask with an LLM and embeddings (${dialect})`, () => {
    let t: TestApp;
    let llm: FakeOpenAi;
    let embeddings: FakeEmbeddings;
    let ada: TestUser;
    const clock = new ManualClock(NOW);
    const ids: Record<string, string> = {};

    const ask = (question: string, extra: object = {}) =>
      t.app.inject({ method: 'POST', url: '/v1/dev/user/ask', headers: ada.auth, payload: { question, ...extra } });

    before(async () => {
      llm = await FakeOpenAi.start();
      embeddings = await startFakeEmbeddings();
      t = await createTestApp(dialect, {
        clock,
        config: {
          llm: { baseUrl: llm.baseUrl, apiKey: 'llm-key', model: 'tiny-model' },
          embeddings: { baseUrl: embeddings.url, apiKey: null, model: 'fake-embed' },
        },
      });
      ada = await createUser(t.ctx);
      const bob = await createUser(t.ctx, { name: 'Bob' });
      ids.pricing = await seedConversation(t.ctx, ada.uid, {
        title: 'Pricing sync',
        overview: 'We agreed to raise prices by 10% in April.',
        segments: ['The competitor charges twelve dollars.'],
        createdAt: NOW - 86_400_000,
      });
      ids.holiday = await seedConversation(t.ctx, ada.uid, {
        title: 'Holiday ideas',
        overview: 'Thinking about a week in Lisbon.',
        createdAt: NOW - 2 * 86_400_000,
      });
      await seedConversation(t.ctx, bob.uid, {
        title: 'Bob pricing',
        overview: 'Bob plans to halve his prices.',
        createdAt: NOW - 86_400_000,
      });
    });
    after(async () => {
      await t.close();
      await llm.close();
      await embeddings.close();
    });
    beforeEach(() => {
      llm.requests.length = 0;
      embeddings.fail = false;
      llm.answer(() => ({ content: 'You agreed to raise prices by 10% in April [1].' }));
    });

    test("the model's answer is returned with the retrieved conversations as sources", async () => {
      const res = await ask('What did we decide about prices?');
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        answer: 'You agreed to raise prices by 10% in April [1].',
        sources: [{ id: ids.pricing, title: 'Pricing sync', created_at: new Date(NOW - 86_400_000).toISOString() }],
      });
      assert.equal(llm.requests.length, 1);
      assert.equal(llm.requests[0].model, 'tiny-model');
    });

    test('the prompt holds only the retrieved conversations and forbids outside facts', async () => {
      await ask('What did we decide about prices?', { timezone: 'Europe/Lisbon' });
      const [prompt] = llm.prompts();
      assert.match(prompt, /\[1\] Pricing sync/);
      assert.match(prompt, /raise prices by 10% in April/);
      assert.match(prompt, /competitor charges twelve dollars/);
      assert.match(prompt, /Question: What did we decide about prices\?/);
      assert.match(prompt, /Do not add outside knowledge/);
      assert.match(prompt, /Cite every fact/);
      assert.match(prompt, /\(Europe\/Lisbon\)/);
      // Neither Ada's unrelated conversation nor another user's.
      assert.doesNotMatch(prompt, /Lisbon\.|Holiday/);
      assert.doesNotMatch(prompt, /halve|Bob/);
    });

    test('nothing retrieved: no model call, and a plain "couldn\'t find"', async () => {
      const res = await ask('Any news on the skiing trip?');
      assert.deepEqual(res.json().sources, []);
      assert.match(res.json().answer, /couldn't find/);
      assert.equal(llm.requests.length, 0);
    });

    test('conversations are embedded once, stored, and re-embedded when they change', async () => {
      embeddings.requests.length = 0;
      const first = await ask('Where should the holiday week be?');
      assert.equal(first.json().sources[0].id, ids.holiday);
      assert.ok(
        embeddings.requests.flatMap((r) => r.input).includes('Where should the holiday week be?'),
        "embeddings.requests.flatMap((r) => r.input).includes('Where should the holiday week be?')",
      );
      // Embedded by the first question asked (earlier tests), kept for later ones.
      const stored = await t.ctx.store.db
        .selectFrom('conversation_embeddings')
        .select(['conversation_id', 'user_id', 'model'])
        .execute();
      assert.deepEqual(stored.map((r) => r.conversation_id).sort(), [ids.holiday, ids.pricing].sort());
      assert.ok(
        stored.every((r) => r.user_id === ada.uid && r.model === 'fake-embed'),
        "stored.every((r) => r.user_id === ada.uid && r.model === 'fake-embed')",
      );

      embeddings.requests.length = 0;
      await ask('Where should the holiday week be?');
      assert.deepEqual(
        embeddings.requests.map((r) => r.input),
        [['Where should the holiday week be?']],
      );

      clock.advance(1000);
      const renamed = await t.app.inject({
        method: 'PATCH',
        url: `/v1/dev/user/conversations/${ids.holiday}`,
        headers: ada.auth,
        payload: { title: 'Holiday in Porto' },
      });
      assert.equal(renamed.statusCode, 200, renamed.body);
      embeddings.requests.length = 0;
      await ask('Where should the holiday week be?');
      assert.ok(
        embeddings.requests.some((r) => r.input.some((i) => i.startsWith('Holiday in Porto'))),
        "embeddings.requests.some((r) => r.input.some((i) => i.startsWith('Holiday in Porto')))",
      );
    });

    test('a failing embedding provider falls back to the full-text ranking', async () => {
      embeddings.fail = true;
      const res = await ask('What did we decide about prices?');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(
        res.json().sources.map((s: { id: string }) => s.id),
        [ids.pricing],
      );
    });

    test('a failing model gives the extracted answer instead of an error', async () => {
      llm.answer(() => ({ status: 500 }));
      const res = await ask('What did we decide about prices?');
      assert.equal(res.statusCode, 200);
      assert.match(res.json().answer, /raise prices by 10% in April\. \[1\]/);
      assert.ok(llm.requests.length >= 1, 'llm.requests.length >= 1');
    });
  });
}
