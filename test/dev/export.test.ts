import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createUser, dialects, type TestUser } from '../helpers/app.js';
import { appWithTwoUsers } from '../helpers/suite.js';
import { seedActionItem, seedConversation, seedMemory } from './fixtures.js';

type Line = Record<string, unknown> & { type: string };

for (const dialect of dialects()) {
  describe(`developer data export (${dialect})`, () => {
    const { t, ada, bob } = appWithTwoUsers(dialect);

    const exportOf = async (user: TestUser) => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/dev/user/export', headers: user.auth });
      const lines: Line[] = res.body
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      return { res, lines };
    };

    test('streams NDJSON: a header first, every record, a trailer with counts', async () => {
      const user = await createUser(t.ctx, { name: 'Grace' });
      const folder = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/dev/user/folders',
          headers: user.auth,
          payload: { name: 'Work' },
        })
      ).json();
      const conversationId = await seedConversation(t.ctx, user.uid, {
        folderId: folder.id,
        segments: ['hello', 'world'],
      });
      await seedActionItem(t.ctx, user.uid, { description: 'Follow up', conversationId });
      await seedMemory(t.ctx, user.uid, { content: 'Likes jazz', conversationId });
      const goal = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/dev/user/goals',
          headers: user.auth,
          payload: { title: 'Run', target_value: 5 },
        })
      ).json();
      await t.app.inject({
        method: 'PATCH',
        url: `/v1/dev/user/goals/${goal.id}/progress?current_value=2`,
        headers: user.auth,
      });

      const { res, lines } = await exportOf(user);
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/x-ndjson/);
      assert.match(
        String(res.headers['content-disposition']),
        /attachment; filename="keepsake-export-\d{4}-\d{2}-\d{2}\.ndjson"/,
      );
      assert.ok(res.headers['x-ratelimit-limit'], "res.headers['x-ratelimit-limit']");
      const [header] = lines;
      assert.equal(header.type, 'export');
      assert.equal(header.version, 1);
      assert.deepEqual(header.user, { id: user.uid, name: 'Grace', email: null, timezone: 'UTC' });
      assert.deepEqual(header.sections, ['folders', 'conversations', 'memories', 'action_items', 'goals']);
      assert.deepEqual(
        lines.map((l) => l.type),
        ['export', 'folder', 'conversation', 'memory', 'action_item', 'goal', 'end'],
      );
      const conversation = lines[2] as Line & {
        transcript_segments: Array<{ text: string }>;
        structured: { action_items: unknown[] };
      };
      assert.deepEqual(
        conversation.transcript_segments.map((s) => s.text),
        ['hello', 'world'],
      );
      assert.equal(conversation.structured.action_items.length, 1);
      assert.deepEqual(
        (lines[5] as Line & { history: Array<{ value: number }> }).history.map((h) => h.value),
        [2],
      );
      assert.deepEqual(lines[6], {
        type: 'end',
        counts: { folders: 1, conversations: 1, memories: 1, action_items: 1, goals: 1 },
      });
    });

    test('a conversation created from text carries that text, its source and spec', async () => {
      const user = await createUser(t.ctx, { name: 'Text' });
      const text = 'I need to send the budget to Maria by Friday. We agreed to cut travel costs.';
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/dev/user/conversations',
        headers: user.auth,
        payload: { text, text_source: 'message', text_source_spec: 'inbox' },
      });
      assert.equal(created.statusCode, 200, created.body);
      await seedConversation(t.ctx, user.uid, { segments: ['spoken words'] });
      const conversations = (await exportOf(user)).lines.filter((l) => l.type === 'conversation');
      assert.deepEqual(
        conversations.map((c) => [c.id === created.json().id, c.text, c.text_source, c.text_source_spec]),
        [
          [true, text, 'message', 'inbox'],
          [false, null, null, null],
        ],
      );
      // Why the created one was kept: the keep-or-discard decision, with who made it.
      const kept = conversations.find((c) => c.id === created.json().id) as { relevance?: Record<string, unknown> };
      assert.equal(kept.relevance?.verdict, 'keep', JSON.stringify(kept.relevance));
      assert.equal(typeof kept.relevance?.decided_by, 'string', JSON.stringify(kept.relevance));
    });

    test('pages through more records than one page holds, each exactly once', async () => {
      const user = await createUser(t.ctx);
      const created = new Set<string>();
      // All at the same timestamp, so the (created_at, id) keyset must break ties by id.
      for (let i = 0; i < 60; i++)
        created.add(await seedConversation(t.ctx, user.uid, { createdAt: 1_700_000_000_000 }));
      const { lines } = await exportOf(user);
      const exported = lines.filter((l) => l.type === 'conversation').map((l) => String(l.id));
      assert.equal(exported.length, 60);
      assert.deepEqual(new Set(exported), created);
    });

    test("holds only the caller's data", async () => {
      await seedMemory(t.ctx, bob.uid, { content: "Bob's private memory" });
      const { res } = await exportOf(ada);
      assert.ok(!res.body.includes("Bob's private memory"), '!res.body.includes("Bob\'s private memory")');
    });

    test('needs conversations:read and memories:read', async () => {
      for (const scopes of [['memories:read'], ['conversations:read']]) {
        const user = await createUser(t.ctx, { scopes });
        const missing = scopes[0] === 'memories:read' ? 'conversations:read' : 'memories:read';
        const { res } = await exportOf(user);
        assert.deepEqual(
          [res.statusCode, res.json()],
          [403, { detail: `Insufficient permissions. Required scope: ${missing}` }],
        );
      }
    });

    test('action items and goals are included only with their read scopes', async () => {
      const user = await createUser(t.ctx, { scopes: ['conversations:read', 'memories:read'] });
      await seedActionItem(t.ctx, user.uid, { description: 'Hidden without scope' });
      const { res, lines } = await exportOf(user);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(lines[0].sections, ['folders', 'conversations', 'memories']);
      assert.ok(
        lines.every((l) => l.type !== 'action_item' && l.type !== 'goal'),
        "lines.every((l) => l.type !== 'action_item' && l.type !== 'goal')",
      );
    });
  });
}
