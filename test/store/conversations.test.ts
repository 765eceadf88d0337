import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { type ConversationListFilter, ConversationsRepository } from '../../src/store/repositories/conversations.js';
import type { TranscriptSegmentsTable } from '../../src/store/schema.js';
import { dialects, repositorySuite } from '../helpers/store.js';
import { conversation } from './conversation-rows.js';
import { ownedRowCases } from './owned-rows.js';

const segment = (userId: string, conversationId: string, seq: number): TranscriptSegmentsTable => ({
  id: randomUUID(),
  user_id: userId,
  conversation_id: conversationId,
  seq,
  text: `line ${seq}`,
  speaker: 'SPEAKER_00',
  speaker_id: 0,
  is_user: 0,
  person_id: null,
  start_sec: seq,
  end_sec: seq + 1,
});

const shown: ConversationListFilter = { statuses: ['completed'], includeDiscarded: false, limit: 10, offset: 0 };

for (const dialect of dialects()) {
  describe(`conversations repository (${dialect})`, () => {
    const conversations = repositorySuite(dialect, (store) => new ConversationsRepository(store.db));

    const ids = (userId: string, rows: Array<{ id: string }>) => rows.map((r) => r.id.slice(userId.length + 1));

    ownedRowCases({
      newUser: conversations.newUser,
      insert: (userId, id, createdAt) => conversations.repo.insert(conversation(userId, id, createdAt), []),
      find: (userId, id) => conversations.repo.findById(userId, id),
      setText: (userId, id, title) => conversations.repo.update(userId, id, { title }),
      text: (row) => row.title,
      delete: (userId, id) => conversations.repo.delete(userId, id),
      pageAfter: (userId, cursor, limit) => conversations.repo.pageAfter(userId, cursor, limit),
    });

    test('the list is newest first, pages by offset, and hides discarded and unfinished conversations', async () => {
      const ada = await conversations.newUser();
      for (const [n, fields] of [{}, { discarded: 1 }, { status: 'processing' }, {}, {}].entries()) {
        await conversations.repo.insert(conversation(ada, `${ada}-${n}`, 1000 * (n + 1), fields), []);
      }
      assert.deepEqual(ids(ada, await conversations.repo.list(ada, { ...shown, limit: 2 })), ['4', '3']);
      assert.deepEqual(ids(ada, await conversations.repo.list(ada, { ...shown, limit: 2, offset: 2 })), ['0']);
      assert.deepEqual(ids(ada, await conversations.repo.list(ada, { ...shown, includeDiscarded: true })), [
        '4',
        '3',
        '1',
        '0',
      ]);
    });

    test('date, category and starred filters narrow the list, bounds inclusive', async () => {
      const ada = await conversations.newUser();
      await conversations.repo.insert(conversation(ada, `${ada}-a`, 1000, { category: 'work' }), []);
      await conversations.repo.insert(conversation(ada, `${ada}-b`, 2000, { starred: 1 }), []);
      await conversations.repo.insert(conversation(ada, `${ada}-c`, 3000, { category: 'work', starred: 1 }), []);
      assert.deepEqual(ids(ada, await conversations.repo.list(ada, { ...shown, startDate: 2000, endDate: 3000 })), [
        'c',
        'b',
      ]);
      assert.deepEqual(ids(ada, await conversations.repo.list(ada, { ...shown, categories: ['work'] })), ['c', 'a']);
      assert.deepEqual(ids(ada, await conversations.repo.list(ada, { ...shown, starred: true })), ['c', 'b']);
    });

    test('a conversation reads with its folder name; deleting the folder leaves it without one', async () => {
      const ada = await conversations.newUser();
      const folderId = randomUUID();
      await conversations.store.db
        .insertInto('folders')
        .values({
          id: folderId,
          user_id: ada,
          name: 'Work',
          description: null,
          color: '#000',
          icon: 'x',
          position: 0,
          created_at: 0,
          updated_at: 0,
        })
        .execute();
      const id = `${ada}-in-folder`;
      await conversations.repo.insert(conversation(ada, id, 1000, { folder_id: folderId }), []);
      assert.deepEqual(
        [
          (await conversations.repo.findById(ada, id))?.folder_name,
          ids(ada, await conversations.repo.list(ada, { ...shown, folderId })),
        ],
        ['Work', ['in-folder']],
      );
      await conversations.store.db.deleteFrom('folders').where('id', '=', folderId).execute();
      const after = await conversations.repo.findById(ada, id);
      assert.deepEqual([after?.folder_id, after?.folder_name], [null, null]);
    });

    test("segments come back in order, grouped by conversation, and never another user's", async () => {
      const [ada, bob] = [await conversations.newUser(), await conversations.newUser()];
      const id = `${ada}-talk`;
      await conversations.repo.insert(
        conversation(ada, id, 1000),
        [2, 0, 1].map((seq) => segment(ada, id, seq)),
      );
      const mine = await conversations.repo.segmentsFor(ada, [id]);
      assert.deepEqual(
        mine.get(id)?.map((s) => s.seq),
        [0, 1, 2],
      );
      assert.equal((await conversations.repo.segmentsFor(bob, [id])).size, 0);
    });

    test('deleting a conversation deletes its segments and action items with it', async () => {
      const ada = await conversations.newUser();
      const id = `${ada}-gone`;
      await conversations.repo.insert(conversation(ada, id, 1000), [segment(ada, id, 0)]);
      await conversations.store.db
        .insertInto('action_items')
        .values({
          id: randomUUID(),
          user_id: ada,
          conversation_id: id,
          description: 'x',
          completed: 0,
          completed_at: null,
          due_at: null,
          created_at: 0,
          updated_at: 0,
        })
        .execute();
      assert.equal(await conversations.repo.delete(ada, id), true);
      const left = await Promise.all(
        (['transcript_segments', 'action_items'] as const).map((table) =>
          conversations.store.db.selectFrom(table).select('id').where('conversation_id', '=', id).execute(),
        ),
      );
      assert.deepEqual(left, [[], []]);
    });

    test("a client session id finds the owner's conversation only", async () => {
      const [ada, bob] = [await conversations.newUser(), await conversations.newUser()];
      const id = `${ada}-session`;
      await conversations.repo.insert(conversation(ada, id, 1000, { client_session_id: `${ada}-s1` }), []);
      assert.equal((await conversations.repo.findByClientSession(ada, `${ada}-s1`))?.id, id);
      assert.equal(await conversations.repo.findByClientSession(bob, `${ada}-s1`), undefined);
    });
  });
}
