import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';

// Two action items and two memories each; each test talks about other things, since items and memories
// are de-duplicated across conversations.
const LISBON =
  'I live in Lisbon and I really enjoy playing the violin every evening. I need to buy violin strings next week. Remind me to call the dentist tomorrow.';
const PORTO =
  'I live in Porto and I really enjoy playing chess every evening. I need to renew my passport next week. Remind me to email the landlord tomorrow.';
const MADRID =
  'I live in Madrid and I really enjoy swimming every morning. I need to pay the electricity bill next week. Remind me to water the garden tomorrow.';

interface Item {
  id: string;
  description: string;
  completed: boolean;
  due_at: string | null;
  conversation_id: string | null;
}
interface Memory {
  id: string;
  content: string;
  conversation_id: string | null;
}

for (const dialect of dialects()) {
  describe(`restoring and reprocessing keep the user's data (${dialect})`, () => {
    let t: TestApp;
    let ada: TestUser;

    before(async () => {
      t = await createTestApp(dialect, { engine: createLocalEngine() });
      ada = await createUser(t.ctx, { name: 'Ada' });
    });
    after(() => t.close());

    const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
      const res = await t.app.inject({ method, url: `/v1/dev/user${url}`, headers: ada.auth, payload });
      assert.equal(res.statusCode, 200, `${method} ${url}: ${res.body}`);
      return res.json();
    };
    const itemsOf = async (id: string) => (await call('GET', `/action-items?conversation_id=${id}`)) as Item[];
    const memoriesOf = async (id: string) =>
      ((await call('GET', '/memories?limit=100')) as Memory[]).filter((m) => m.conversation_id === id);

    /** A processed conversation with its extracted items and memories. */
    const converse = async (about: string) => {
      const { id } = await call('POST', '/conversations', { text: about });
      await t.ctx.runner.drain();
      const items = await itemsOf(id);
      const memories = await memoriesOf(id);
      assert.equal(items.length, 2, JSON.stringify(items));
      assert.equal(memories.length, 2, JSON.stringify(memories));
      return { id: id as string, items, memories };
    };

    /** What reprocessing does: a new revision, processed again (as a restore of a discarded one is). */
    const reprocess = async (id: string) => {
      const row = await t.ctx.repos.conversations.findById(ada.uid, id);
      assert.ok(row, 'row');
      const revision = row.revision + 1;
      await t.ctx.repos.conversations.update(ada.uid, id, { status: 'processing', revision });
      await t.ctx.pipeline.runProcessJob(ada.uid, id, revision, true);
      await t.ctx.runner.drain();
    };

    test('a conversation the user discarded comes back as it was: same memories, same edited items', async () => {
      const { id, items, memories } = await converse(LISBON);
      const edited = await call('PATCH', `/action-items/${items[0].id}`, {
        description: 'Buy strings v2',
        due_at: null,
      });
      assert.equal(edited.description, 'Buy strings v2');
      const before = await t.ctx.repos.conversations.findById(ada.uid, id);

      assert.equal((await call('PATCH', `/conversations/${id}`, { discarded: true })).discarded, true);
      const restored = await call('PATCH', `/conversations/${id}`, { discarded: false });
      await t.ctx.runner.drain();
      assert.equal(restored.discarded, false);
      assert.equal(restored.status, 'completed');

      assert.deepEqual(
        (await memoriesOf(id)).map((m) => [m.id, m.content]),
        memories.map((m) => [m.id, m.content]),
      );
      const after = await itemsOf(id);
      assert.deepEqual(after.map((i) => i.id).sort(), items.map((i) => i.id).sort());
      const kept = after.find((i) => i.id === items[0].id);
      assert.deepEqual([kept?.description, kept?.due_at], ['Buy strings v2', null]);
      const inline = (await call('GET', `/conversations/${id}`)).structured.action_items as Array<{
        description: string;
      }>;
      assert.ok(
        inline.some((i) => i.description === 'Buy strings v2'),
        "inline.some((i) => i.description === 'Buy strings v2')",
      );
      // Nothing was processed again.
      assert.equal((await t.ctx.repos.conversations.findById(ada.uid, id))?.revision, before?.revision);
    });

    test('a re-extraction keeps what the user touched and finds the rest again', async () => {
      const { id, items, memories } = await converse(PORTO);
      const [done, untouched] = items;
      await call('PATCH', `/action-items/${done.id}`, { completed: true });
      const porto = memories.find((m) => m.content === 'User lives in Porto');
      assert.ok(porto, JSON.stringify(memories));
      const refined = 'User lives in Porto, Portugal';
      const editedMemory = await call('PATCH', `/memories/${porto.id}`, { content: refined });

      await reprocess(id);

      const after = await itemsOf(id);
      // The completed item stays (same id, still completed) and is not extracted a second time; the
      // untouched one is replaced by the new extraction of the same sentence.
      assert.equal(after.length, 2, JSON.stringify({ items, after }));
      assert.deepEqual(
        after.filter((i) => i.id === done.id).map((i) => i.completed),
        [true],
      );
      assert.ok(!after.some((i) => i.id === untouched.id), 'the untouched item was replaced');
      assert.ok(
        after.some((i) => i.description === untouched.description),
        'after.some((i) => i.description === untouched.description)',
      );

      const memoriesAfter = await memoriesOf(id);
      assert.ok(
        memoriesAfter.some((m) => m.id === editedMemory.id && m.content === refined),
        'memoriesAfter.some((m) => m.id === editedMemory.id && m.content === refined)',
      );
      // The edited fact is not extracted again beside the edit; the untouched one is found again, not lost to
      // de-duplication against itself.
      assert.ok(
        !memoriesAfter.some((m) => m.content === 'User lives in Porto'),
        "!memoriesAfter.some((m) => m.content === 'User lives in Porto')",
      );
      for (const memory of memories.filter((m) => m.id !== porto.id))
        assert.ok(
          memoriesAfter.some((m) => m.content === memory.content),
          `${memory.content} in ${JSON.stringify(memoriesAfter)}`,
        );
      assert.equal(memoriesAfter.length, memories.length);
    });

    test('a re-extraction of an untouched conversation finds the same memories and items again', async () => {
      const { id, items, memories } = await converse(MADRID);
      await reprocess(id);
      assert.deepEqual((await memoriesOf(id)).map((m) => m.content).sort(), memories.map((m) => m.content).sort());
      assert.deepEqual((await itemsOf(id)).map((i) => i.description).sort(), items.map((i) => i.description).sort());
    });
  });
}
