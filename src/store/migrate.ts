import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator } from 'kysely';
import type { Store } from './db.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Runs every pending migration in src/store/migrations (same set on SQLite and PostgreSQL).
 * PostgreSQL serialises concurrent migrators with an advisory lock; SQLite has no such lock across
 * processes, so a process that lost the race to another one starting on the same file (its
 * transaction rolled back) tries again and then finds the migrations applied.
 */
export async function migrateToLatest(store: Store): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(store);
    } catch (err) {
      if (store.dialect !== 'sqlite' || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt + Math.random() * 100));
    }
  }
}

async function migrateOnce(store: Store): Promise<void> {
  const migrator = new Migrator({
    db: store.db,
    provider: new FileMigrationProvider({ fs, path: { join }, migrationFolder: MIGRATIONS_DIR }),
    // Name the schema so the migrator does not mistake another schema's bookkeeping tables for ours.
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`database migration${failed ? ` ${failed.migrationName}` : ''} failed: ${reason}`);
  }
}
