import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { issue } from '../helpers/validation.js';

// Bad input gets a clear 4xx in the contract's shape and writes nothing.
for (const dialect of dialects()) {
  describe(`developer API bad input sweep (${dialect})`, () => {
    let t: TestApp;
    let ada: TestUser;
    let bob: TestUser;
    const ids = { memory: '', item: '', goal: '', folder: '', bobMemory: '', bobItem: '', bobGoal: '', bobFolder: '' };

    before(async () => {
      t = await createTestApp(dialect);
      ada = await createUser(t.ctx);
      bob = await createUser(t.ctx);
      const post = async (user: TestUser, url: string, payload: object) =>
        (await t.app.inject({ method: 'POST', url, headers: user.auth, payload })).json().id as string;
      ids.memory = await post(ada, '/v1/dev/user/memories', { content: 'Ada fact' });
      ids.item = await post(ada, '/v1/dev/user/action-items', { description: 'Ada task' });
      ids.goal = await post(ada, '/v1/dev/user/goals', { title: 'Ada goal', target_value: 5 });
      ids.folder = await post(ada, '/v1/dev/user/folders', { name: 'Ada folder' });
      ids.bobMemory = await post(bob, '/v1/dev/user/memories', { content: 'Bob fact' });
      ids.bobItem = await post(bob, '/v1/dev/user/action-items', { description: 'Bob task' });
      ids.bobGoal = await post(bob, '/v1/dev/user/goals', { title: 'Bob goal', target_value: 5 });
      ids.bobFolder = await post(bob, '/v1/dev/user/folders', { name: 'Bob folder' });
    });
    after(() => t.close());

    /** Everything both users have stored, to compare before and after a rejected request. */
    const snapshot = async () => {
      const db = t.ctx.store.db;
      const byId = { memories: 'id', action_items: 'id', goals: 'id', folders: 'id' } as const;
      const out: Record<string, unknown[]> = {};
      for (const table of Object.keys(byId) as Array<keyof typeof byId>) {
        out[table] = await db.selectFrom(table).selectAll().orderBy('id').execute();
      }
      out.goal_progress = await db.selectFrom('goal_progress').selectAll().orderBy('goal_id').orderBy('day').execute();
      out.conversations = await db
        .selectFrom('conversations')
        .select(['id', 'folder_id', 'starred'])
        .orderBy('id')
        .execute();
      return out;
    };

    const many = (n: number, make: (i: number) => object) => Array.from({ length: n }, (_, i) => make(i));

    const cases: Array<{
      name: string;
      method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
      url: () => string;
      body?: unknown;
      status: number;
      detail?: unknown;
    }> = [
      {
        name: 'memory batch of 26',
        method: 'POST',
        url: () => '/v1/dev/user/memories/batch',
        body: { memories: many(26, (i) => ({ content: `m${i}` })) },
        status: 422,
      },
      {
        name: 'memory batch with a blank content',
        method: 'POST',
        url: () => '/v1/dev/user/memories/batch',
        body: { memories: [{ content: 'ok' }, { content: '  ' }] },
        status: 422,
        detail: issue(['body', 'memories'], 'All memories must have non-empty content'),
      },
      {
        name: 'memory batch with an unknown category',
        method: 'POST',
        url: () => '/v1/dev/user/memories/batch',
        body: { memories: [{ content: 'ok' }, { content: 'x', category: 'gossip' }] },
        status: 422,
      },
      {
        name: 'empty memory content',
        method: 'POST',
        url: () => '/v1/dev/user/memories',
        body: { content: '' },
        status: 422,
      },
      {
        name: '501-character memory content',
        method: 'POST',
        url: () => '/v1/dev/user/memories',
        body: { content: 'x'.repeat(501) },
        status: 422,
      },
      {
        name: 'unknown memory category',
        method: 'POST',
        url: () => '/v1/dev/user/memories',
        body: { content: 'x', category: 'gossip' },
        status: 422,
      },
      {
        name: 'unknown memory visibility',
        method: 'POST',
        url: () => '/v1/dev/user/memories',
        body: { content: 'x', visibility: 'friends' },
        status: 422,
      },
      {
        name: 'memory content of the wrong type',
        method: 'POST',
        url: () => '/v1/dev/user/memories',
        body: { content: 42 },
        status: 422,
      },
      {
        name: 'unknown category in the list filter',
        method: 'GET',
        url: () => '/v1/dev/user/memories?categories=gossip',
        status: 400,
        detail: "Invalid category 'gossip' is not a valid MemoryCategory",
      },
      {
        name: 'memory patch with a valid content and a bad visibility',
        method: 'PATCH',
        url: () => `/v1/dev/user/memories/${ids.memory}`,
        body: { content: 'changed', visibility: 'world' },
        status: 422,
      },
      {
        name: 'memory patch of a 501-character content',
        method: 'PATCH',
        url: () => `/v1/dev/user/memories/${ids.memory}`,
        body: { content: 'y'.repeat(501) },
        status: 422,
      },
      {
        name: "patch of another user's memory",
        method: 'PATCH',
        url: () => `/v1/dev/user/memories/${ids.bobMemory}`,
        body: { content: 'mine now' },
        status: 404,
        detail: 'Memory not found',
      },
      {
        name: "delete of another user's memory",
        method: 'DELETE',
        url: () => `/v1/dev/user/memories/${ids.bobMemory}`,
        status: 404,
        detail: 'Memory not found',
      },
      {
        name: 'action item batch of 51',
        method: 'POST',
        url: () => '/v1/dev/user/action-items/batch',
        body: { action_items: many(51, (i) => ({ description: `t${i}` })) },
        status: 422,
      },
      {
        name: 'action item batch with a blank description',
        method: 'POST',
        url: () => '/v1/dev/user/action-items/batch',
        body: { action_items: [{ description: 'ok' }, { description: ' ' }] },
        status: 422,
        detail: issue(['body', 'action_items'], 'All action items must have non-empty descriptions'),
      },
      {
        name: '501-character description',
        method: 'POST',
        url: () => '/v1/dev/user/action-items',
        body: { description: 'd'.repeat(501) },
        status: 422,
      },
      {
        name: 'malformed due_at',
        method: 'POST',
        url: () => '/v1/dev/user/action-items',
        body: { description: 'x', due_at: 'tomorrow' },
        status: 422,
      },
      {
        name: 'action item patch with a blank description and completion',
        method: 'PATCH',
        url: () => `/v1/dev/user/action-items/${ids.item}`,
        body: { description: ' ', completed: true },
        status: 422,
        detail: issue(['body', 'description'], 'description cannot be empty'),
      },
      {
        name: "patch of another user's action item",
        method: 'PATCH',
        url: () => `/v1/dev/user/action-items/${ids.bobItem}`,
        body: { completed: true },
        status: 404,
        detail: 'Action item not found',
      },
      {
        name: "delete of another user's action item",
        method: 'DELETE',
        url: () => `/v1/dev/user/action-items/${ids.bobItem}`,
        status: 404,
        detail: 'Action item not found',
      },
      {
        name: 'goal target above the max',
        method: 'POST',
        url: () => '/v1/dev/user/goals',
        body: { title: 'g', target_value: 11, max_value: 10 },
        status: 422,
        detail: issue(['body', 'target_value'], 'target_value must be between 0 and 10'),
      },
      {
        name: 'goal min above max',
        method: 'POST',
        url: () => '/v1/dev/user/goals',
        body: { title: 'g', target_value: 1, min_value: 5, max_value: 2 },
        status: 422,
        detail: issue(['body', 'min_value'], 'min_value must not be greater than max_value'),
      },
      {
        name: 'goal with an unknown status',
        method: 'POST',
        url: () => '/v1/dev/user/goals',
        body: { title: 'g', status: 'finished' },
        status: 422,
      },
      {
        name: 'goal value as a string',
        method: 'POST',
        url: () => '/v1/dev/user/goals',
        body: { title: 'g', target_value: 'NaN' },
        status: 422,
      },
      {
        name: 'goal progress below the min',
        method: 'PATCH',
        url: () => `/v1/dev/user/goals/${ids.goal}/progress?current_value=-3`,
        status: 422,
        detail: issue(['query', 'current_value'], 'current_value must be between 0 and 10'),
      },
      {
        name: 'goal progress not a number',
        method: 'PATCH',
        url: () => `/v1/dev/user/goals/${ids.goal}/progress?current_value=nan`,
        status: 422,
      },
      {
        name: 'negative history days',
        method: 'GET',
        url: () => `/v1/dev/user/goals/${ids.goal}/history?days=-5`,
        status: 422,
      },
      {
        name: "progress on another user's goal",
        method: 'PATCH',
        url: () => `/v1/dev/user/goals/${ids.bobGoal}/progress?current_value=3`,
        status: 404,
        detail: 'Goal not found',
      },
      {
        name: "delete of another user's goal",
        method: 'DELETE',
        url: () => `/v1/dev/user/goals/${ids.bobGoal}`,
        status: 404,
        detail: 'Goal not found',
      },
      {
        name: "rename of another user's folder",
        method: 'PATCH',
        url: () => `/v1/dev/user/folders/${ids.bobFolder}`,
        body: { name: 'mine' },
        status: 404,
        detail: 'Folder not found',
      },
      {
        name: 'folder color not a hex color',
        method: 'POST',
        url: () => '/v1/dev/user/folders',
        body: { name: 'f', color: 'blue' },
        status: 422,
      },
      { name: 'limit above 1000', method: 'GET', url: () => '/v1/dev/user/action-items?limit=1001', status: 422 },
      { name: 'negative offset', method: 'GET', url: () => '/v1/dev/user/memories?offset=-1', status: 422 },
      {
        name: 'blank search query',
        method: 'GET',
        url: () => '/v1/dev/user/memories/search?q=%20',
        status: 422,
        detail: issue(['query', 'q'], 'q must contain at least one letter or digit'),
      },
      {
        name: 'unknown body field type in a folder move',
        method: 'PATCH',
        url: () => '/v1/dev/user/conversations/none/folder',
        body: { folder_id: 7 },
        status: 422,
      },
    ];

    for (const c of cases) {
      test(`${c.name} → ${c.status}, nothing written`, async () => {
        const before = await snapshot();
        const res = await t.app.inject({
          method: c.method,
          url: c.url(),
          headers: ada.auth,
          payload: c.body as object | undefined,
        });
        assert.equal(res.statusCode, c.status, res.body);
        const body = res.json();
        if (c.detail !== undefined) assert.deepEqual(body, { detail: c.detail });
        else if (c.status === 422 && Array.isArray(body.detail)) {
          for (const issue of body.detail)
            assert.ok(
              Array.isArray(issue.loc) && typeof issue.msg === 'string' && typeof issue.type === 'string',
              "Array.isArray(issue.loc) && typeof issue.msg === 'string' && typeof issue.type === 'string'",
            );
        } else assert.equal(typeof body.detail, 'string');
        assert.deepEqual(await snapshot(), before);
      });
    }
  });
}
