import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** Session tokens: compact HS256 JWTs signed with the server secret, issuer `keepsake`, with expiry. */
export const SESSION_ISSUER = 'keepsake';
export const DEFAULT_SESSION_TTL_SECONDS = 30 * 24 * 3600;

const b64url = (input: Buffer | string) => Buffer.from(input).toString('base64url');

export function signSessionToken(secret: string, userId: string, nowMs: number, ttlSeconds: number): string {
  const iat = Math.floor(nowMs / 1000);
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = b64url(
    JSON.stringify({ iss: SESSION_ISSUER, sub: userId, iat, exp: iat + ttlSeconds, jti: randomUUID() }),
  );
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

export interface JwtParts {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

export function decodeJwt(token: string): JwtParts | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const header: unknown = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    if (!isObject(header) || !isObject(payload)) return null;
    return { header, payload, signingInput: `${parts[0]}.${parts[1]}`, signature: Buffer.from(parts[2], 'base64url') };
  } catch {
    return null;
  }
}

/** The user id of a valid, unexpired session token signed with `secret`, else null. */
export function verifySessionToken(secret: string, token: string, nowMs: number): string | null {
  const jwt = decodeJwt(token);
  if (jwt?.header.alg !== 'HS256' || jwt.payload.iss !== SESSION_ISSUER) return null;
  const expected = createHmac('sha256', secret).update(jwt.signingInput).digest();
  if (expected.length !== jwt.signature.length || !timingSafeEqual(expected, jwt.signature)) return null;
  const { exp, sub } = jwt.payload;
  if (typeof exp !== 'number' || exp * 1000 <= nowMs || typeof sub !== 'string') return null;
  return sub;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
