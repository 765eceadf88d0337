import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Short-lived values the browser carries between two requests (the OpenID Connect sign-in attempt,
 * a new key to show once) without the server keeping state, so any process of a scaled-out
 * deployment can read them. Sealed with AES-256-GCM under a key derived from the server secret and
 * the cookie's purpose: the browser can neither read nor alter them, and one purpose's cookie does not
 * open as another's. The expiry is inside the sealed payload, not only in Max-Age.
 */
export interface SealedCookie {
  name: string;
  path: string;
  sameSite: 'Strict' | 'Lax';
  maxAgeSeconds: number;
}

function keyFor(secret: string, cookie: SealedCookie): Buffer {
  return createHash('sha256').update(`keepsake sealed cookie\0${cookie.name}\0${secret}`).digest();
}

export function seal(secret: string, cookie: SealedCookie, value: unknown, nowMs: number): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, cookie), iv);
  const plain = JSON.stringify({ v: value, exp: nowMs + cookie.maxAgeSeconds * 1000 });
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The sealed value, or null when absent, altered, sealed for another purpose or expired. */
export function unseal(secret: string, cookie: SealedCookie, text: string, nowMs: number): unknown {
  const data = Buffer.from(text, 'base64url');
  if (data.length < 29) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, cookie), data.subarray(0, 12));
    decipher.setAuthTag(data.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    const parsed = JSON.parse(plain) as { v?: unknown; exp?: unknown };
    return typeof parsed.exp === 'number' && parsed.exp > nowMs ? (parsed.v ?? null) : null;
  } catch {
    return null;
  }
}

function attributes(cookie: SealedCookie, secure: boolean) {
  const sameSite = cookie.sameSite === 'Strict' ? 'strict' : 'lax';
  return { path: cookie.path, httpOnly: true, sameSite, secure } as const;
}

/** @fastify/cookie writes it (beside any other cookie the reply sets, e.g. the session). */
export function setSealedCookie(reply: FastifyReply, cookie: SealedCookie, sealed: string, secure: boolean): void {
  reply.setCookie(cookie.name, sealed, { ...attributes(cookie, secure), maxAge: cookie.maxAgeSeconds });
}

export function clearSealedCookie(reply: FastifyReply, cookie: SealedCookie, secure: boolean): void {
  reply.clearCookie(cookie.name, attributes(cookie, secure));
}

export function readCookie(request: FastifyRequest, name: string): string | null {
  return request.cookies[name] || null;
}
