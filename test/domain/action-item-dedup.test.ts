import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { ManualClock } from '../../src/context-types.js';
import type { JobTable } from '../../src/jobs/table-queue.js';
import type { TextEngine } from '../../src/processing/engine.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { ProcessingPipeline } from '../../src/processing/pipeline.js';
import { FakeActionItems } from './fakes/action-items.js';
import { conversationRow, FakeConversations, FakeUsers } from './fakes/conversations.js';
import { ScriptedEngine } from './fakes/engine.js';
import { FakeMemories } from './fakes/memories.js';
import { asPort } from './fakes/port.js';

// SPEC §8: a conversation's new action items are de-duplicated against the user's items of the past
// 2 days. The window is the pipeline's (src/processing/pipeline.ts); the extraction job is its seam.
const HOUR = 3600_000;
const DAY = 24 * HOUR;

function setUp(engine: TextEngine) {
  const clock = new ManualClock();
  const conversations = new FakeConversations();
  const actionItems = new FakeActionItems();
  const users = new FakeUsers();
  users.add('ada', 'Ada');
  users.add('bob', 'Bob');
  const pipeline = new ProcessingPipeline({
    conversations: conversations.port,
    actionItems: actionItems.port,
    memories: new FakeMemories().port,
    users: users.port,
    jobs: asPort<JobTable>({}), // the extraction step enqueues nothing
    engine,
    clock,
    log: pino({ level: 'silent' }),
    wakeWorkers: () => {},
    afterProcessing: async () => {},
  });
  /** A new conversation of `userId`, processed now: its extraction job runs. */
  const extract = async (userId: string, id: string, text: string) => {
    conversations.rows.push(conversationRow(userId, id, clock.now(), text));
    await pipeline.runExtractJob(userId, id, 1);
  };
  /** An item `ageMs` old (by hand, or of another conversation). */
  const existing = (userId: string, id: string, description: string, ageMs: number, conversationId: string | null) =>
    actionItems.insertMany([
      {
        id,
        user_id: userId,
        conversation_id: conversationId,
        description,
        completed: 0,
        created_at: clock.now() - ageMs,
        updated_at: clock.now() - ageMs,
      },
    ]);
  return { clock, actionItems, extract, existing };
}

describe('action-item de-duplication window (extraction job)', () => {
  test('the extraction is shown the user items of the past two days, newest first, and no older ones', async () => {
    const engine = new ScriptedEngine();
    const { extract, existing } = setUp(engine);
    await existing('ada', 'by-hand', 'Water the plants', 47 * HOUR, null);
    await existing('ada', 'yesterday', 'Call the bank', DAY, 'c-earlier');
    await existing('ada', 'too-old', 'Renew the passport', 2 * DAY + 1, 'c-old');
    await extract('ada', 'c-now', 'Some talk.');
    assert.deepEqual(
      engine.shownItems[0].map((i) => i.id),
      ['yesterday', 'by-hand'],
    );
  });

  test('an item exactly two days old is still inside the window', async () => {
    const engine = new ScriptedEngine();
    const { extract, existing } = setUp(engine);
    await existing('ada', 'edge', 'Water the plants', 2 * DAY, null);
    await extract('ada', 'c-now', 'Some talk.');
    assert.deepEqual(
      engine.shownItems[0].map((i) => i.id),
      ['edge'],
    );
  });

  test("another user's items are never shown", async () => {
    const engine = new ScriptedEngine();
    const { extract, existing } = setUp(engine);
    await existing('bob', 'bobs', 'Water the plants', HOUR, null);
    await extract('ada', 'c-now', 'Some talk.');
    assert.deepEqual(engine.shownItems[0], []);
  });

  test('the window follows the clock: an item shown today is not shown three days later', async () => {
    const engine = new ScriptedEngine();
    const { clock, extract, existing } = setUp(engine);
    await existing('ada', 'item', 'Water the plants', 0, null);
    await extract('ada', 'c-1', 'Some talk.');
    clock.advance(3 * DAY);
    await extract('ada', 'c-2', 'More talk.');
    assert.deepEqual(
      engine.shownItems.map((shown) => shown.map((i) => i.id)),
      [['item'], []],
    );
  });

  test('what the extraction returns is stored for the conversation, stamped with the job time', async () => {
    const engine = new ScriptedEngine();
    engine.items = [{ description: 'Book the venue', dueAt: null }];
    const { clock, actionItems, extract } = setUp(engine);
    await extract('ada', 'c-now', 'Some talk.');
    assert.deepEqual(
      actionItems.rows.map((r) => [r.user_id, r.conversation_id, r.description, r.completed, r.created_at]),
      [['ada', 'c-now', 'Book the venue', 0, clock.now()]],
    );
  });

  describe('with the local engine', () => {
    const text = 'I need to water the plants.';

    test('a task said again within two days is not stored a second time', async () => {
      const { actionItems, extract, existing } = setUp(createLocalEngine());
      await existing('ada', 'earlier', 'Water the plants', 47 * HOUR, 'c-earlier');
      await extract('ada', 'c-now', text);
      assert.deepEqual(
        actionItems.rows.map((r) => r.id),
        ['earlier'],
      );
    });

    test('the same task said after the window is stored again', async () => {
      const { actionItems, extract, existing } = setUp(createLocalEngine());
      await existing('ada', 'earlier', 'Water the plants', 2 * DAY + HOUR, 'c-earlier');
      await extract('ada', 'c-now', text);
      assert.deepEqual(
        actionItems.rows.map((r) => [r.conversation_id, r.description]),
        [
          ['c-earlier', 'Water the plants'],
          ['c-now', 'Water the plants'],
        ],
      );
    });
  });
});
