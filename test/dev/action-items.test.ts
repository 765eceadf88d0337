import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { createUser, dialects, type TestUser } from '../helpers/app.js';
import { appWithTwoUsers } from '../helpers/suite.js';
import { invalid } from '../helpers/validation.js';
import { countRows, seedActionItem, seedConversation } from './fixtures.js';

interface Item {
  id: string;
  description: string;
  completed: boolean;
  completed_at: string | null;
  conversation_id: string | null;
  created_at: string;
  updated_at: string;
  due_at: string | null;
}

const HOUR = 3600_000;

for (const dialect of dialects()) {
  describe(`developer action items API (${dialect})`, () => {
    const clock = new ManualClock();
    const { t, ada, bob, call, postOk } = appWithTwoUsers(dialect, { clock });
    const create = (user: TestUser, payload: Record<string, unknown>): Promise<Item> => {
      clock.advance(1000);
      return postOk(user, '/v1/dev/user/action-items', payload);
    };
    const list = async (user: TestUser, query = ''): Promise<Item[]> =>
      (await call(user, 'GET', `/v1/dev/user/action-items${query}`)).json();

    test('create trims, stores no conversation and stamps times', async () => {
      const item = await create(ada, { description: '  Call the plumber  ', due_at: '2026-12-01T09:00:00+01:00' });
      assert.equal(item.description, 'Call the plumber');
      assert.equal(item.completed, false);
      assert.equal(item.completed_at, null);
      assert.equal(item.conversation_id, null);
      assert.equal(item.due_at, '2026-12-01T08:00:00.000Z');
      assert.equal(item.created_at, new Date(clock.now()).toISOString());
    });

    test('a due date without an offset is UTC; a bare date is midnight UTC; year 0 or 30 February → 422', async () => {
      const naive = await create(ada, { description: 'Naive due', due_at: '2027-01-10T09:00:00' });
      assert.equal(naive.due_at, '2027-01-10T09:00:00.000Z');
      const bare = await create(ada, { description: 'Bare due', due_at: '2027-01-11' });
      assert.equal(bare.due_at, '2027-01-11T00:00:00.000Z');
      for (const due_at of ['0000-01-01T00:00:00Z', '2027-02-30T10:00:00Z', '2027-01-10T25:00:00']) {
        const res = await call(ada, 'POST', '/v1/dev/user/action-items', { description: 'Bad', due_at });
        assert.equal(res.statusCode, 422, due_at);
        assert.deepEqual(res.json().detail[0].loc, ['body', 'due_at']);
      }
    });

    test('an item created completed gets completed_at', async () => {
      const item = await create(ada, { description: 'Already done', completed: true });
      assert.equal(item.completed, true);
      assert.equal(item.completed_at, new Date(clock.now()).toISOString());
    });

    test('whitespace-only description → 422 description cannot be empty', async () => {
      const res = await call(ada, 'POST', '/v1/dev/user/action-items', { description: '  ' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), invalid(['body', 'description'], 'description cannot be empty'));
    });

    test('list orders open before completed, due soonest first, then undated newest first', async () => {
      const user = await createUser(t.ctx);
      const now = clock.now();
      const done = await seedActionItem(t.ctx, user.uid, { description: 'done', completed: true, createdAt: now + 5 });
      const undatedOld = await seedActionItem(t.ctx, user.uid, { description: 'undated old', createdAt: now + 1 });
      const undatedNew = await seedActionItem(t.ctx, user.uid, { description: 'undated new', createdAt: now + 2 });
      const dueLater = await seedActionItem(t.ctx, user.uid, {
        description: 'due later',
        dueAt: now + 48 * HOUR,
        createdAt: now + 3,
      });
      const dueSoon = await seedActionItem(t.ctx, user.uid, {
        description: 'due soon',
        dueAt: now + HOUR,
        createdAt: now + 4,
      });
      assert.deepEqual(
        (await list(user)).map((i) => i.id),
        [dueSoon, dueLater, undatedNew, undatedOld, done],
      );
    });

    test('filters: completed, conversation_id, and inclusive created_at bounds', async () => {
      const user = await createUser(t.ctx);
      const base = clock.now();
      const conversationId = await seedConversation(t.ctx, user.uid);
      const a = await seedActionItem(t.ctx, user.uid, { description: 'a', createdAt: base + 1000, conversationId });
      const b = await seedActionItem(t.ctx, user.uid, { description: 'b', createdAt: base + 2000, completed: true });
      const c = await seedActionItem(t.ctx, user.uid, { description: 'c', createdAt: base + 3000 });
      const at = (ms: number) => encodeURIComponent(new Date(base + ms).toISOString());
      assert.deepEqual(
        (await list(user, '?completed=true')).map((i) => i.id),
        [b],
      );
      assert.deepEqual(
        (await list(user, '?completed=false')).map((i) => i.id),
        [c, a],
      );
      assert.deepEqual(
        (await list(user, `?conversation_id=${conversationId}`)).map((i) => i.id),
        [a],
      );
      assert.deepEqual(
        (await list(user, `?start_date=${at(1000)}&end_date=${at(2000)}`)).map((i) => i.id).sort(),
        [a, b].sort(),
      );
      // Without an offset the bounds are UTC; a bare end date covers its whole day.
      const naive = (ms: number) => new Date(base + ms).toISOString().slice(0, 19);
      assert.deepEqual(
        (await list(user, `?start_date=${naive(2000)}&end_date=${naive(3000)}`)).map((i) => i.id).sort(),
        [b, c].sort(),
      );
      // Booleans as pydantic spells them; anything else → 422.
      assert.deepEqual(
        (await list(user, '?completed=1')).map((i) => i.id),
        [b],
      );
      assert.deepEqual(
        (await list(user, '?completed=No')).map((i) => i.id),
        [c, a],
      );
      const maybe = await call(user, 'GET', '/v1/dev/user/action-items?completed=maybe');
      assert.deepEqual(maybe.json().detail[0].loc, ['query', 'completed']);
      const day = new Date(base).toISOString().slice(0, 10);
      assert.equal((await list(user, `?start_date=${day}&end_date=${day}`)).length, 3);
    });

    test('list defaults to 100 items and pages with offset', async () => {
      const user = await createUser(t.ctx);
      const batch = Array.from({ length: 50 }, (_, i) => ({ description: `task ${i}` }));
      for (let i = 0; i < 3; i++) await call(user, 'POST', '/v1/dev/user/action-items/batch', { action_items: batch });
      assert.equal((await list(user)).length, 100);
      assert.equal((await list(user, '?offset=100')).length, 50);
    });

    test('batch of more than 50 → 422 and nothing is written', async () => {
      const user = await createUser(t.ctx);
      const batch = Array.from({ length: 51 }, (_, i) => ({ description: `task ${i}` }));
      const res = await call(user, 'POST', '/v1/dev/user/action-items/batch', { action_items: batch });
      assert.equal(res.statusCode, 422);
      assert.equal(await countRows(t.ctx, 'action_items', user.uid), 0);
    });

    test('batch with a blank description → 422 with the reference detail, nothing written', async () => {
      const user = await createUser(t.ctx);
      const res = await call(user, 'POST', '/v1/dev/user/action-items/batch', {
        action_items: [{ description: 'fine' }, { description: '\t' }],
      });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(
        res.json(),
        invalid(['body', 'action_items'], 'All action items must have non-empty descriptions'),
      );
      assert.equal(await countRows(t.ctx, 'action_items', user.uid), 0);
    });

    test('patch completed: true sets completed_at, false clears it', async () => {
      const item = await create(ada, { description: 'Water plants' });
      clock.advance(5000);
      const done: Item = (await call(ada, 'PATCH', `/v1/dev/user/action-items/${item.id}`, { completed: true })).json();
      assert.equal(done.completed, true);
      assert.equal(done.completed_at, new Date(clock.now()).toISOString());
      assert.equal(done.updated_at, new Date(clock.now()).toISOString());
      const reopened: Item = (
        await call(ada, 'PATCH', `/v1/dev/user/action-items/${item.id}`, { completed: false })
      ).json();
      assert.equal(reopened.completed, false);
      assert.equal(reopened.completed_at, null);
    });

    test('patch due_at: null removes the due date; leaving it out keeps it', async () => {
      const item = await create(ada, { description: 'Renew passport', due_at: '2027-01-10T00:00:00Z' });
      const renamed: Item = (
        await call(ada, 'PATCH', `/v1/dev/user/action-items/${item.id}`, { description: 'Renew ID' })
      ).json();
      assert.equal(renamed.due_at, '2027-01-10T00:00:00.000Z');
      const cleared: Item = (await call(ada, 'PATCH', `/v1/dev/user/action-items/${item.id}`, { due_at: null })).json();
      assert.equal(cleared.due_at, null);
      assert.equal((await t.ctx.repos.actionItems.findById(ada.uid, item.id))?.due_at, null);
    });

    test('patch with no effective field → 422 At least one field must be provided', async () => {
      const item = await create(ada, { description: 'Stay the same' });
      for (const body of [{}, { description: null, completed: null }]) {
        const res = await call(ada, 'PATCH', `/v1/dev/user/action-items/${item.id}`, body);
        assert.equal(res.statusCode, 422);
        assert.deepEqual(res.json(), invalid(['body'], 'At least one field must be provided'));
      }
    });

    test("patch or delete of an unknown or another user's item → 404 Action item not found", async () => {
      const item = await create(ada, { description: "Ada's errand" });
      for (const [user, id] of [
        [bob, item.id],
        [ada, 'no-such-item'],
      ] as const) {
        const patched = await call(user, 'PATCH', `/v1/dev/user/action-items/${id}`, { completed: true });
        const deleted = await call(user, 'DELETE', `/v1/dev/user/action-items/${id}`);
        assert.deepEqual([patched.statusCode, deleted.statusCode], [404, 404]);
        assert.deepEqual(patched.json(), { detail: 'Action item not found' });
      }
      assert.equal((await t.ctx.repos.actionItems.findById(ada.uid, item.id))?.completed, 0);
    });

    test('delete answers success and the item is gone', async () => {
      const item = await create(ada, { description: 'Temporary' });
      const res = await call(ada, 'DELETE', `/v1/dev/user/action-items/${item.id}`);
      assert.deepEqual([res.statusCode, res.json()], [200, { success: true }]);
      assert.equal(await t.ctx.repos.actionItems.findById(ada.uid, item.id), undefined);
    });

    test("one user never sees another's items", async () => {
      await create(bob, { description: "Bob's chore" });
      assert.ok(
        (await list(ada, '?limit=1000')).every((i) => i.description !== "Bob's chore"),
        "(await list(ada, '?limit=1000')).every((i) => i.description !== \"Bob's chore\")",
      );
    });

    describe('items extracted from conversations', () => {
      test('appear in the list with their conversation_id and inline in the conversation', async () => {
        const user = await createUser(t.ctx);
        const conversationId = await seedConversation(t.ctx, user.uid);
        const itemId = await seedActionItem(t.ctx, user.uid, { description: 'Send the slides', conversationId });
        const [listed] = await list(user, `?conversation_id=${conversationId}`);
        const conversation = (await call(user, 'GET', `/v1/dev/user/conversations/${conversationId}`)).json();
        assert.equal(listed.id, itemId);
        assert.equal(listed.conversation_id, conversationId);
        assert.deepEqual(conversation.structured.action_items, [listed]);
      });

      test('a PATCH through the action-items API shows in the conversation read', async () => {
        const user = await createUser(t.ctx);
        const conversationId = await seedConversation(t.ctx, user.uid);
        const itemId = await seedActionItem(t.ctx, user.uid, {
          description: 'Book flights',
          conversationId,
          dueAt: clock.now() + HOUR,
        });
        clock.advance(1000);
        await call(user, 'PATCH', `/v1/dev/user/action-items/${itemId}`, {
          completed: true,
          due_at: null,
          description: 'Book trains',
        });
        const conversation = (await call(user, 'GET', `/v1/dev/user/conversations/${conversationId}`)).json();
        const [inline] = conversation.structured.action_items;
        assert.equal(inline.description, 'Book trains');
        assert.equal(inline.completed, true);
        assert.equal(inline.completed_at, new Date(clock.now()).toISOString());
        assert.equal(inline.due_at, null);
      });

      test('deleting an item removes it from the conversation, and deleting the conversation removes its items', async () => {
        const user = await createUser(t.ctx);
        const conversationId = await seedConversation(t.ctx, user.uid);
        const first = await seedActionItem(t.ctx, user.uid, { description: 'First', conversationId });
        const second = await seedActionItem(t.ctx, user.uid, { description: 'Second', conversationId });
        await call(user, 'DELETE', `/v1/dev/user/action-items/${first}`);
        const conversation = (await call(user, 'GET', `/v1/dev/user/conversations/${conversationId}`)).json();
        assert.deepEqual(
          conversation.structured.action_items.map((i: Item) => i.id),
          [second],
        );
        await call(user, 'DELETE', `/v1/dev/user/conversations/${conversationId}`);
        assert.deepEqual(await list(user), []);
      });
    });
  });
}
