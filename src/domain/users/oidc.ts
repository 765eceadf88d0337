import { createRemoteJWKSet, customFetch, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';

export type OidcCheck = { claims: JWTPayload } | { reason: string };

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'EdDSA'];
// Leeway for a provider's clock on `nbf`; expiry itself is strict (checked below).
const CLOCK_TOLERANCE_SECONDS = 60;

/** Why jose refused a token, as a person-readable reason (never the token itself). */
function reasonFor(error: errors.JOSEError): string {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    const byClaim: Record<string, string> = {
      iss: 'wrong issuer',
      aud: 'wrong audience',
      nbf: 'not yet valid',
      exp: 'expired',
      sub: 'no subject',
    };
    return byClaim[error.claim] ?? `invalid ${error.claim}`;
  }
  if (error instanceof errors.JWKSNoMatchingKey) return 'unknown signing key';
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return 'not a JWT';
  return 'bad signature';
}

/** The key set could not be fetched (timeout, not 200, not a JWKS): the token is not at fault. */
const keySetUnavailable = (error: errors.JOSEError) =>
  error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || error.code === 'ERR_JOSE_GENERIC';

/**
 * Verifies identity-provider JWTs against the issuer's JWKS, found through its OpenID discovery
 * document, with jose: keys are cached and refetched (at most every 30 s) when an unknown `kid` appears.
 */
export class OidcVerifier {
  private keySet: JWTVerifyGetKey | null = null;

  constructor(
    private readonly issuer: string,
    private readonly audience: string | null,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Returns the token's subject when valid, else null. */
  async verify(token: string, nowMs: number): Promise<string | null> {
    return (await this.verifiedClaims(token, nowMs))?.sub ?? null;
  }

  /** The claims of a valid token for the configured audience, else null. */
  async verifiedClaims(token: string, nowMs: number): Promise<JWTPayload | null> {
    const checked = await this.check(token, nowMs, this.audience);
    return 'claims' in checked ? checked.claims : null;
  }

  /**
   * Checks issuer, expiry, not-before, audience (when given), subject and signature; answers the
   * claims, or why the token was refused. Fails (rejects) only when the issuer cannot be reached.
   */
  async check(token: string, nowMs: number, audience: string | null): Promise<OidcCheck> {
    try {
      const { payload } = await jwtVerify(token, await this.keys(), {
        algorithms: ALGORITHMS,
        issuer: [this.issuer.replace(/\/$/, ''), this.issuer],
        audience: audience ?? undefined,
        requiredClaims: ['exp', 'sub'],
        currentDate: new Date(nowMs),
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      if ((payload.exp ?? 0) * 1000 <= nowMs) return { reason: 'expired' };
      if (typeof payload.sub !== 'string' || payload.sub === '') return { reason: 'no subject' };
      return { claims: payload };
    } catch (error) {
      if (error instanceof errors.JOSEError && !keySetUnavailable(error)) return { reason: reasonFor(error) };
      throw error;
    }
  }

  /** The remote key set at the discovery document's `jwks_uri` (looked up once it answers). */
  private async keys(): Promise<JWTVerifyGetKey> {
    if (this.keySet) return this.keySet;
    const url = `${this.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const response = await this.fetchImpl(url, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`OIDC fetch ${url} answered ${response.status}`);
    const discovery = (await response.json()) as { jwks_uri?: unknown };
    if (typeof discovery.jwks_uri !== 'string') throw new Error(`OIDC discovery at ${url} has no jwks_uri`);
    this.keySet = createRemoteJWKSet(new URL(discovery.jwks_uri), {
      timeoutDuration: 5000,
      cooldownDuration: 30_000,
      [customFetch]: this.fetchImpl,
    });
    return this.keySet;
  }
}
