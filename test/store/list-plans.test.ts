import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Compilable, CompiledQuery, sql } from 'kysely';
import { createTestApp, dialects, type TestApp } from '../helpers/app.js';

type Repos = TestApp['ctx']['repos'];
type ConversationFilter = Parameters<Repos['conversations']['list']>[1];

// A deep page costs an index walk and nothing per skipped row (issue 18): the keys of every list page
// come from a covering index in list order, with no sort of the matches (SQLite: no temp b-tree) and no
// read of the table; the page's own rows are then fetched by primary key.
const DEV_LIST = { statuses: ['completed'], includeDiscarded: false, limit: 25 } as const;
const DEEP = 5000;

const CONVERSATION_FILTERS: Array<[string, Partial<ConversationFilter>]> = [
  ['no filter', {}],
  ['date range', { startDate: 1, endDate: 2 }],
  ['one category', { categories: ['work'] }],
  ['two categories (merged ranges)', { categories: ['work', 'travel'] }],
  ['four categories (merged ranges)', { categories: ['work', 'travel', 'health', 'family'] }],
  ['two categories and a date range', { categories: ['work', 'travel'], startDate: 1, endDate: 2 }],
  ['folder', { folderId: 'f1' }],
  ['starred', { starred: true }],
  ['starred in a category', { starred: true, categories: ['work'] }],
  ['folder and starred', { folderId: 'f1', starred: false }],
  [
    'integration read: several statuses, discarded too',
    { statuses: ['completed', 'processing'], includeDiscarded: true },
  ],
  ['integration read: every status, kept only', { statuses: [] }],
];

for (const dialect of dialects()) {
  describe(`list page query plans (${dialect})`, () => {
    let t: TestApp;
    let repos: Repos;

    before(async () => {
      t = await createTestApp(dialect);
      repos = t.ctx.repos;
    });
    after(() => t.close());

    /**
     * The plan's lines. On PostgreSQL the tables are near-empty, where a scan and a sort cost nothing:
     * forbidding both shows whether the indexes can give the order at all.
     */
    const plan = async (query: Compilable<unknown>) => {
      const compiled = query.compile();
      const explain = `EXPLAIN ${dialect === 'sqlite' ? 'QUERY PLAN ' : ''}${compiled.sql}`;
      const rows = await t.ctx.store.db.transaction().execute(async (tx) => {
        if (dialect === 'postgres')
          for (const setting of ['enable_seqscan', 'enable_sort', 'enable_bitmapscan'])
            await sql`SELECT set_config(${setting}, 'off', true)`.execute(tx);
        return (await tx.executeQuery(CompiledQuery.raw(explain, [...compiled.parameters]))).rows;
      });
      return (rows as Array<Record<string, string>>).map((r) => r.detail ?? r['QUERY PLAN']).join(' | ');
    };

    /**
     * Keys walked on a covering index, in order: no sort, no table read, no full scan. PostgreSQL 15 does
     * not merge the ranges of a category list (it appends them and keeps the top rows, a heap sort over
     * keys read from the index only): there, `merged` allows that sort.
     */
    const assertIndexWalk = (detail: string, indexPrefix: string, merged = false) => {
      if (dialect === 'sqlite') {
        assert.match(detail, new RegExp(`USING COVERING INDEX ${indexPrefix}`), detail);
        assert.doesNotMatch(detail, /TEMP B-TREE|USING INDEX (?!.*COVERING)|\bSCAN (?!p\b)/, detail);
      } else {
        assert.match(detail, new RegExp(`Index Only Scan( Backward)? using ${indexPrefix}`), detail);
        assert.doesNotMatch(detail, merged ? /Seq Scan|Bitmap/ : /\bSort\b|Seq Scan|Bitmap/, detail);
      }
    };

    for (const [name, extra] of CONVERSATION_FILTERS) {
      test(`conversations, ${name}, offset ${DEEP}: keys from a covering index in list order`, async () => {
        const filter = { ...DEV_LIST, includeDiscarded: false, offset: DEEP, ...extra };
        const merged = (filter.categories?.length ?? 0) > 1;
        assertIndexWalk(await plan(repos.conversations.pageKeysQuery('u1', filter)), 'conversations_', merged);
      });
    }

    test('conversations: the page rows are read by primary key after the keys, never by scanning', async (c) => {
      // PostgreSQL orders this join by its statistics, which an empty table does not have.
      if (dialect === 'postgres') return c.skip('SQLite only');
      const detail = await plan(
        repos.conversations.listQuery('u1', { ...DEV_LIST, offset: DEEP, categories: ['work', 'travel'] }),
      );
      assert.match(detail, /SCAN p \| SEARCH c USING INDEX sqlite_autoindex_conversations_1 \(id=\?\)/, detail);
      assert.doesNotMatch(detail, /SCAN c\b|AUTOMATIC/, detail);
    });

    for (const [name, categories] of [
      ['no filter', undefined],
      ['one category', ['work']],
      ['two categories (merged ranges)', ['work', 'skills']],
      ['six categories', ['work', 'skills', 'core', 'hobbies', 'habits', 'other']],
    ] as const) {
      test(`memories, ${name}, offset 1000: keys from a covering index in list order`, async () => {
        const query = repos.memories.pageKeysQuery('u1', { categories, limit: 25, offset: 1000 });
        assertIndexWalk(await plan(query), 'memories_', categories?.length === 2);
      });
    }

    for (const [name, extra] of [
      ['no filter', {}],
      ['open only', { completed: false }],
      ['completed in a date range', { completed: true, startDate: 1, endDate: 2 }],
    ] as const) {
      test(`action items, ${name}, offset 1000: keys from the covering index in list order`, async () => {
        const query = repos.actionItems.pageKeysQuery('u1', { limit: 25, offset: 1000, ...extra });
        assertIndexWalk(await plan(query), 'action_items_page');
      });
    }
  });
}
