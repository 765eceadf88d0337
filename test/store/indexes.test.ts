import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/app.js';

// Every filter of the conversation list is served by an index, so a page stays fast at
// 100,000 conversations. SQLite's plan must name an index and never a full scan of conversations.
describe('conversation list query plans (sqlite)', () => {
  let t: TestApp;

  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  const plan = async (filters: Parameters<TestApp['ctx']['repos']['conversations']['list']>[1]) => {
    const query = t.ctx.repos.conversations.listQuery('u1', filters).compile();
    const rows = await t.ctx.store.db.executeQuery(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
    );
    return (rows.rows as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
  };

  const base = { statuses: ['completed'], includeDiscarded: false, limit: 25, offset: 0 };

  for (const [name, extra] of [
    ['no filter', {}],
    ['date range', { startDate: 1, endDate: 2 }],
    ['categories', { categories: ['work', 'travel'] }],
    ['folder', { folderId: 'f1' }],
    ['starred', { starred: true }],
  ] as const) {
    test(`${name} uses an index`, async () => {
      const detail = await plan({ ...base, ...extra });
      assert.match(detail, /USING (COVERING )?INDEX conversations_/, detail);
      assert.doesNotMatch(detail, /SCAN c\b(?! USING)/, detail);
    });
  }
});
