import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { LightMyRequestResponse as Response } from 'fastify';
import type { Config } from '../../src/config.js';
import type { AppContext, ContextOptions } from '../../src/context.js';
import type { TypedApp } from '../../src/http/typed-app.js';
import { createTestApp, createUser, type DialectUnderTest, type TestApp, type TestUser } from './app.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Reading a suite's app or users before its before() hook ran is a mistake in the test. */
function opened<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is read before the suite's before() hook ran`);
  return value;
}

/** The app of a suite, opened by its before() hook. */
class SuiteApp implements TestApp {
  opened: TestApp | undefined;
  get app(): TypedApp {
    return opened(this.opened, 'the app').app;
  }
  get ctx(): AppContext {
    return opened(this.opened, 'the app').ctx;
  }
  close(): Promise<void> {
    return opened(this.opened, 'the app').close();
  }
}

/** A user of a suite, created by its before() hook. */
class SuiteUser implements TestUser {
  opened: TestUser | undefined;
  constructor(private readonly name: string) {}
  private get user(): TestUser {
    return opened(this.opened, this.name);
  }
  get uid() {
    return this.user.uid;
  }
  get key() {
    return this.user.key;
  }
  get token() {
    return this.user.token;
  }
  get auth() {
    return this.user.auth;
  }
  get session() {
    return this.user.session;
  }
}

export interface TwoUserSuite {
  t: TestApp;
  ada: TestUser;
  bob: TestUser;
  /** A developer-API request as `user` (its key as the bearer). */
  call(user: TestUser, method: Method, url: string, payload?: unknown): Promise<Response>;
  /** A POST as `user` that must answer 200; its JSON body. */
  postOk<T>(user: TestUser, url: string, payload: unknown): Promise<T>;
}

/**
 * The set-up most API suites share: a fresh app on `dialect` and two users with every developer scope,
 * Ada and Bob, opened in the calling describe()'s before() hook and closed in its after() hook.
 * Call it inside describe(); the returned app and users are usable from the suite's tests and hooks.
 */
export function appWithTwoUsers(
  dialect: DialectUnderTest,
  options: { config?: Partial<Config> } & ContextOptions = {},
): TwoUserSuite {
  const t = new SuiteApp();
  const ada = new SuiteUser('Ada');
  const bob = new SuiteUser('Bob');
  before(async () => {
    t.opened = await createTestApp(dialect, options);
    ada.opened = await createUser(t.ctx, { name: 'Ada' });
    bob.opened = await createUser(t.ctx, { name: 'Bob' });
  });
  after(() => t.close());
  const call = (user: TestUser, method: Method, url: string, payload?: unknown): Promise<Response> =>
    t.app.inject({ method, url, headers: user.auth, payload: payload as object | undefined });
  const postOk = async <T>(user: TestUser, url: string, payload: unknown): Promise<T> => {
    const res = await call(user, 'POST', url, payload);
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  return { t, ada, bob, call, postOk };
}
