import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { createTestApp, type DialectUnderTest, dialects, type TestApp } from '../helpers/app.js';

type ListFilter = Parameters<TestApp['ctx']['repos']['conversations']['list']>[1];

// Every filter of the conversation list is served by an index, so a page stays fast at
// 100,000 conversations. The plan must name an index of conversations and never a full scan of it.
const PLAN: Record<DialectUnderTest, { index: RegExp; fullScan: RegExp }> = {
  sqlite: { index: /USING (COVERING )?INDEX conversations_/, fullScan: /SCAN c\b(?! USING)/ },
  postgres: {
    index: /Index (Only )?Scan( Backward)? using conversations_\w+ on conversations c\b/,
    fullScan: /Seq Scan on conversations/,
  },
};

for (const dialect of dialects()) {
  describe(`conversation list query plans (${dialect})`, () => {
    let t: TestApp;

    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    const plan = async (filters: ListFilter) => {
      const query = t.ctx.repos.conversations.listQuery('u1', filters).compile();
      const explain = CompiledQuery.raw(`EXPLAIN ${dialect === 'sqlite' ? 'QUERY PLAN ' : ''}${query.sql}`, [
        ...query.parameters,
      ]);
      // PostgreSQL scans a near-empty table sequentially whatever its indexes; forbidding that shows
      // whether an index can serve the query at all.
      const rows = await t.ctx.store.db.transaction().execute(async (tx) => {
        if (dialect === 'postgres') await sql`SET LOCAL enable_seqscan = off`.execute(tx);
        return (await tx.executeQuery(explain)).rows as Array<Record<string, string>>;
      });
      return rows.map((r) => r.detail ?? r['QUERY PLAN']).join(' | ');
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
        assert.match(detail, PLAN[dialect].index, detail);
        assert.doesNotMatch(detail, PLAN[dialect].fullScan, detail);
      });
    }
  });
}
