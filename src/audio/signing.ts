import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed audio URLs (research/omi-listen.md §5: signed, 60-minute expiry). The signature is an
 * HMAC-SHA256, with the server secret, over the user, the conversation, the file and the expiry,
 * so a URL opens exactly one file of one user until it expires, without a session token.
 */

export const URL_TTL_MS = 60 * 60 * 1000;

export interface AudioFileRef {
  userId: string;
  conversationId: string;
  /** `conversation-<fingerprint>.mp3` or `<part id>.wav` */
  file: string;
}

export interface SignedQuery {
  uid: string;
  expires: number;
  signature: string;
}

export class UrlSigner {
  constructor(private readonly secret: string) {}

  sign(ref: AudioFileRef, expiresAtMs: number): SignedQuery {
    const expires = Math.floor(expiresAtMs / 1000);
    return { uid: ref.userId, expires, signature: this.mac(ref, expires) };
  }

  /** Whether the query opens this file at `nowMs`. */
  verify(ref: AudioFileRef, query: { expires: number; signature: string }, nowMs: number): boolean {
    if (query.expires * 1000 <= nowMs) return false;
    const expected = Buffer.from(this.mac(ref, query.expires), 'hex');
    const given = Buffer.from(query.signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private mac(ref: AudioFileRef, expires: number): string {
    return createHmac('sha256', this.secret)
      .update(`keepsake-audio-v1\n${ref.userId}\n${ref.conversationId}\n${ref.file}\n${expires}`)
      .digest('hex');
  }
}
