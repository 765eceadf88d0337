import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openStore } from '../../src/store/db.js';

// SQLite only: these are SQLite pragmas of a file store; PostgreSQL is configured by its server.
test('a SQLite file store runs in WAL mode, syncs at commit points only, and reads through a memory map', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keepsake-settings-'));
  const store = openStore({ databaseUrl: null, dataDir: dir });
  try {
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`PRAGMA ${name}`).execute(store.db)).rows[0] as Record<string, unknown>)[0];
    assert.equal(await pragma('journal_mode'), 'wal');
    assert.equal(await pragma('synchronous'), 1); // NORMAL
    assert.equal(await pragma('foreign_keys'), 1);
    assert.equal(await pragma('mmap_size'), 1024 ** 3);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('opening a SQLite store gathers no statistics; refreshStatistics gathers the stale ones', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keepsake-settings-'));
  const filled = openStore({ databaseUrl: null, dataDir: dir });
  await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT)`.execute(filled.db);
  await sql`CREATE INDEX t_k ON t (k)`.execute(filled.db);
  await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
            INSERT INTO t (k) SELECT 'k' || (i % 50) FROM n`.execute(filled.db);
  await filled.close();
  const store = openStore({ databaseUrl: null, dataDir: dir });
  try {
    const statTables = async () =>
      (await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_stat1'`.execute(store.db))
        .rows[0].n;
    // docs/deployment.md: start-up does no work that grows with the data; the server refreshes once it answers.
    assert.equal(await statTables(), 0);
    store.refreshStatistics();
    assert.equal(await statTables(), 1);
    const rows = await sql<{ tbl: string }>`SELECT tbl FROM sqlite_stat1`.execute(store.db);
    assert.ok(
      rows.rows.some((r) => r.tbl === 't'),
      "rows.rows.some((r) => r.tbl === 't')",
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
