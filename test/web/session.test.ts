import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { form, page, parseSetCookie, post, SAME_ORIGIN, signIn } from './support.js';

for (const dialect of dialects()) {
  describe(`web sign-in and CSRF (${dialect})`, () => {
    let t: TestApp;
    let user: TestUser;
    let cookie: string;

    before(async () => {
      t = await createTestApp(dialect);
      user = await createUser(t.ctx);
      cookie = await signIn(t.app, user.token);
    });
    after(() => t.close());

    test('a page without a session redirects to sign-in with the page to return to', async () => {
      const response = await t.app.inject({ url: '/memories?category=work' });
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, '/sign-in?next=%2Fmemories%3Fcategory%3Dwork');
    });

    test('signing in sets an HttpOnly SameSite=Strict cookie holding a fresh session token', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SAME_ORIGIN },
        payload: form({ token: user.token, next: '/goals' }),
      });
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, '/goals');
      const setCookie = String(response.headers['set-cookie']);
      const { attributes } = parseSetCookie(setCookie);
      assert.deepEqual(attributes, { Path: '/', HttpOnly: true, SameSite: 'Strict', 'Max-Age': '604800' });
      const token = decodeURIComponent(/keepsake_session=([^;]+)/.exec(setCookie)?.[1] ?? '');
      assert.notEqual(token, user.token);
      assert.equal(await t.ctx.users.resolveSessionToken(token), user.uid);
    });

    test('sign-in never redirects to another site', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ token: user.token, next: '//evil.example/x' }),
      });
      assert.equal(response.headers.location, '/conversations');
    });

    test('a wrong token re-renders the form with a 401 and sets no cookie', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ token: 'not-a-token' }),
      });
      assert.equal(response.statusCode, 401);
      assert.match(response.body, /That token is not valid or has expired/);
      assert.equal(response.headers['set-cookie'], undefined);
      // A developer key pasted by mistake is named as one, with the way to the right token.
      const key = await t.app.inject({
        method: 'POST',
        url: '/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ token: 'omi_dev_0123456789abcdef' }),
      });
      assert.equal(key.statusCode, 401);
      assert.match(key.body, /That is an API key, for scripts and apps/);
      assert.match(key.body, /admin token create/);
    });

    test('a sign-in posted from another site is refused', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
        payload: form({ token: user.token }),
      });
      assert.equal(response.statusCode, 403);
    });

    test('a cookie-authenticated form post from another origin is refused and changes nothing', async () => {
      const response = await post(
        t.app,
        cookie,
        '/memories',
        { content: 'Injected', category: 'other', visibility: 'private' },
        'https://evil.example',
      );
      assert.equal(response.statusCode, 403);
      assert.equal((await t.ctx.memories.list(user.uid, undefined, 100, 0)).length, 0);
    });

    test('a cookie-authenticated post with neither Origin nor Referer is refused', async () => {
      const response = await post(t.app, cookie, '/folders', { name: 'Sneaky' }, null);
      assert.equal(response.statusCode, 403);
    });

    test('a same-site Referer is accepted when Origin is absent', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/folders',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', referer: `${SAME_ORIGIN}/folders` },
        payload: form({ name: 'From referer' }),
      });
      assert.equal(response.statusCode, 303);
    });

    test('session API routes are guarded too: a cross-site key creation with the cookie is refused', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/dev/keys',
        headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
        payload: { name: 'stolen' },
      });
      assert.equal(response.statusCode, 403);
      assert.deepEqual(response.json(), { detail: 'Cross-site request refused' });
      assert.equal(
        (await t.ctx.keys.list(user.uid)).some((k) => k.name === 'stolen'),
        false,
      );
    });

    test('bearer-authenticated API calls need no Origin', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/dev/keys',
        headers: { ...user.session, 'content-type': 'application/json' },
        payload: { name: 'script' },
      });
      assert.equal(response.statusCode, 200);
    });

    test('pages carry a same-origin content security policy and are not cached', async () => {
      const response = await page(t.app, cookie, '/conversations');
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-security-policy']), /default-src 'self'; script-src 'self'/);
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.equal(response.headers['x-frame-options'], 'DENY');
    });

    test('sign-out clears the cookie', async () => {
      const response = await post(t.app, cookie, '/sign-out');
      assert.equal(response.statusCode, 303);
      assert.match(String(response.headers['set-cookie']), /keepsake_session=; .*Max-Age=0/);
    });

    test('the recorder gets a two-minute session token that the live stream accepts', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/record/token',
        headers: { cookie, origin: SAME_ORIGIN, accept: 'application/json' },
      });
      assert.equal(response.statusCode, 200);
      const body = response.json() as { token: string; expires_in: number };
      assert.equal(body.expires_in, 120);
      assert.equal(await t.ctx.users.resolveSessionToken(body.token), user.uid);
      assert.equal(response.headers['cache-control'], 'no-store');
    });

    test('the recorder token endpoint answers 401 JSON without a session', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/record/token',
        headers: { accept: 'application/json' },
      });
      assert.equal(response.statusCode, 401);
      assert.equal(typeof response.json().detail, 'string');
    });

    test('no page or static asset loads anything from another origin (no CDN, no web fonts)', async () => {
      const assets = readdirSync(join(process.cwd(), 'src/web/static'));
      assert.ok(assets.includes('app.css'), "assets.includes('app.css')");
      for (const name of assets) {
        const served = await t.app.inject({ url: `/static/${name}` });
        assert.equal(served.statusCode, 200, name);
        assert.doesNotMatch(served.body, /(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}|@import|@font-face/i, name);
      }
      for (const url of ['/sign-in', '/conversations', '/record', '/keys']) {
        const body = (await page(t.app, cookie, url)).body;
        assert.doesNotMatch(body, /(?:src|href)="(?:https?:)?\/\//i, url);
      }
    });

    test('static modules are served with their types; unknown files are 404', async () => {
      const js = await t.app.inject({ url: '/static/record.js' });
      assert.equal(js.statusCode, 200);
      assert.match(String(js.headers['content-type']), /^text\/javascript/);
      const again = await t.app.inject({
        url: '/static/record.js',
        headers: { 'if-none-match': String(js.headers.etag) },
      });
      assert.equal(again.statusCode, 304);
      assert.equal((await t.app.inject({ url: '/static/secret.js' })).statusCode, 404);
      assert.equal((await t.app.inject({ url: '/static/..%2Fpackage.json' })).statusCode, 422);
    });
  });
}
