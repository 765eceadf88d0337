import { randomUUID } from 'node:crypto';
import { after, before } from 'node:test';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';

export type DialectUnderTest = 'sqlite' | 'postgres';

/** The dialects a suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function dialects(): DialectUnderTest[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * A store on a new, empty PostgreSQL schema named t_… (TEST_DATABASE_URL).
 * Schemas are not dropped on close: a DROP while another test file's migrator introspects the catalog
 * makes that introspection fail ("schema … does not exist"). scripts/run-tests.mjs drops the previous
 * run's test schemas before any test starts.
 */
export async function freshPostgresStore(): Promise<Store> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  return openStore({ databaseUrl: url, dataDir: ':memory:', pgSchema: schema, poolSize: 4 });
}

/** A migrated store on a fresh database: in-memory SQLite, or a new PostgreSQL schema. Close it in after(). */
export async function openTestStore(dialect: DialectUnderTest): Promise<Store> {
  const store =
    dialect === 'postgres' ? await freshPostgresStore() : openStore({ databaseUrl: null, dataDir: ':memory:' });
  await migrateToLatest(store);
  return store;
}

/** A user row with a fresh id (repositories' rows need their owner to exist). */
export async function addUser(store: Store, name = 'Ada'): Promise<string> {
  const id = randomUUID();
  await store.db
    .insertInto('users')
    .values({ id, name, email: null, timezone: 'UTC', settings: '{}', created_at: 0, updated_at: 0 })
    .execute();
  return id;
}

/** A repository under test on a migrated store opened by the suite's before() hook. */
export interface RepositorySuite<T> {
  readonly store: Store;
  readonly repo: T;
  /** A fresh owner for a test's rows. */
  newUser(): Promise<string>;
}

/**
 * Opens a migrated store on `dialect` in the calling describe()'s before() hook, builds the repository
 * on it and closes the store in after(). Read `store` and `repo` from tests and hooks only.
 */
export function repositorySuite<T>(dialect: DialectUnderTest, build: (store: Store) => T): RepositorySuite<T> {
  let opened: { store: Store; repo: T } | undefined;
  const get = () => {
    if (!opened) throw new Error("the store is read before the suite's before() hook ran");
    return opened;
  };
  before(async () => {
    const store = await openTestStore(dialect);
    opened = { store, repo: build(store) };
  });
  after(() => get().store.close());
  return {
    get store() {
      return get().store;
    },
    get repo() {
      return get().repo;
    },
    newUser: () => addUser(get().store),
  };
}
