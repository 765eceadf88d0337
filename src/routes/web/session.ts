import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, Detail } from '../../errors.js';

/** The cookie the session auth hook reads (src/http/auth.ts). */
export const SESSION_COOKIE = 'keepsake_session';

/**
 * A browser gets its own session token, minted at sign-in: the token typed into the form (possibly
 * the long-lived first-start one) never sits in a cookie jar, and a stolen cookie expires in a week.
 */
export const BROWSER_SESSION_TTL_SECONDS = 7 * 24 * 3600;

/** The live stream's first message needs a token script can read; this one is only good for connecting. */
export const LISTEN_TOKEN_TTL_SECONDS = 120;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Cookies come parsed by @fastify/cookie (registered in src/app.ts before any route hook). */
export function hasSessionCookie(request: FastifyRequest): boolean {
  return request.cookies[SESSION_COOKIE] !== undefined;
}

function secureRequest(request: FastifyRequest, publicUrl: string | null): boolean {
  return request.protocol === 'https' || (publicUrl?.startsWith('https:') ?? false);
}

/** HttpOnly (no script reads it) and SameSite=Strict (no other site's page sends it). */
export function setSessionCookie(
  reply: FastifyReply,
  request: FastifyRequest,
  token: string,
  publicUrl: string | null,
): void {
  const secure = secureRequest(request, publicUrl);
  reply.setCookie(SESSION_COOKIE, token, { ...SESSION_ATTRIBUTES, maxAge: BROWSER_SESSION_TTL_SECONDS, secure });
}

const SESSION_ATTRIBUTES = { path: '/', httpOnly: true, sameSite: 'strict' } as const;

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, SESSION_ATTRIBUTES);
}

function parseUrl(value: string | undefined): URL | null {
  if (!value || value === 'null') return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** Whether the request says it comes from a page of this site (Origin, else Referer). */
export function fromThisSite(request: FastifyRequest, publicUrl: string | null): boolean {
  const source = parseUrl(request.headers.origin) ?? parseUrl(request.headers.referer);
  if (!source) return false;
  // The Host header read with the source's scheme, so a default port (:80, :443) compares equal.
  const host = parseUrl(`${source.protocol}//${request.headers.host ?? ''}`)?.host;
  return source.host === host || source.host === parseUrl(publicUrl ?? undefined)?.host;
}

/**
 * CSRF guard for every cookie-authenticated write, on web pages and on session API routes alike:
 * besides SameSite=Strict, the request must come from a page of this site. Requests that carry
 * their credentials in an Authorization header are not ambient and pass.
 */
export function crossSiteGuard(publicUrl: string | null) {
  return async (request: FastifyRequest): Promise<void> => {
    if (SAFE_METHODS.has(request.method) || request.headers.authorization || !hasSessionCookie(request)) return;
    if (!fromThisSite(request, publicUrl)) throw new AppError(403, Detail.crossSiteRefused);
  };
}

/** A `next` target after sign-in: only a local path, never another origin (open-redirect guard). */
export function localPath(value: unknown, fallback = '/conversations'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    return fallback;
  return value;
}
