import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the next ID token should get wrong (each test sets one). */
export interface TokenTweaks {
  nonce?: string;
  aud?: string | string[];
  expSecondsFromNow?: number;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce: string;
  used: boolean;
}

/**
 * A small OpenID Connect provider over real HTTP: discovery, a JWKS with an RSA key generated here,
 * an authorize endpoint that signs "Grace Hopper" in at once and redirects back with a code, and a
 * token endpoint that checks the client secret, the redirect URI, the PKCE verifier (S256) and that
 * a code is used once.
 */
export class FakeOidcProvider {
  readonly clientId = 'keepsake-web';
  readonly clientSecret = 'provider-secret';
  readonly subject = 'oidc-grace';
  issuer = '';
  tweaks: TokenTweaks = {};
  /** Answer the authorize request with a page whose link goes back (browser tests), not a redirect. */
  loginPage = false;
  tokenRequests: Array<Record<string, string>> = [];
  private server: Server;
  private readonly keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  private readonly codes = new Map<string, IssuedCode>();

  constructor() {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => json(res, 500, { error: String(error) }));
    });
  }

  /**
   * `hostname` 'localhost' makes the provider another site than a Keepsake on 127.0.0.1 (as a real
   * provider is), for browser tests; it then listens on every loopback family.
   */
  async start(hostname: '127.0.0.1' | 'localhost' = '127.0.0.1'): Promise<void> {
    const listenOn = hostname === 'localhost' ? '::' : hostname;
    await new Promise<void>((resolve) => this.server.listen(0, listenOn, resolve));
    this.issuer = `http://${hostname}:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.issuer);
    if (url.pathname === '/.well-known/openid-configuration') return json(res, 200, this.discovery());
    if (url.pathname === '/jwks') {
      const jwk = { ...this.keys.publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
      return json(res, 200, { keys: [jwk] });
    }
    if (url.pathname === '/authorize') return this.authorize(url, res);
    if (url.pathname === '/token' && req.method === 'POST') return this.token(req, res);
    json(res, 404, { error: 'not_found' });
  }

  private discovery() {
    return {
      issuer: this.issuer,
      authorization_endpoint: `${this.issuer}/authorize`,
      token_endpoint: `${this.issuer}/token`,
      jwks_uri: `${this.issuer}/jwks`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    };
  }

  private authorize(url: URL, res: ServerResponse): void {
    const p = url.searchParams;
    const redirectUri = p.get('redirect_uri') ?? '';
    const valid = p.get('response_type') === 'code' && p.get('client_id') === this.clientId && redirectUri !== '';
    if (!valid || p.get('code_challenge_method') !== 'S256' || !p.get('code_challenge') || !p.get('nonce')) {
      json(res, 400, {
        error: 'invalid_request',
        error_description: 'client, redirect_uri, PKCE S256 and nonce required',
      });
      return;
    }
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, {
      clientId: this.clientId,
      redirectUri,
      challenge: p.get('code_challenge') ?? '',
      nonce: p.get('nonce') ?? '',
      used: false,
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', p.get('state') ?? '');
    if (!this.loginPage) {
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    // Like a real provider's login page: the way back starts on the provider's own site.
    const href = back.toString().replace(/&/g, '&amp;');
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><title>Provider</title><a href="${href}">Continue to Keepsake</a>`);
  }

  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    this.tokenRequests.push(form);
    if (!this.validClient(req.headers.authorization)) return json(res, 401, { error: 'invalid_client' });
    const issued = this.codes.get(form.code ?? '');
    if (!issued || issued.used || form.grant_type !== 'authorization_code')
      return json(res, 400, { error: 'invalid_grant' });
    issued.used = true;
    const challenge = createHash('sha256')
      .update(form.code_verifier ?? '')
      .digest('base64url');
    if (challenge !== issued.challenge || form.redirect_uri !== issued.redirectUri)
      return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE or redirect_uri mismatch' });
    json(res, 200, { access_token: 'at', token_type: 'Bearer', id_token: this.idToken(issued.nonce) });
  }

  /** client_secret_basic (RFC 6749 §2.3.1): both parts are form-encoded before base64, so decode them. */
  private validClient(header: string | undefined): boolean {
    if (!header?.startsWith('Basic ')) return false;
    const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    const decode = (part = '') => decodeURIComponent(part.replace(/\+/g, ' '));
    return decode(id) === this.clientId && decode(secret) === this.clientSecret;
  }

  private idToken(nonce: string): string {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: this.issuer,
      sub: this.subject,
      aud: this.tweaks.aud ?? this.clientId,
      exp: now + (this.tweaks.expSecondsFromNow ?? 300),
      iat: now,
      nonce: this.tweaks.nonce ?? nonce,
      name: 'Grace Hopper',
      email: 'grace@example.com',
    };
    const enc = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const input = `${enc({ alg: 'RS256', kid: 'k1', typ: 'JWT' })}.${enc(claims)}`;
    return `${input}.${sign('sha256', Buffer.from(input), this.keys.privateKey).toString('base64url')}`;
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
