import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { type Config, testConfig } from '../../src/config.js';
import { type AppContext, type ContextOptions, createContext } from '../../src/context.js';
import { DEV_SCOPES } from '../../src/domain/keys/dev-keys.js';
import type { TypedApp } from '../../src/http/typed-app.js';
import { type DialectUnderTest, freshPostgresStore } from './store.js';

export { type DialectUnderTest, dialects } from './store.js';

export interface TestApp {
  app: TypedApp;
  ctx: AppContext;
  close(): Promise<void>;
}

/**
 * A fresh app on a fresh database: in-memory SQLite, or a new PostgreSQL schema (freshPostgresStore).
 */
export async function createTestApp(
  dialect: DialectUnderTest = 'sqlite',
  options: { config?: Partial<Config> } & ContextOptions = {},
): Promise<TestApp> {
  const config = testConfig(options.config);
  const log = options.log ?? pino({ level: 'silent' });
  const store = options.store ?? (dialect === 'postgres' ? await freshPostgresStore() : undefined);
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
