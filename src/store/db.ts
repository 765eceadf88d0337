import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type PgModule from 'pg';
import { PRIVATE_DIR_MODE, touchPrivateFile } from './data-dir.js';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The PostgreSQL schema in use when not the default one (tests isolate themselves this way). */
  schema?: string;
  /**
   * Refreshes the query planner's statistics where they are stale (SQLite's PRAGMA optimize; nothing
   * on PostgreSQL, whose autovacuum does it). It may read much of the database, so a server calls it
   * once it answers, never before (docs/deployment.md).
   */
  refreshStatistics(): void;
  close(): Promise<void>;
}

// pg is loaded only with DATABASE_URL set: a SQLite server never needs it (docs/deployment.md).
const require = createRequire(import.meta.url);

/** The pg driver, its int8 and numeric read as numbers: our times are epoch-ms bigints and fit in a double. */
export function loadPg(): typeof PgModule {
  const pg = require('pg') as typeof PgModule;
  pg.types.setTypeParser(20, (value) => Number(value));
  pg.types.setTypeParser(1700, (value) => Number(value));
  return pg;
}

export interface StoreOptions {
  /** postgres://… or null for SQLite */
  databaseUrl: string | null;
  /** directory for keepsake.db, or ':memory:' */
  dataDir: string;
  /** PostgreSQL schema to use (tests isolate themselves in a fresh schema). */
  pgSchema?: string;
  poolSize?: number;
}

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.pgSchema, options.poolSize ?? 10);
  return openSqlite(options.dataDir);
}

const MMAP_BYTES = 1024 ** 3;

function openSqlite(dataDir: string): Store {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    file = join(dataDir, 'keepsake.db');
    // SQLite gives -wal and -shm the database file's mode, so creating it 0600 covers all three.
    touchPrivateFile(file);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Admin CLI and server share the file; wait for a writer instead of failing with SQLITE_BUSY.
  sqlite.pragma('busy_timeout = 5000');
  // Read the database file through a memory map instead of a read() into SQLite's own cache per page:
  // searches for ever-different words touch pages all over the full-text index (10-15% faster at 50,000
  // memories). Pages still in the WAL are read as before; the map uses address space, not memory.
  sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    db,
    dialect: 'sqlite',
    // Statistics where they are stale, so the planner picks the selective indexes: ~0.4 s at 100,000
    // conversations whose statistics are missing (a first start after an import), ~1 ms otherwise.
    refreshStatistics: () => sqlite.pragma('optimize = 0x10002'),
    close: () => db.destroy(),
  };
}

/**
 * Kysely prepares every query anew; preparing costs more than running most of our queries, so
 * statements are reused by SQL text (bounded). A statement still busy streaming rows is not shared.
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property !== 'prepare') {
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (source: string) => {
        const cached = cache.get(source);
        if (cached && !cached.busy) return cached;
        const statement = prepare(source);
        if (cache.size >= 1000) cache.delete(cache.keys().next().value ?? '');
        cache.set(source, statement);
        return statement;
      };
    },
  });
}

function openPostgres(url: string, schema: string | undefined, max: number): Store {
  // The schema is set at connection start-up, so no query can ever run on another schema.
  const pool = new (loadPg().Pool)({
    connectionString: url,
    max,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', schema, refreshStatistics: () => {}, close: () => db.destroy() };
}
