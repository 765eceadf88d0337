import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../context.js';
import { clearSealedCookie, readCookie, type SealedCookie, seal, setSealedCookie, unseal } from './sealed.js';

/** A key just created, to show once on the page the creating post redirects to. */
export interface NewKey {
  uid: string;
  name: string;
  key: string;
}

/**
 * The key page's one-time flash (post/redirect/get): the new key rides in a sealed, HttpOnly,
 * SameSite=Strict cookie limited to /keys for a minute, so it never appears in a URL, a log or the
 * history, and reloading the page does not create a second key. The first display clears the
 * cookie; this process also remembers shown flashes, so a replayed cookie shows nothing.
 */
const COOKIE: SealedCookie = { name: 'keepsake_new_key', path: '/keys', sameSite: 'Strict', maxAgeSeconds: 60 };

interface Sealed extends NewKey {
  id: string;
}

function isSealed(value: unknown): value is Sealed {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return ['id', 'uid', 'name', 'key'].every((k) => typeof v[k] === 'string');
}

export class KeyFlash {
  /** Flash id → when its cookie expires anyway. */
  private readonly shown = new Map<string, number>();

  constructor(private readonly ctx: Services) {}

  private secure(request: FastifyRequest): boolean {
    return request.protocol === 'https' || (this.ctx.config.publicUrl?.startsWith('https:') ?? false);
  }

  give(request: FastifyRequest, reply: FastifyReply, key: NewKey): void {
    const value: Sealed = { ...key, id: randomBytes(16).toString('base64url') };
    const sealed = seal(this.ctx.secret, COOKIE, value, this.ctx.clock.now());
    setSealedCookie(reply, COOKIE, sealed, this.secure(request));
  }

  /** The flashed key for this user, once; clears the cookie whenever one was sent. */
  take(request: FastifyRequest, reply: FastifyReply, uid: string): NewKey | null {
    const text = readCookie(request, COOKIE.name);
    if (!text) return null;
    clearSealedCookie(reply, COOKIE, this.secure(request));
    const now = this.ctx.clock.now();
    const value = unseal(this.ctx.secret, COOKIE, text, now);
    if (!isSealed(value) || value.uid !== uid || this.shown.has(value.id)) return null;
    for (const [id, until] of this.shown) if (until <= now) this.shown.delete(id);
    this.shown.set(value.id, now + COOKIE.maxAgeSeconds * 1000);
    return { uid: value.uid, name: value.name, key: value.key };
  }
}
