import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createUser, dialects, type TestUser } from '../helpers/app.js';
import { appWithTwoUsers } from '../helpers/suite.js';
import { invalid } from '../helpers/validation.js';
import { seedConversation } from './fixtures.js';

interface Folder {
  id: string;
  name: string;
  description: string | null;
  color: string;
  icon: string;
  order: number;
  created_at: string;
  updated_at: string;
  is_default: boolean;
  is_system: boolean;
  conversation_count: number;
}

for (const dialect of dialects()) {
  describe(`developer folders API (${dialect})`, () => {
    const { t, ada, bob, call, postOk } = appWithTwoUsers(dialect);

    const createFolder = (user: TestUser, payload: Record<string, unknown>): Promise<Folder> =>
      postOk(user, '/v1/dev/user/folders', payload);
    const folders = async (user: TestUser): Promise<Folder[]> =>
      (await call(user, 'GET', '/v1/dev/user/folders')).json();

    test('a user without folders gets an empty list (no default folders are created)', async () => {
      const user = await createUser(t.ctx);
      assert.deepEqual(await folders(user), []);
      assert.deepEqual(await folders(user), []);
    });

    test('create fills defaults and lists folders in order with the reference fields', async () => {
      const user = await createUser(t.ctx);
      const work = await createFolder(user, { name: ' Work ', color: '#112233', description: 'Job stuff' });
      const home = await createFolder(user, { name: 'Home' });
      assert.deepEqual(
        { ...work, id: undefined },
        {
          id: undefined,
          name: 'Work',
          description: 'Job stuff',
          color: '#112233',
          icon: '📁',
          created_at: work.created_at,
          updated_at: work.updated_at,
          order: 0,
          is_default: false,
          is_system: false,
          conversation_count: 0,
        },
      );
      assert.equal(home.order, 1);
      assert.deepEqual(
        (await folders(user)).map((f) => f.name),
        ['Work', 'Home'],
      );
    });

    test('conversation_count counts the completed, non-discarded conversations of each folder', async () => {
      const user = await createUser(t.ctx);
      const a = await createFolder(user, { name: 'A' });
      const b = await createFolder(user, { name: 'B' });
      await seedConversation(t.ctx, user.uid, { folderId: a.id });
      await seedConversation(t.ctx, user.uid, { folderId: a.id });
      await seedConversation(t.ctx, user.uid, { folderId: a.id, discarded: true });
      await seedConversation(t.ctx, user.uid, { folderId: a.id, status: 'in_progress' });
      await seedConversation(t.ctx, user.uid, { folderId: b.id });
      const counts = Object.fromEntries((await folders(user)).map((f) => [f.name, f.conversation_count]));
      assert.deepEqual(counts, { A: 2, B: 1 });
    });

    test('patch renames and recolors; an empty patch → 422', async () => {
      const folder = await createFolder(ada, { name: 'Drafts' });
      const res = await call(ada, 'PATCH', `/v1/dev/user/folders/${folder.id}`, {
        name: 'Ideas',
        color: '#abcdef',
        order: 7,
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual([res.json().name, res.json().color, res.json().order], ['Ideas', '#abcdef', 7]);
      const empty = await call(ada, 'PATCH', `/v1/dev/user/folders/${folder.id}`, {});
      assert.deepEqual(
        [empty.statusCode, empty.json()],
        [422, invalid(['body'], 'At least one field must be provided')],
      );
    });

    test('bad names and colors → 422', async () => {
      for (const body of [{ name: '' }, { name: '   ' }, { name: 'x', color: 'red' }, { name: 'x'.repeat(101) }]) {
        assert.equal((await call(ada, 'POST', '/v1/dev/user/folders', body)).statusCode, 422, JSON.stringify(body));
      }
    });

    test('moving a conversation into a folder shows in the conversation, the list filter and the count', async () => {
      const user = await createUser(t.ctx);
      const folder = await createFolder(user, { name: 'Trips' });
      const conversationId = await seedConversation(t.ctx, user.uid);
      const moved = await call(user, 'PATCH', `/v1/dev/user/conversations/${conversationId}/folder`, {
        folder_id: folder.id,
      });
      assert.equal(moved.statusCode, 200);
      assert.deepEqual([moved.json().folder_id, moved.json().folder_name], [folder.id, 'Trips']);
      const listed = (await call(user, 'GET', `/v1/dev/user/conversations?folder_id=${folder.id}`)).json();
      assert.deepEqual(
        listed.map((c: { id: string }) => c.id),
        [conversationId],
      );
      assert.equal((await folders(user))[0].conversation_count, 1);
    });

    test('folder_id null takes a conversation out of its folder', async () => {
      const user = await createUser(t.ctx);
      const folder = await createFolder(user, { name: 'Temp' });
      const conversationId = await seedConversation(t.ctx, user.uid, { folderId: folder.id });
      const res = await call(user, 'PATCH', `/v1/dev/user/conversations/${conversationId}/folder`, { folder_id: null });
      assert.deepEqual([res.json().folder_id, res.json().folder_name], [null, null]);
    });

    test("moving into another user's folder → 404 Folder not found, nothing changes", async () => {
      const bobsFolder = await createFolder(bob, { name: "Bob's" });
      const conversationId = await seedConversation(t.ctx, ada.uid);
      const res = await call(ada, 'PATCH', `/v1/dev/user/conversations/${conversationId}/folder`, {
        folder_id: bobsFolder.id,
      });
      assert.deepEqual([res.statusCode, res.json()], [404, { detail: 'Folder not found' }]);
      assert.equal((await t.ctx.repos.conversations.findById(ada.uid, conversationId))?.folder_id, null);
    });

    test("moving or starring another user's conversation → 404 Conversation not found", async () => {
      const folder = await createFolder(ada, { name: 'Mine' });
      const bobsConversation = await seedConversation(t.ctx, bob.uid);
      const moved = await call(ada, 'PATCH', `/v1/dev/user/conversations/${bobsConversation}/folder`, {
        folder_id: folder.id,
      });
      const starred = await call(ada, 'PATCH', `/v1/dev/user/conversations/${bobsConversation}/starred`, {
        starred: true,
      });
      assert.deepEqual([moved.statusCode, starred.statusCode], [404, 404]);
      assert.deepEqual(starred.json(), { detail: 'Conversation not found' });
      assert.equal((await t.ctx.repos.conversations.findById(bob.uid, bobsConversation))?.starred, 0);
    });

    test('starring makes the starred list filter usable', async () => {
      const user = await createUser(t.ctx);
      const starredId = await seedConversation(t.ctx, user.uid);
      const plainId = await seedConversation(t.ctx, user.uid);
      const res = await call(user, 'PATCH', `/v1/dev/user/conversations/${starredId}/starred`, { starred: true });
      assert.equal(res.json().starred, true);
      const ids = async (query: string) =>
        (await call(user, 'GET', `/v1/dev/user/conversations${query}`)).json().map((c: { id: string }) => c.id);
      assert.deepEqual(await ids('?starred=true'), [starredId]);
      assert.deepEqual(await ids('?starred=false'), [plainId]);
    });

    test('deleting a folder keeps its conversations, without a folder', async () => {
      const user = await createUser(t.ctx);
      const folder = await createFolder(user, { name: 'Gone soon' });
      const conversationId = await seedConversation(t.ctx, user.uid, { folderId: folder.id });
      const res = await call(user, 'DELETE', `/v1/dev/user/folders/${folder.id}`);
      assert.deepEqual([res.statusCode, res.json()], [200, { success: true }]);
      const conversation = await t.ctx.repos.conversations.findById(user.uid, conversationId);
      assert.equal(conversation?.folder_id, null);
      assert.deepEqual(await folders(user), []);
    });

    test("another user's folder cannot be read, renamed or deleted", async () => {
      const folder = await createFolder(bob, { name: 'Private' });
      assert.ok(
        (await folders(ada)).every((f) => f.id !== folder.id),
        '(await folders(ada)).every((f) => f.id !== folder.id)',
      );
      assert.equal((await call(ada, 'PATCH', `/v1/dev/user/folders/${folder.id}`, { name: 'x' })).statusCode, 404);
      assert.equal((await call(ada, 'DELETE', `/v1/dev/user/folders/${folder.id}`)).statusCode, 404);
      assert.equal((await folders(bob)).find((f) => f.id === folder.id)?.name, 'Private');
    });

    test('folders need conversations:read to list and conversations:write to change', async () => {
      const memoriesOnly = await createUser(t.ctx, { scopes: ['memories:read'] });
      const reader = await createUser(t.ctx, { scopes: ['conversations:read'] });
      const list = await call(memoriesOnly, 'GET', '/v1/dev/user/folders');
      assert.deepEqual(
        [list.statusCode, list.json()],
        [403, { detail: 'Insufficient permissions. Required scope: conversations:read' }],
      );
      assert.equal((await call(reader, 'GET', '/v1/dev/user/folders')).statusCode, 200);
      const create = await call(reader, 'POST', '/v1/dev/user/folders', { name: 'x' });
      assert.deepEqual(create.json(), { detail: 'Insufficient permissions. Required scope: conversations:write' });
    });
  });
}
