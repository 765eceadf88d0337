import { randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { type Config, testConfig } from '../../src/config.js';
import { type AppContext, type ContextOptions, createContext } from '../../src/context.js';
import { DEV_SCOPES } from '../../src/domain/keys/dev-keys.js';
import type { TypedApp } from '../../src/http/typed-app.js';
import { openStore } from '../../src/store/db.js';

export type DialectUnderTest = 'sqlite' | 'postgres';

/** The dialects a suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function dialects(): DialectUnderTest[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestApp {
  app: TypedApp;
  ctx: AppContext;
  close(): Promise<void>;
}

/**
 * A fresh app on a fresh database: in-memory SQLite, or a new PostgreSQL schema dropped on close.
 */
export async function createTestApp(
  dialect: DialectUnderTest = 'sqlite',
  options: { config?: Partial<Config> } & ContextOptions = {},
): Promise<TestApp> {
  const config = testConfig(options.config);
  const log = options.log ?? pino({ level: 'silent' });
  let store = options.store;
  if (dialect === 'postgres' && !store) {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set');
    const schema = `t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    store = openStore({ databaseUrl: url, dataDir: ':memory:', pgSchema: schema, poolSize: 4 });
    // Schemas are not dropped on close: a DROP while another test file's migrator introspects the
    // catalog makes that introspection fail ("schema … does not exist"). scripts/run-tests.mjs drops
    // the previous run's test schemas before any test starts.
  }
  const ctx = await createContext(config, { ...options, log, store });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    async close() {
      await app.close();
      await ctx.close();
    },
  };
}

export interface TestUser {
  uid: string;
  key: string;
  token: string;
  auth: { authorization: string };
  session: { authorization: string };
}

/** A user with a developer key (all scopes unless given) and a session token. */
export async function createUser(
  ctx: AppContext,
  options: { name?: string; timezone?: string; scopes?: readonly string[] | null } = {},
): Promise<TestUser> {
  const user = await ctx.users.create({ name: options.name ?? 'Ada Lovelace', timezone: options.timezone ?? 'UTC' });
  const scopes = options.scopes === undefined ? [...DEV_SCOPES] : options.scopes;
  const key = await ctx.keys.create(user.uid, 'test', scopes);
  const token = ctx.users.issueSessionToken(user.uid);
  return {
    uid: user.uid,
    key: key.key,
    token,
    auth: { authorization: `Bearer ${key.key}` },
    session: { authorization: `Bearer ${token}` },
  };
}
