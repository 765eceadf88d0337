import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { OidcConfig } from '../../config.js';
import type { OidcVerifier } from '../../domain/users/oidc.js';

/**
 * The relying-party side of an OpenID Connect authorization-code sign-in with PKCE (S256), `state`
 * and `nonce` (docs/web.md). The attempt travels in a sealed cookie between the redirect to the
 * provider and the callback; the ID token is checked by the same JWKS verifier as API tokens.
 */
export interface OidcAttempt {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
  redirectUri: string;
}

/** A refusal with the message the sign-in page shows. */
export class OidcSignInError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const random = () => randomBytes(32).toString('base64url');

export function newAttempt(next: string, redirectUri: string): OidcAttempt {
  return { state: random(), nonce: random(), verifier: random(), next, redirectUri };
}

export function isAttempt(value: unknown): value is OidcAttempt {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return ['state', 'nonce', 'verifier', 'next', 'redirectUri'].every((k) => typeof v[k] === 'string');
}

export function authorizationUrl(endpoint: string, clientId: string, attempt: OidcAttempt): string {
  const url = new URL(endpoint);
  const challenge = createHash('sha256').update(attempt.verifier).digest('base64url');
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: attempt.redirectUri,
    scope: 'openid profile email',
    state: attempt.state,
    nonce: attempt.nonce,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function tokenRequest(config: OidcConfig, clientId: string, attempt: OidcAttempt, code: string): RequestInit {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: attempt.redirectUri,
    code_verifier: attempt.verifier,
    client_id: clientId,
  });
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  // client_secret_basic (RFC 6749 §2.3.1): both parts form-encoded before base64.
  if (config.clientSecret !== null) {
    const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(config.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  }
  return { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) };
}

/** Trades the code (with the PKCE verifier) for tokens; answers the ID token. */
export async function exchangeCode(
  config: OidcConfig,
  clientId: string,
  tokenEndpoint: string,
  attempt: OidcAttempt,
  code: string,
): Promise<string> {
  let response: Response;
  try {
    response = await fetch(tokenEndpoint, tokenRequest(config, clientId, attempt, code));
  } catch {
    throw new OidcSignInError(502, 'The identity provider could not be reached. Try again in a moment.');
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const reason = typeof body.error === 'string' ? ` (${body.error.slice(0, 100)})` : '';
    throw new OidcSignInError(
      401,
      `The identity provider refused the sign-in code${reason}: it may have been used already or have expired. Start again.`,
    );
  }
  if (typeof body.id_token !== 'string')
    throw new OidcSignInError(502, 'The identity provider answered without an ID token.');
  return body.id_token;
}

/** The ID token's claims after signature, issuer, audience, expiry, nonce and `azp` checks. */
export async function verifyIdToken(
  verifier: OidcVerifier,
  idToken: string,
  clientId: string,
  nonce: string,
  nowMs: number,
): Promise<Record<string, unknown>> {
  const checked = await verifier.check(idToken, nowMs, clientId).catch(() => ({ reason: 'keys unavailable' }));
  if ('reason' in checked)
    throw new OidcSignInError(401, `The identity provider's ID token was refused (${checked.reason}). Start again.`);
  const { claims } = checked;
  if (typeof claims.nonce !== 'string' || !sameSecret(claims.nonce, nonce))
    throw new OidcSignInError(401, "The identity provider's ID token was refused (nonce mismatch). Start again.");
  if (Array.isArray(claims.aud) && claims.aud.length > 1 && claims.azp !== clientId)
    throw new OidcSignInError(
      401,
      "The identity provider's ID token was refused (wrong authorized party). Start again.",
    );
  return claims;
}
