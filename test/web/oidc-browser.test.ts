import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { ARTIFACTS, browserMissing, launchPhoneBrowser } from './browser.js';
import { FakeOidcProvider } from './fake-oidc-provider.js';

/**
 * The "Sign in with …" button in Chromium against a provider on another site (localhost vs
 * 127.0.0.1): the browser follows the real redirects, and the SameSite=Strict session cookie set on
 * the provider-initiated callback must reach the next page.
 */
describe('OpenID Connect sign-in in a real browser', { skip: browserMissing() ?? false }, () => {
  const provider = new FakeOidcProvider();
  let t: TestApp;
  let base = '';
  let browser: BrowserContext;
  let page: Page;

  before(async () => {
    await provider.start('localhost');
    provider.loginPage = true;
    const oidc = {
      issuer: provider.issuer,
      audience: null,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      redirectUrl: null,
    };
    t = await createTestApp('sqlite', { config: { oidc } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchPhoneBrowser(null);
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await provider.stop();
  });

  test('the button signs in through the provider and lands on the page asked for', async () => {
    await page.goto(`${base}/memories`);
    assert.match(page.url(), /\/sign-in\?next=%2Fmemories$/);
    await page.screenshot({ path: join(ARTIFACTS, '07-oidc-sign-in.png'), fullPage: true });
    await page.getByRole('link', { name: /^Sign in with localhost:\d+$/ }).click();
    await page.getByRole('link', { name: 'Continue to Keepsake' }).click();
    await page.waitForURL(`${base}/memories`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Memories');
    assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 1);
    await page.screenshot({ path: join(ARTIFACTS, '08-oidc-signed-in.png'), fullPage: true });
    const cookies = await browser.cookies(base);
    const session = cookies.find((c) => c.name === 'keepsake_session');
    assert.equal(session?.httpOnly, true);
    assert.equal(session?.sameSite, 'Strict');
    assert.equal(
      cookies.some((c) => c.name === 'keepsake_oidc'),
      false,
      'the attempt cookie is gone',
    );
    assert.equal((await t.ctx.users.get(provider.subject))?.name, 'Grace Hopper');
  });
});
