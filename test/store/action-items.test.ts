import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ActionItemsRepository } from '../../src/store/repositories/action-items.js';
import type { ActionItemsTable } from '../../src/store/schema.js';
import { dialects, repositorySuite } from '../helpers/store.js';
import { addConversation } from './conversation-rows.js';
import { ownedRowCases } from './owned-rows.js';

const item = (
  userId: string,
  id: string,
  createdAt: number,
  fields: Partial<ActionItemsTable> = {},
): ActionItemsTable => ({
  id,
  user_id: userId,
  conversation_id: null,
  description: `Item ${id}`,
  completed: 0,
  completed_at: null,
  due_at: null,
  created_at: createdAt,
  updated_at: createdAt,
  ...fields,
});

for (const dialect of dialects()) {
  describe(`action items repository (${dialect})`, () => {
    const items = repositorySuite(dialect, (store) => new ActionItemsRepository(store.db));

    ownedRowCases({
      newUser: items.newUser,
      insert: (userId, id, createdAt) => items.repo.insertMany([item(userId, id, createdAt)]),
      find: (userId, id) => items.repo.findById(userId, id),
      setText: (userId, id, description) => items.repo.update(userId, id, { description }),
      text: (row) => row.description,
      delete: (userId, id) => items.repo.delete(userId, id),
      pageAfter: (userId, cursor, limit) => items.repo.pageAfter(userId, cursor, limit),
    });

    test('the list shows open items first, dated before undated (soonest first), ties newest first', async () => {
      const ada = await items.newUser();
      await items.repo.insertMany([
        item(ada, `${ada}-done`, 1000, { completed: 1, completed_at: 1500, due_at: 100 }),
        item(ada, `${ada}-undated-old`, 1000),
        item(ada, `${ada}-undated-new`, 2000),
        item(ada, `${ada}-due-late`, 1000, { due_at: 9000 }),
        item(ada, `${ada}-due-soon`, 1000, { due_at: 5000 }),
      ]);
      const listed = await items.repo.list(ada, { limit: 10, offset: 0 });
      assert.deepEqual(
        listed.map((r) => r.id.slice(ada.length + 1)),
        ['due-soon', 'due-late', 'undated-new', 'undated-old', 'done'],
      );
    });

    test('de-duplication candidates: recent items elsewhere, and the touched items of this conversation', async () => {
      const ada = await items.newUser();
      const [here, other] = [await addConversation(items.store, ada), await addConversation(items.store, ada)];
      await items.repo.insertMany([
        item(ada, `${ada}-recent-elsewhere`, 5000, { conversation_id: other }),
        item(ada, `${ada}-recent-by-hand`, 5000),
        item(ada, `${ada}-old-elsewhere`, 999, { conversation_id: other }),
        item(ada, `${ada}-here-untouched`, 5000, { conversation_id: here }),
        item(ada, `${ada}-here-completed`, 10, { conversation_id: here, completed: 1, completed_at: 20 }),
        item(ada, `${ada}-here-edited`, 10, { conversation_id: here, updated_at: 30 }),
      ]);
      const bob = await items.newUser();
      await items.repo.insertMany([item(bob, `${bob}-bobs`, 5000)]);
      const candidates = await items.repo.dedupCandidates(ada, 1000, here);
      assert.deepEqual(candidates.map((r) => r.id.slice(ada.length + 1)).sort(), [
        'here-completed',
        'here-edited',
        'recent-by-hand',
        'recent-elsewhere',
      ]);
    });

    test("a re-extraction deletes only the conversation's untouched items, of this user", async () => {
      const ada = await items.newUser();
      const here = await addConversation(items.store, ada);
      await items.repo.insertMany([
        item(ada, `${ada}-untouched`, 10, { conversation_id: here }),
        item(ada, `${ada}-completed`, 10, { conversation_id: here, completed: 1, completed_at: 20 }),
        item(ada, `${ada}-edited`, 10, { conversation_id: here, updated_at: 30 }),
      ]);
      const bob = await items.newUser();
      await items.repo.deleteUntouchedForConversation(bob, here);
      assert.equal((await items.repo.list(ada, { limit: 10, offset: 0 })).length, 3);
      await items.repo.deleteUntouchedForConversation(ada, here);
      assert.deepEqual(
        (await items.repo.list(ada, { limit: 10, offset: 0 })).map((r) => r.id.slice(ada.length + 1)).sort(),
        ['completed', 'edited'],
      );
    });
  });
}
