import { createHmac, createSecretKey, type KeyObject, randomUUID } from 'node:crypto';
import { errors, jwtVerify } from 'jose';

/** Session tokens: compact HS256 JWTs signed with the server secret, issuer `keepsake`, with expiry. */
export const SESSION_ISSUER = 'keepsake';
export const DEFAULT_SESSION_TTL_SECONDS = 30 * 24 * 3600;

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/**
 * Signing stays here, synchronous: issuing a token is a plain function the CLI and pages call
 * without awaiting, and a fixed header plus an HMAC is all it is (docs/architecture.md). Checking
 * tokens, where the attacks are, is jose's.
 */
export function signSessionToken(secret: string, userId: string, nowMs: number, ttlSeconds: number): string {
  const iat = Math.floor(nowMs / 1000);
  const claims = { iss: SESSION_ISSUER, sub: userId, iat, exp: iat + ttlSeconds, jti: randomUUID() };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${signature}`;
}

/** The key session tokens are checked with (made once: jose would import raw bytes on every call). */
export const sessionKey = (secret: string): KeyObject => createSecretKey(Buffer.from(secret));

/** The user id of a valid, unexpired session token signed with `key`, else null. */
export async function verifySessionToken(key: KeyObject, token: string, nowMs: number): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: SESSION_ISSUER,
      requiredClaims: ['exp', 'sub'],
      currentDate: new Date(nowMs),
    });
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch (error) {
    // Any token jose refuses (malformed, forged, expired, another issuer) is simply not a session.
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}
