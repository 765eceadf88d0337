import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createTestApp, dialects, type TestApp } from '../helpers/app.js';
import { FakeOidcProvider } from './fake-oidc-provider.js';
import { page, parseSetCookie } from './support.js';

function cookiesOf(response: { headers: Record<string, unknown> }): string[] {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : [header].flat().map(String);
}

function cookieValue(response: { headers: Record<string, unknown> }, name: string): string | null {
  const line = cookiesOf(response).find((c) => c.startsWith(`${name}=`) && !c.startsWith(`${name}=;`));
  return line ? line.split(';')[0] : null;
}

for (const dialect of dialects()) {
  describe(`web sign-in with OpenID Connect (${dialect})`, () => {
    const provider = new FakeOidcProvider();
    let t: TestApp;

    before(async () => {
      await provider.start();
      t = await createTestApp(dialect, {
        config: {
          oidc: {
            issuer: provider.issuer,
            audience: null,
            clientId: provider.clientId,
            clientSecret: provider.clientSecret,
            redirectUrl: null,
          },
        },
      });
    });
    after(async () => {
      await t.close();
      await provider.stop();
    });
    beforeEach(() => {
      provider.tweaks = {};
    });

    /** Keepsake's redirect to the provider: the authorize URL and the attempt cookie. */
    async function startAttempt(next = '/goals') {
      const response = await t.app.inject({ url: `/sign-in/oidc?next=${encodeURIComponent(next)}` });
      assert.equal(response.statusCode, 303, response.body);
      const attemptCookie = cookieValue(response, 'keepsake_oidc');
      assert.ok(attemptCookie, 'the attempt cookie is set');
      return { authorizeUrl: new URL(String(response.headers.location)), attemptCookie, response };
    }

    /** The provider signs the user in and sends the browser back with a code. */
    async function providerCallback(authorizeUrl: URL): Promise<URL> {
      const response = await fetch(authorizeUrl, { redirect: 'manual' });
      assert.equal(response.status, 302, await response.text());
      return new URL(String(response.headers.get('location')));
    }

    const callback = (url: URL, cookie: string) =>
      t.app.inject({ url: `${url.pathname}${url.search}`, headers: { cookie } });

    function assertRefused(response: Awaited<ReturnType<typeof callback>>, status: number, message: RegExp) {
      assert.equal(response.statusCode, status, response.body);
      assert.match(response.body, message);
      assert.equal(cookieValue(response, 'keepsake_session'), null, 'no session cookie');
      const cleared = parseSetCookie(cookiesOf(response).find((c) => c.startsWith('keepsake_oidc=;')) ?? '');
      assert.deepEqual([cleared.attributes.Path, cleared.attributes['Max-Age']], ['/sign-in/oidc', '0']);
    }

    test('the sign-in page offers the provider button', async () => {
      const response = await t.app.inject({ url: '/sign-in?next=%2Fmemories' });
      assert.match(
        response.body,
        /<a class="button" href="\/sign-in\/oidc\?next=%2Fmemories">Sign in with 127\.0\.0\.1:\d+<\/a>/,
      );
    });

    test('the redirect carries PKCE S256, state and nonce; the attempt cookie is sealed, Lax and short-lived', async () => {
      const { authorizeUrl, response } = await startAttempt();
      const p = authorizeUrl.searchParams;
      assert.equal(`${authorizeUrl.origin}${authorizeUrl.pathname}`, `${provider.issuer}/authorize`);
      assert.equal(p.get('response_type'), 'code');
      assert.equal(p.get('client_id'), provider.clientId);
      assert.equal(p.get('redirect_uri'), 'http://localhost/sign-in/oidc/callback');
      assert.equal(p.get('code_challenge_method'), 'S256');
      assert.match(p.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.match(p.get('state') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.match(p.get('nonce') ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.match(p.get('scope') ?? '', /\bopenid\b/);
      const line = cookiesOf(response).join('\n');
      const attempt = parseSetCookie(cookiesOf(response).find((c) => c.startsWith('keepsake_oidc=')) ?? '');
      assert.match(attempt.pair, /^keepsake_oidc=[^;]+$/);
      assert.deepEqual(attempt.attributes, {
        Path: '/sign-in/oidc',
        HttpOnly: true,
        SameSite: 'Lax',
        'Max-Age': '600',
      });
      assert.ok(!line.includes(p.get('state') ?? '-'), 'the state is not readable in the cookie');
    });

    test('a full sign-in sets the session cookie, creates the user from the claims and pages load', async () => {
      const { authorizeUrl, attemptCookie } = await startAttempt('/goals');
      const response = await callback(await providerCallback(authorizeUrl), attemptCookie);
      assert.equal(response.statusCode, 200, response.body);
      assert.match(response.body, /<meta http-equiv="refresh" content="0;url=\/goals">/);
      const setCookie = cookiesOf(response).find((c) => c.startsWith('keepsake_session=')) ?? '';
      const { attributes } = parseSetCookie(setCookie);
      assert.deepEqual(attributes, { Path: '/', HttpOnly: true, SameSite: 'Strict', 'Max-Age': '604800' });
      const session = setCookie.split(';')[0];
      const goals = await page(t.app, session, '/goals');
      assert.equal(goals.statusCode, 200);
      assert.match(goals.body, /Sign out/);
      const user = await t.ctx.users.get(provider.subject);
      assert.equal(user?.name, 'Grace Hopper');
      assert.equal(user?.email, 'grace@example.com');
      const exchange = provider.tokenRequests.at(-1);
      assert.equal(exchange?.grant_type, 'authorization_code');
      assert.match(exchange?.code_verifier ?? '', /^[A-Za-z0-9_-]{43}$/);
    });

    test('a second sign-in maps to the same user', async () => {
      const { authorizeUrl, attemptCookie } = await startAttempt();
      const response = await callback(await providerCallback(authorizeUrl), attemptCookie);
      const session = cookieValue(response, 'keepsake_session') ?? '';
      const token = decodeURIComponent(session.replace('keepsake_session=', ''));
      assert.equal(await t.ctx.users.resolveSessionToken(token), provider.subject);
    });

    test('a callback whose state does not match the attempt is refused', async () => {
      const { authorizeUrl, attemptCookie } = await startAttempt();
      const back = await providerCallback(authorizeUrl);
      back.searchParams.set('state', 'forged-state');
      assertRefused(await callback(back, attemptCookie), 400, /state mismatch/);
    });

    test('a callback without the attempt cookie (another browser) is refused', async () => {
      const { authorizeUrl } = await startAttempt();
      assertRefused(
        await callback(await providerCallback(authorizeUrl), 'other=1'),
        400,
        /expired or was started in another browser/,
      );
    });

    test('an altered attempt cookie is refused', async () => {
      const { authorizeUrl, attemptCookie } = await startAttempt();
      const altered = `${attemptCookie.slice(0, -4)}AAAA`;
      assertRefused(await callback(await providerCallback(authorizeUrl), altered), 400, /expired or was started/);
    });

    test('a replayed code is refused and sets no cookie', async () => {
      const { authorizeUrl, attemptCookie } = await startAttempt();
      const back = await providerCallback(authorizeUrl);
      assert.equal((await callback(back, attemptCookie)).statusCode, 200);
      assertRefused(await callback(back, attemptCookie), 401, /refused the sign-in code \(invalid_grant\)/);
    });

    test('an ID token with another nonce is refused', async () => {
      provider.tweaks = { nonce: 'someone-elses-nonce' };
      const { authorizeUrl, attemptCookie } = await startAttempt();
      assertRefused(await callback(await providerCallback(authorizeUrl), attemptCookie), 401, /nonce mismatch/);
    });

    test('an ID token for another audience is refused', async () => {
      provider.tweaks = { aud: 'another-client' };
      const { authorizeUrl, attemptCookie } = await startAttempt();
      assertRefused(await callback(await providerCallback(authorizeUrl), attemptCookie), 401, /wrong audience/);
    });

    test('an ID token for several audiences without us as authorized party is refused', async () => {
      provider.tweaks = { aud: [provider.clientId, 'another-client'] };
      const { authorizeUrl, attemptCookie } = await startAttempt();
      assertRefused(await callback(await providerCallback(authorizeUrl), attemptCookie), 401, /authorized party/);
    });

    test('an expired ID token is refused', async () => {
      provider.tweaks = { expSecondsFromNow: -60 };
      const { authorizeUrl, attemptCookie } = await startAttempt();
      assertRefused(await callback(await providerCallback(authorizeUrl), attemptCookie), 401, /\(expired\)/);
    });

    test('an error from the provider is shown and sets no cookie', async () => {
      const { authorizeUrl, attemptCookie } = await startAttempt();
      const back = new URL('http://localhost/sign-in/oidc/callback');
      back.searchParams.set('state', authorizeUrl.searchParams.get('state') ?? '');
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user said no');
      assertRefused(await callback(back, attemptCookie), 401, /did not sign you in: The user said no/);
    });
  });
}

describe('OIDC web sign-in with an unreachable provider', () => {
  test('the button answers 502 with a clear message and starts no attempt', async () => {
    const provider = new FakeOidcProvider();
    await provider.start();
    const issuer = provider.issuer;
    await provider.stop();
    const t = await createTestApp('sqlite', {
      config: { oidc: { issuer, audience: null, clientId: 'web', clientSecret: null, redirectUrl: null } },
    });
    try {
      const response = await t.app.inject({ url: '/sign-in/oidc?next=%2Fgoals' });
      assert.equal(response.statusCode, 502);
      assert.match(response.body, /The identity provider could not be reached/);
      assert.deepEqual(cookiesOf(response), []);
    } finally {
      await t.close();
    }
  });
});

describe('OIDC web sign-in configuration', () => {
  const base = { OIDC_ISSUER: 'https://id.example.com' };

  test('client id, secret and redirect URL are read', () => {
    const oidc = loadConfig({
      ...base,
      OIDC_CLIENT_ID: 'web',
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_REDIRECT_URL: 'https://keepsake.example.com/sign-in/oidc/callback',
    }).oidc;
    assert.deepEqual(oidc, {
      issuer: 'https://id.example.com',
      audience: null,
      clientId: 'web',
      clientSecret: 's3cret',
      redirectUrl: 'https://keepsake.example.com/sign-in/oidc/callback',
    });
  });

  test('bad values fail with one clear line', () => {
    assert.throws(
      () => loadConfig({ OIDC_CLIENT_ID: 'web' }),
      new ConfigError('OIDC_CLIENT_ID needs OIDC_ISSUER (the identity provider)'),
    );
    assert.throws(() => loadConfig({ ...base, OIDC_CLIENT_SECRET: 'x' }), /need OIDC_CLIENT_ID/);
    assert.throws(
      () => loadConfig({ ...base, OIDC_CLIENT_ID: 'web', OIDC_REDIRECT_URL: 'https://k.example.com/callback' }),
      /OIDC_REDIRECT_URL must end in \/sign-in\/oidc\/callback/,
    );
    assert.throws(
      () => loadConfig({ ...base, OIDC_CLIENT_ID: 'web', OIDC_REDIRECT_URL: 'nope' }),
      /OIDC_REDIRECT_URL is not a valid URL/,
    );
  });
});
