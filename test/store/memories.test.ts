import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoriesRepository } from '../../src/store/repositories/memories.js';
import type { MemoriesTable } from '../../src/store/schema.js';
import { dialects, repositorySuite } from '../helpers/store.js';
import { addConversation } from './conversation-rows.js';
import { ownedRowCases } from './owned-rows.js';

const memory = (userId: string, id: string, createdAt: number, fields: Partial<MemoriesTable> = {}): MemoriesTable => ({
  id,
  user_id: userId,
  content: `Memory ${id}`,
  category: 'other',
  visibility: 'private',
  tags: '[]',
  origin: 'manual',
  conversation_id: null,
  app_id: null,
  manually_added: 1,
  reviewed: 1,
  user_review: 1,
  edited: 0,
  created_at: createdAt,
  updated_at: createdAt,
  ...fields,
});

/** An extracted memory of `conversationId` nobody has reviewed or edited yet. */
const extracted = (userId: string, id: string, conversationId: string, fields: Partial<MemoriesTable> = {}) =>
  memory(userId, id, 1000, {
    origin: 'conversation',
    conversation_id: conversationId,
    manually_added: 0,
    reviewed: 0,
    user_review: null,
    ...fields,
  });

for (const dialect of dialects()) {
  describe(`memories repository (${dialect})`, () => {
    const memories = repositorySuite(dialect, (store) => new MemoriesRepository(store.db));

    const suffixes = (userId: string, rows: Array<{ id: string }>) => rows.map((r) => r.id.slice(userId.length + 1));

    ownedRowCases({
      newUser: memories.newUser,
      insert: (userId, id, createdAt) => memories.repo.insertMany([memory(userId, id, createdAt)]),
      find: (userId, id) => memories.repo.findById(userId, id),
      setText: (userId, id, content) => memories.repo.update(userId, id, { content }),
      text: (row) => row.content,
      delete: (userId, id) => memories.repo.delete(userId, id),
      pageAfter: (userId, cursor, limit) => memories.repo.pageAfter(userId, cursor, limit),
    });

    test('the list is newest first, pages by offset and hides memories the user rejected', async () => {
      const ada = await memories.newUser();
      await memories.repo.insertMany([
        memory(ada, `${ada}-1`, 1000),
        memory(ada, `${ada}-2`, 2000, { user_review: 0 }),
        memory(ada, `${ada}-3`, 3000, { user_review: null }),
        memory(ada, `${ada}-4`, 4000),
      ]);
      assert.deepEqual(suffixes(ada, await memories.repo.list(ada, { limit: 2, offset: 0 })), ['4', '3']);
      assert.deepEqual(suffixes(ada, await memories.repo.list(ada, { limit: 2, offset: 2 })), ['1']);
    });

    test('the category filter keeps only the named categories', async () => {
      const ada = await memories.newUser();
      await memories.repo.insertMany([
        memory(ada, `${ada}-work`, 1000, { category: 'work' }),
        memory(ada, `${ada}-habit`, 2000, { category: 'habits' }),
        memory(ada, `${ada}-other`, 3000),
      ]);
      const listed = await memories.repo.list(ada, { categories: ['work', 'habits'], limit: 10, offset: 0 });
      assert.deepEqual(suffixes(ada, listed), ['habit', 'work']);
    });

    test("findByIds returns only the user's own memories among the ids", async () => {
      const [ada, bob] = [await memories.newUser(), await memories.newUser()];
      await memories.repo.insertMany([memory(ada, `${ada}-mine`, 1000), memory(bob, `${bob}-theirs`, 1000)]);
      const found = await memories.repo.findByIds(ada, [`${ada}-mine`, `${bob}-theirs`]);
      assert.deepEqual(
        found.map((r) => r.id),
        [`${ada}-mine`],
      );
    });

    test("a re-extraction replaces the conversation's untouched memories and keeps edited or reviewed ones", async () => {
      const ada = await memories.newUser();
      const here = await addConversation(memories.store, ada);
      await memories.repo.insertMany([
        extracted(ada, `${ada}-untouched`, here),
        extracted(ada, `${ada}-edited`, here, { edited: 1 }),
        extracted(ada, `${ada}-rejected`, here, { user_review: 0 }),
      ]);
      // Known contents for the new extraction leave out what it is about to replace.
      assert.deepEqual((await memories.repo.recentContents(ada, 10, here)).map((m) => m.content).sort(), [
        `Memory ${ada}-edited`,
        `Memory ${ada}-rejected`,
      ]);
      await memories.repo.deleteUntouchedForConversation(ada, here);
      const left = await memories.repo.pageAfter(ada, null, 10);
      assert.deepEqual(suffixes(ada, left).sort(), ['edited', 'rejected']);
    });

    test('recent contents are the newest first, up to the limit, of this user only', async () => {
      const [ada, bob] = [await memories.newUser(), await memories.newUser()];
      await memories.repo.insertMany([
        memory(ada, `${ada}-1`, 1000, { content: 'old' }),
        memory(ada, `${ada}-2`, 2000, { content: 'newer' }),
        memory(ada, `${ada}-3`, 3000, { content: 'newest' }),
        memory(bob, `${bob}-1`, 4000, { content: 'not hers' }),
      ]);
      assert.deepEqual(
        (await memories.repo.recentContents(ada, 2)).map((m) => m.content),
        ['newest', 'newer'],
      );
    });
  });
}
