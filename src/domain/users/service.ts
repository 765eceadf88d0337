import type { KeyObject } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../context-types.js';
import { invalidInput } from '../../errors.js';
import type { UserRow, UsersRepository } from '../../store/repositories/users.js';
import type { OidcVerifier } from './oidc.js';
import { DEFAULT_SESSION_TTL_SECONDS, sessionKey, signSessionToken, verifySessionToken } from './session-tokens.js';

export interface UserView {
  uid: string;
  name: string;
  email: string | null;
  timezone: string;
  created_at: string;
}

export function isValidTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

export class UsersService {
  private readonly sessionKey: KeyObject;

  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
    private readonly secret: string,
    private readonly oidc: OidcVerifier | null,
  ) {
    this.sessionKey = sessionKey(secret);
  }

  async create(input: {
    name: string;
    email?: string | null;
    timezone?: string | null;
    id?: string;
  }): Promise<UserView> {
    const name = input.name.trim();
    if (name === '') throw invalidInput(['body', 'name'], 'name cannot be empty');
    const timezone = input.timezone?.trim() || 'UTC';
    if (!isValidTimezone(timezone)) throw invalidInput(['body', 'timezone'], `Unknown timezone '${timezone}'`);
    const now = this.clock.now();
    const row: UserRow = {
      id: input.id ?? randomUUID(),
      name,
      email: input.email?.trim() || null,
      timezone,
      settings: '{}',
      created_at: now,
      updated_at: now,
    };
    await this.users.insert(row);
    return toUserView(row);
  }

  /** Renames the account, or moves it to another timezone (dates said from then on are read in it). */
  async update(
    userId: string,
    input: { name?: string; email?: string | null; timezone?: string },
  ): Promise<UserView | undefined> {
    const row = await this.users.findById(userId);
    if (row === undefined) return undefined;
    const name = input.name?.trim();
    if (name === '') throw invalidInput(['body', 'name'], 'name cannot be empty');
    const timezone = input.timezone?.trim();
    if (timezone !== undefined && !isValidTimezone(timezone))
      throw invalidInput(['body', 'timezone'], `Unknown timezone '${timezone}'`);
    const patch = {
      ...(name === undefined ? {} : { name }),
      ...(input.email === undefined ? {} : { email: input.email?.trim() || null }),
      ...(timezone === undefined ? {} : { timezone }),
      updated_at: this.clock.now(),
    };
    await this.users.update(userId, patch);
    return toUserView({ ...row, ...patch });
  }

  async get(userId: string): Promise<UserRow | undefined> {
    return this.users.findById(userId);
  }

  async exists(userId: string): Promise<boolean> {
    return (await this.users.findById(userId)) !== undefined;
  }

  async anyExists(): Promise<boolean> {
    return this.users.anyExists();
  }

  issueSessionToken(userId: string, ttlSeconds = DEFAULT_SESSION_TTL_SECONDS): string {
    return signSessionToken(this.secret, userId, this.clock.now(), ttlSeconds);
  }

  /**
   * The user id behind a session token or an identity-provider JWT, or null. An OIDC subject seen
   * for the first time gets an account (named from the token's `name`/`email` claims).
   */
  async resolveSessionToken(token: string): Promise<string | null> {
    const now = this.clock.now();
    const local = await verifySessionToken(this.sessionKey, token, now);
    if (local) return (await this.users.findById(local)) ? local : null;
    if (!this.oidc) return null;
    // An unreachable issuer refuses the token like an invalid one (a 401, never a 500).
    const claims = await this.oidc.verifiedClaims(token, now).catch(() => null);
    return claims ? this.userForOidcClaims(claims) : null;
  }

  /**
   * The user of a verified identity-provider token: its subject is the user id, and a subject seen
   * for the first time gets an account named from the `name`/`email` claims. Shared by API tokens
   * and the web app's OpenID Connect sign-in.
   */
  async userForOidcClaims(claims: Record<string, unknown>): Promise<string> {
    const subject = String(claims.sub);
    if (!(await this.users.findById(subject))) {
      const name =
        typeof claims.name === 'string' ? claims.name : typeof claims.email === 'string' ? claims.email : subject;
      const email = typeof claims.email === 'string' ? claims.email : null;
      await this.create({ id: subject, name, email }).catch(() => undefined);
    }
    return subject;
  }
}

export function toUserView(row: UserRow): UserView {
  return {
    uid: row.id,
    name: row.name,
    email: row.email,
    timezone: row.timezone,
    created_at: new Date(row.created_at).toISOString(),
  };
}
