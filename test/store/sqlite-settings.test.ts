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
