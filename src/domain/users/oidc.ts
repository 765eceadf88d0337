import { createPublicKey, type JsonWebKey, type KeyObject, verify } from 'node:crypto';
import { decodeJwt } from './session-tokens.js';

export type OidcCheck = { claims: Record<string, unknown> } | { reason: string };

export interface OidcEndpoints {
  authorization: string;
  token: string;
}

/**
 * Verifies identity-provider JWTs (RS256/ES256/EdDSA) against the issuer's JWKS, found through its
 * OpenID discovery document. Keys are cached and refetched when an unknown `kid` appears.
 */
export class OidcVerifier {
  private keys = new Map<string, { key: KeyObject; alg?: string }>();
  private fetchedAt = 0;
  private discovered: OidcEndpoints | null = null;

  constructor(
    private readonly issuer: string,
    private readonly audience: string | null,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Returns the token's subject when valid, else null. */
  async verify(token: string, nowMs: number): Promise<string | null> {
    const checked = await this.check(token, nowMs, this.audience);
    return 'claims' in checked ? (checked.claims.sub as string) : null;
  }

  /**
   * Checks issuer, expiry, not-before, audience (when given), subject and signature; answers the
   * claims, or why the token was refused (for a person-readable message; never the token itself).
   */
  async check(token: string, nowMs: number, audience: string | null): Promise<OidcCheck> {
    const jwt = decodeJwt(token);
    if (!jwt) return { reason: 'not a JWT' };
    const { payload, header } = jwt;
    if (payload.iss !== this.issuer.replace(/\/$/, '') && payload.iss !== this.issuer)
      return { reason: 'wrong issuer' };
    if (typeof payload.exp !== 'number' || payload.exp * 1000 <= nowMs) return { reason: 'expired' };
    if (typeof payload.nbf === 'number' && payload.nbf * 1000 > nowMs + 60_000) return { reason: 'not yet valid' };
    if (audience && !audienceMatches(payload.aud, audience)) return { reason: 'wrong audience' };
    if (typeof payload.sub !== 'string' || payload.sub === '') return { reason: 'no subject' };
    const kid = typeof header.kid === 'string' ? header.kid : '';
    const entry = await this.keyFor(kid, nowMs);
    if (!entry || typeof header.alg !== 'string') return { reason: 'unknown signing key' };
    if (!verifySignature(header.alg, entry.key, jwt.signingInput, jwt.signature)) return { reason: 'bad signature' };
    return { claims: payload };
  }

  /** The issuer's authorization and token endpoints, from its discovery document (cached). */
  async endpoints(): Promise<OidcEndpoints> {
    if (this.discovered) return this.discovered;
    const discovery = await this.getJson(`${this.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
    const { authorization_endpoint: authorization, token_endpoint: token } = discovery;
    if (typeof authorization !== 'string' || typeof token !== 'string')
      throw new Error('OIDC discovery document lacks authorization_endpoint or token_endpoint');
    this.discovered = { authorization, token };
    return this.discovered;
  }

  private async keyFor(kid: string, nowMs: number) {
    const known = this.keys.get(kid);
    if (known) return known;
    // Refetch at most every 30 s so a flood of bad kids cannot hammer the issuer.
    if (nowMs - this.fetchedAt < 30_000 && this.keys.size > 0) return undefined;
    await this.refresh(nowMs);
    return this.keys.get(kid) ?? (kid === '' && this.keys.size === 1 ? [...this.keys.values()][0] : undefined);
  }

  private async refresh(nowMs: number): Promise<void> {
    this.fetchedAt = nowMs;
    const discovery = await this.getJson(`${this.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
    const jwksUri = typeof discovery.jwks_uri === 'string' ? discovery.jwks_uri : null;
    if (!jwksUri) return;
    const jwks = await this.getJson(jwksUri);
    const next = new Map<string, { key: KeyObject; alg?: string }>();
    for (const jwk of Array.isArray(jwks.keys) ? jwks.keys : []) {
      if (typeof jwk !== 'object' || jwk === null) continue;
      try {
        const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
        const kid = typeof jwk.kid === 'string' ? jwk.kid : '';
        next.set(kid, { key, alg: typeof jwk.alg === 'string' ? jwk.alg : undefined });
      } catch {
        // A key type Node cannot import is skipped; the others still verify.
      }
    }
    this.keys = next;
  }

  private async getJson(url: string): Promise<Record<string, unknown>> {
    const response = await this.fetchImpl(url, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`OIDC fetch ${url} answered ${response.status}`);
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  }
}

function audienceMatches(aud: unknown, expected: string): boolean {
  return aud === expected || (Array.isArray(aud) && aud.includes(expected));
}

function verifySignature(alg: string, key: KeyObject, input: string, signature: Buffer): boolean {
  const data = Buffer.from(input);
  switch (alg) {
    case 'RS256':
      return verify('sha256', data, key, signature);
    case 'RS384':
      return verify('sha384', data, key, signature);
    case 'RS512':
      return verify('sha512', data, key, signature);
    case 'ES256':
      return verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
    case 'ES384':
      return verify('sha384', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
    case 'EdDSA':
      return verify(null, data, key, signature);
    default:
      return false;
  }
}
