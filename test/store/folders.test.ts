import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FoldersRepository } from '../../src/store/repositories/folders.js';
import type { FoldersTable } from '../../src/store/schema.js';
import { dialects, repositorySuite } from '../helpers/store.js';
import { addConversation } from './conversation-rows.js';
import { ownedRowCases } from './owned-rows.js';

const folder = (userId: string, id: string, createdAt: number, position = 0): FoldersTable => ({
  id,
  user_id: userId,
  name: `Folder ${id}`,
  description: null,
  color: '#6b7280',
  icon: '📁',
  position,
  created_at: createdAt,
  updated_at: createdAt,
});

for (const dialect of dialects()) {
  describe(`folders repository (${dialect})`, () => {
    const folders = repositorySuite(dialect, (store) => new FoldersRepository(store.db));

    ownedRowCases({
      newUser: folders.newUser,
      insert: (userId, id, createdAt) => folders.repo.insert(folder(userId, id, createdAt)),
      find: (userId, id) => folders.repo.findWithCount(userId, id),
      setText: (userId, id, name) => folders.repo.update(userId, id, { name }),
      text: (row) => row.name,
      delete: (userId, id) => folders.repo.delete(userId, id),
    });

    test('folders list by position, then creation, then id', async () => {
      const ada = await folders.newUser();
      await folders.repo.insert(folder(ada, `${ada}-b`, 1000, 1));
      await folders.repo.insert(folder(ada, `${ada}-late`, 2000, 0));
      await folders.repo.insert(folder(ada, `${ada}-a`, 1000, 1));
      await folders.repo.insert(folder(ada, `${ada}-first`, 3000, -1));
      assert.deepEqual(
        (await folders.repo.listWithCounts(ada)).map((f) => f.id.slice(ada.length + 1)),
        ['first', 'late', 'a', 'b'],
      );
    });

    test('a count holds the completed, kept conversations of the folder only', async () => {
      const ada = await folders.newUser();
      const id = `${ada}-f`;
      await folders.repo.insert(folder(ada, id, 1000));
      await addConversation(folders.store, ada, { folder_id: id });
      await addConversation(folders.store, ada, { folder_id: id });
      await addConversation(folders.store, ada, { folder_id: id, discarded: 1 });
      await addConversation(folders.store, ada, { folder_id: id, status: 'processing' });
      await addConversation(folders.store, ada);
      assert.equal(Number((await folders.repo.findWithCount(ada, id))?.conversation_count), 2);
      assert.deepEqual(
        (await folders.repo.listWithCounts(ada)).map((f) => Number(f.conversation_count)),
        [2],
      );
    });

    test('existence and the next position are per user', async () => {
      const [ada, bob] = [await folders.newUser(), await folders.newUser()];
      assert.equal(await folders.repo.nextPosition(ada), 0);
      await folders.repo.insert(folder(ada, `${ada}-f`, 1000, 4));
      assert.deepEqual([await folders.repo.nextPosition(ada), await folders.repo.nextPosition(bob)], [5, 0]);
      assert.deepEqual(
        [await folders.repo.exists(ada, `${ada}-f`), await folders.repo.exists(bob, `${ada}-f`)],
        [true, false],
      );
    });

    test('deleting a folder keeps its conversations, without a folder', async () => {
      const ada = await folders.newUser();
      const id = `${ada}-f`;
      await folders.repo.insert(folder(ada, id, 1000));
      const conversationId = await addConversation(folders.store, ada, { folder_id: id });
      assert.equal(await folders.repo.delete(ada, id), true);
      const row = await folders.store.db
        .selectFrom('conversations')
        .select('folder_id')
        .where('id', '=', conversationId)
        .executeTakeFirst();
      assert.deepEqual(row, { folder_id: null });
    });
  });
}
