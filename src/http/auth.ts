import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DevScope } from '../domain/keys/dev-keys.js';
import type { DevKeysService } from '../domain/keys/service.js';
import type { UsersService } from '../domain/users/service.js';
import { AppError, Detail } from '../errors.js';

export interface DevKeyPrincipal {
  kind: 'dev_key';
  userId: string;
  keyId: string;
  scopes: readonly DevScope[];
}

export interface SessionPrincipal {
  kind: 'session';
  userId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    devKey?: DevKeyPrincipal;
    session?: SessionPrincipal;
  }
}

/** DESIGN §7: strip the scheme once, case-insensitively; never substring-replace. */
export function parseBearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

export type PreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

const AUTH_HOOK = Symbol('keepsake.auth');

/** Marks a hook as authentication: `authenticateFirst` moves it ahead of validation. */
function authHook(hook: PreHandler): PreHandler {
  return Object.assign(hook, { [AUTH_HOOK]: true });
}

const isAuthHook = (hook: unknown): boolean =>
  typeof hook === 'function' && (hook as unknown as Record<symbol, unknown>)[AUTH_HOOK] === true;

/**
 * Routes list their authentication as a `preHandler`; this runs it in `preValidation` instead, so a
 * request without valid credentials or scope gets its 401/403 (and a counted request its rate-limit
 * headers) whatever its body or query, as the reference's FastAPI dependencies answer. Malformed JSON
 * is still 422 first: bodies are parsed before any hook, there as here.
 */
export function authenticateFirst(route: RouteHooks): void {
  const handlers = hookList(route.preHandler);
  const auth = handlers.filter(isAuthHook);
  if (auth.length === 0) return;
  route.preHandler = handlers.filter((hook) => !isAuthHook(hook));
  route.preValidation = [...hookList(route.preValidation), ...auth];
}

/** The hook slots of a route's options, as an `onRoute` hook sees them (one hook, a list, or none). */
export interface RouteHooks {
  preHandler?: unknown;
  preValidation?: unknown;
}

/** A hook slot as a list. */
export const hookList = (slot: unknown): unknown[] => (slot === undefined ? [] : [slot].flat());

/**
 * Hooks that authenticate a request; a route lists the one it needs (`preHandler: auth.devKey(...)`),
 * and `authenticateFirst` runs it before validation.
 */
export interface AuthHooks {
  devKey(scope: DevScope): PreHandler;
  /** Authenticates a dev key without requiring a scope. */
  anyDevKey(request: FastifyRequest): Promise<DevKeyPrincipal>;
  session(): PreHandler;
}

/** Run once a developer key is authenticated for a scope (the rate limits). */
export type AfterDevKey = (request: FastifyRequest, reply: FastifyReply, scope: DevScope) => Promise<void>;

export function createAuthHooks(keys: DevKeysService, users: UsersService, afterDevKey: AfterDevKey): AuthHooks {
  async function anyDevKey(request: FastifyRequest): Promise<DevKeyPrincipal> {
    const token = parseBearer(request.headers.authorization);
    if (!token) throw new AppError(401, Detail.missingBearer);
    const key = await keys.authenticate(token);
    if (!key) throw new AppError(401, Detail.invalidApiKey);
    request.devKey = { kind: 'dev_key', userId: key.userId, keyId: key.keyId, scopes: key.scopes };
    return request.devKey;
  }
  return {
    anyDevKey,
    devKey(scope) {
      return authHook(async (request, reply) => {
        const key = await anyDevKey(request);
        if (!key.scopes.includes(scope)) throw new AppError(403, Detail.insufficientScope(scope));
        await afterDevKey(request, reply, scope);
      });
    },
    session() {
      return authHook(async (request) => {
        const token = parseBearer(request.headers.authorization) ?? sessionCookie(request);
        if (!token) throw new AppError(401, Detail.missingBearer);
        const userId = await users.resolveSessionToken(token);
        if (!userId) throw new AppError(401, Detail.invalidToken);
        request.session = { kind: 'session', userId };
      });
    },
  };
}

/** The web UI keeps the session token in a cookie named `keepsake_session` (parsed by @fastify/cookie). */
function sessionCookie(request: FastifyRequest): string | null {
  return request.cookies.keepsake_session || null;
}

/** The authenticated user of a dev-key route (the preHandler guarantees it). */
export function devUser(request: FastifyRequest): string {
  if (!request.devKey) throw new AppError(401, Detail.invalidApiKey);
  return request.devKey.userId;
}

export function sessionUser(request: FastifyRequest): string {
  if (!request.session) throw new AppError(401, Detail.invalidToken);
  return request.session.userId;
}
