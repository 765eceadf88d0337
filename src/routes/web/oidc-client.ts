import { timingSafeEqual } from 'node:crypto';
import * as oidcClient from 'openid-client';
import type { OidcConfig } from '../../config.js';

/**
 * The relying-party side of an OpenID Connect authorization-code sign-in with PKCE (S256), `state`
 * and `nonce` (docs/web.md), through openid-client: discovery, the authorization URL, the code
 * exchange (client_secret_basic when a secret is set) and the ID token's checks (signature, issuer,
 * audience, expiry, nonce, `azp`). The attempt travels in a sealed cookie between the redirect to the
 * provider and the callback.
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

const UNREACHABLE = 'The identity provider could not be reached. Try again in a moment.';

export function newAttempt(next: string, redirectUri: string): OidcAttempt {
  const { randomState, randomNonce, randomPKCECodeVerifier } = oidcClient;
  return { state: randomState(), nonce: randomNonce(), verifier: randomPKCECodeVerifier(), next, redirectUri };
}

export function isAttempt(value: unknown): value is OidcAttempt {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return ['state', 'nonce', 'verifier', 'next', 'redirectUri'].every((k) => typeof v[k] === 'string');
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Why an ID token was refused, from openid-client's error (its cause names the failed claim). */
function idTokenReason(error: oidcClient.ClientError, clientId: string): string {
  const cause = error.cause as { cause?: { claim?: string; claims?: { aud?: unknown } } } | undefined;
  const claim = cause?.cause?.claim;
  if (claim === 'exp') return 'expired';
  if (claim === 'nonce') return 'nonce mismatch';
  if (claim === 'azp') return 'wrong authorized party';
  if (claim === 'aud') {
    const aud = cause?.cause?.claims?.aud;
    return Array.isArray(aud) && aud.includes(clientId) ? 'wrong authorized party' : 'wrong audience';
  }
  if (claim === 'iss') return 'wrong issuer';
  return claim ? `invalid ${claim}` : error.message;
}

/** openid-client's failures as the messages the sign-in page shows. */
function signInError(error: unknown, clientId: string): unknown {
  if (error instanceof oidcClient.ResponseBodyError) {
    const reason = error.error ? ` (${error.error.slice(0, 100)})` : '';
    return new OidcSignInError(
      401,
      `The identity provider refused the sign-in code${reason}: it may have been used already or have expired. Start again.`,
    );
  }
  if (error instanceof oidcClient.ClientError && error.code?.startsWith('OAUTH_JWT_'))
    return new OidcSignInError(
      401,
      `The identity provider's ID token was refused (${idTokenReason(error, clientId)}). Start again.`,
    );
  if (error instanceof oidcClient.ClientError && error.code === 'OAUTH_JWS_SIGNATURE_VERIFICATION_FAILED')
    return new OidcSignInError(401, "The identity provider's ID token was refused (bad signature). Start again.");
  if (error instanceof TypeError || error instanceof oidcClient.ClientError)
    return new OidcSignInError(502, UNREACHABLE);
  return error;
}

/** The provider as openid-client knows it: discovered once, again after a failed discovery. */
export class OidcRelyingParty {
  private configuration: Promise<oidcClient.Configuration> | null = null;

  constructor(
    private readonly oidc: OidcConfig,
    private readonly clientId: string,
  ) {}

  private discover(): Promise<oidcClient.Configuration> {
    const { oidc, clientId } = this;
    const auth = oidc.clientSecret === null ? oidcClient.None() : oidcClient.ClientSecretBasic(oidc.clientSecret);
    // A provider on plain http (a LAN or test issuer) is allowed, as before openid-client.
    const execute = new URL(oidc.issuer).protocol === 'http:' ? [oidcClient.allowInsecureRequests] : [];
    this.configuration ??= oidcClient
      .discovery(new URL(oidc.issuer), clientId, undefined, auth, { execute, timeout: 10 })
      .then((configuration) => {
        oidcClient.enableNonRepudiationChecks(configuration);
        return configuration;
      })
      .catch((error: unknown) => {
        this.configuration = null;
        throw signInError(error, clientId);
      });
    return this.configuration;
  }

  /** Where to send the browser: the provider's authorization endpoint for this attempt. */
  async authorizationUrl(attempt: OidcAttempt): Promise<string> {
    const configuration = await this.discover();
    const url = oidcClient.buildAuthorizationUrl(configuration, {
      redirect_uri: attempt.redirectUri,
      scope: 'openid profile email',
      state: attempt.state,
      nonce: attempt.nonce,
      code_challenge: await oidcClient.calculatePKCECodeChallenge(attempt.verifier),
      code_challenge_method: 'S256',
    });
    return url.toString();
  }

  /** Trades the callback's code (with the PKCE verifier) for tokens; answers the checked ID token's claims. */
  async finish(attempt: OidcAttempt, callbackSearch: string): Promise<Record<string, unknown>> {
    const configuration = await this.discover();
    const current = new URL(attempt.redirectUri);
    current.search = callbackSearch;
    try {
      const tokens = await oidcClient.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: attempt.verifier,
        expectedState: attempt.state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new OidcSignInError(502, 'The identity provider answered without an ID token.');
      return claims;
    } catch (error) {
      throw signInError(error, this.clientId);
    }
  }
}
