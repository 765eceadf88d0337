import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testConfig } from '../../src/config.js';
import { createTestApp, createUser } from '../helpers/app.js';
import { page, signIn } from './support.js';

// Issue 19 point 4: /readyz and the record page say which speech provider is active, and with none the
// record page says so before the user speaks, with the command that enables local speech.
const stt = (overrides: Partial<ReturnType<typeof testConfig>['stt']>) => ({ ...testConfig().stt, ...overrides });

describe('speech status', () => {
  test('no provider: /readyz names the reason; the record page warns and gives the commands', async () => {
    const t = await createTestApp('sqlite', { config: { stt: stt({ provider: 'none' }) } });
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.json().speech, { provider: null, reason: 'stt_disabled' });
      const user = await createUser(t.ctx, { name: 'Ada' });
      const body = (await page(t.app, await signIn(t.app, user.token), '/record')).body;
      assert.match(body, /id="speech" data-provider="" role="alert"/);
      assert.match(body, /no speech recognition/);
      assert.match(body, /apt-get install pocketsphinx pocketsphinx-en-us/);
      assert.match(body, /keepsake models download/);
    } finally {
      await t.close();
    }
  });

  test('a configured provider is named on /readyz and on the record page', async () => {
    const config = { stt: stt({ provider: 'deepgram', deepgramApiKey: 'dg-test-key' }) };
    const t = await createTestApp('sqlite', { config });
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.deepEqual(ready.json().speech, { provider: 'deepgram', reason: null });
      const user = await createUser(t.ctx, { name: 'Ada' });
      const body = (await page(t.app, await signIn(t.app, user.token), '/record')).body;
      assert.match(body, /Speech recognition: deepgram\./);
      assert.doesNotMatch(body, /no speech recognition/);
    } finally {
      await t.close();
    }
  });
});
