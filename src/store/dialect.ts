import { type Kysely, PostgresAdapter } from 'kysely';
import type { DialectName } from './db.js';

/** Dialect differences live here and nowhere else (STYLE.md, Kysely). */

/** Column type for binary data in migrations. */
export function binaryType(dialect: DialectName): 'blob' | 'bytea' {
  return dialect === 'postgres' ? 'bytea' : 'blob';
}

/** Column type for floating point numbers in migrations. */
export function doubleType(dialect: DialectName): 'real' | 'double precision' {
  return dialect === 'postgres' ? 'double precision' : 'real';
}

/** Which dialect a Kysely instance speaks (migrations receive only the Kysely object). */
export function dialectOf(db: Kysely<unknown>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Triggers that bump `user_data_versions` whenever a row of `table` changes, so a reader can tell with
 * one point query whether anything it may have cached for that user is stale (http/response-cache.ts).
 * They live in the database so that every writer (any process, the admin CLI, a manual fix) bumps it.
 * PostgreSQL bumps once per statement and user (transition tables): a row trigger would update the
 * same version row once per inserted row, and a bulk insert would pile up dead row versions.
 */
export function dataVersionTriggerDdl(dialect: DialectName, table: string): string[] {
  if (dialect === 'postgres') {
    const trigger = (event: string, rows: 'NEW' | 'OLD') =>
      `CREATE TRIGGER ${table}_data_version_${event.toLowerCase()} AFTER ${event} ON ${table}
         REFERENCING ${rows} TABLE AS changed_rows
         FOR EACH STATEMENT EXECUTE FUNCTION keepsake_bump_data_versions()`;
    return [trigger('INSERT', 'NEW'), trigger('UPDATE', 'NEW'), trigger('DELETE', 'OLD')];
  }
  const bump = (row: 'new' | 'old') =>
    `INSERT INTO user_data_versions (user_id, version) VALUES (${row}.user_id, 1)
       ON CONFLICT (user_id) DO UPDATE SET version = version + 1;`;
  return [
    `CREATE TRIGGER ${table}_data_version_insert AFTER INSERT ON ${table} BEGIN ${bump('new')} END`,
    `CREATE TRIGGER ${table}_data_version_update AFTER UPDATE ON ${table} BEGIN ${bump('new')} END`,
    `CREATE TRIGGER ${table}_data_version_delete AFTER DELETE ON ${table} BEGIN ${bump('old')} END`,
  ];
}

/** The PostgreSQL trigger function behind `dataVersionTriggerDdl` (none on SQLite). */
export function dataVersionFunctionDdl(dialect: DialectName): string[] {
  if (dialect !== 'postgres') return [];
  return [
    `CREATE FUNCTION keepsake_bump_data_versions() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO user_data_versions (user_id, version)
         SELECT DISTINCT user_id, 1 FROM changed_rows
         ON CONFLICT (user_id) DO UPDATE SET version = user_data_versions.version + 1;
       RETURN NULL;
     END $$`,
  ];
}
