import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { DEFAULT_LISTEN_TIMINGS } from '../../src/config.js';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers/app.js';
import { ARTIFACTS, browserMissing, launchPhoneBrowser, speechMissing, speechWav } from './browser.js';

const SPEECH =
  'Hello, this is a test of the recorder. Tomorrow I need to call the dentist and book an appointment. I also want to buy groceries for the weekend.';

describe('the web app in a real browser', { skip: browserMissing() ?? false }, () => {
  let t: TestApp;
  let user: TestUser;
  let base = '';
  let browser: BrowserContext;
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

  before(async () => {
    // Short silence timeout and lifecycle ticks so a recorded conversation finishes within the test.
    t = await createTestApp('sqlite', {
      runJobs: true,
      config: {
        listen: { ...DEFAULT_LISTEN_TIMINGS, minConversationTimeoutMs: 1000, lifecycleCheckMs: 250, drainMs: 2000 },
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    user = await createUser(t.ctx, { name: 'Ada' });
    await t.ctx.conversations.createFromSegments(user.uid, {
      transcript_segments: [
        { text: 'Shall we plan the garden party for Saturday afternoon at my place?', start: 0, end: 4, is_user: true },
        {
          text: 'Yes. I will bring lemonade and folding chairs for everyone.',
          start: 4,
          end: 8,
          speaker: 'SPEAKER_01',
        },
      ],
    });
    browser = await launchPhoneBrowser(speechMissing() ? null : speechWav(SPEECH));
    page = await browser.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('signing in with a session token opens the conversation list', async () => {
    await page.goto(`${base}/conversations`);
    assert.match(page.url(), /\/sign-in\?next=%2Fconversations$/);
    await page.getByLabel('Session token').fill(user.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/conversations`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Conversations');
    await shot('01-conversations');
  });

  test('the first Tab reaches the skip link, and every form control has a label', async () => {
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    const unlabeled = await page.evaluate(() =>
      [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
        .filter((el) => (el as HTMLInputElement).labels?.length === 0 && !el.getAttribute('aria-label'))
        .map((el) => el.outerHTML),
    );
    assert.deepEqual(unlabeled, []);
  });

  test('browsing opens a conversation with its transcript and speakers', async () => {
    await page
      .getByRole('link', { name: /garden party|Saturday|party/i })
      .first()
      .click();
    await page.waitForURL(/\/conversations\/[0-9a-f-]+$/);
    assert.match((await page.locator('.transcript').textContent()) ?? '', /lemonade and folding chairs/);
    assert.match((await page.locator('.speakers').textContent()) ?? '', /You: 1 segments/);
    await shot('02-conversation');
  });

  test('pages fit a 375 px wide screen without sideways scrolling', async () => {
    for (const path of ['/conversations', '/memories', '/action-items', '/goals', '/keys', '/record']) {
      await page.goto(`${base}${path}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 375, `${path} is ${width}px wide`);
    }
  });

  test('a memory is added and then edited through the forms', async () => {
    await page.goto(`${base}/memories`);
    await page.getByLabel('Memory', { exact: true }).fill('Grows tomatoes on the balcony');
    await page.getByLabel('Category', { exact: true }).first().selectOption('hobbies');
    await page.getByRole('button', { name: 'Add memory' }).click();
    await page.getByText('Created.').waitFor();
    const item = page.locator('li', { hasText: 'Grows tomatoes on the balcony' });
    await item.getByText('Edit or delete').click();
    await item.getByLabel('Memory').fill('Grows cherry tomatoes on the balcony');
    await item.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    const [memory] = await t.ctx.memories.list(user.uid, undefined, 10, 0);
    assert.deepEqual([memory.content, memory.category], ['Grows cherry tomatoes on the balcony', 'hobbies']);
    await shot('03-memories');
  });

  test('an action item is added and checked off', async () => {
    await page.goto(`${base}/action-items`);
    await page.getByLabel('New action item').fill('Buy compost');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('button', { name: 'Mark as done: Buy compost' }).click();
    await page.getByText('Marked as done.').waitFor();
    const items = await t.ctx.actionItems.list(user.uid, { completed: true, limit: 10, offset: 0 });
    assert.ok(
      items.some((i) => i.description === 'Buy compost'),
      "items.some((i) => i.description === 'Buy compost')",
    );
  });

  test('a developer key is created, shown once, and works against the API', async () => {
    await page.goto(`${base}/keys`);
    await page.getByLabel('Name').fill('browser test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('#new-key').inputValue();
    assert.match(key, /^omi_dev_[0-9a-f]{32}$/);
    await shot('04-key-created');
    const response = await fetch(`${base}/v1/dev/user/memories`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(response.status, 200);
    await page.goto(`${base}/keys`);
    assert.equal(await page.locator('#new-key').count(), 0);
    assert.match((await page.locator('table').textContent()) ?? '', /browser test/);
  });

  test('recording streams the microphone, shows the live transcript and ends with the summary', {
    skip: speechMissing() ?? false,
  }, async () => {
    await page.goto(`${base}/record?timeout=2`);
    await page.getByRole('button', { name: 'Keep audio too' }).click();
    await page.getByText('Audio is kept with each conversation').waitFor();
    await page.goto(`${base}/record?timeout=2`);
    await page.getByRole('button', { name: 'Start recording' }).click();
    // Generous: speech recognition runs on the same (often loaded) machine as the test.
    await page
      .locator('#transcript li')
      .first()
      .waitFor({ timeout: 150_000 })
      .catch(async (error: Error) => {
        const events = await page.locator('#events li').allTextContents();
        throw new Error(`no transcript: ${error.message}; events: ${events.join(' | ')}`);
      });
    await page.getByRole('button', { name: 'Stop recording' }).click();
    await page.locator('#result').waitFor({ state: 'visible', timeout: 150_000 });
    await page.getByText('Done: the conversation is saved.').waitFor();
    await shot('05-recording');
    const events = await page
      .locator('#events li')
      .evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.type));
    for (const type of ['service_status', 'conversation_session', 'memory_processing_started', 'memory_created'])
      assert.ok(events.includes(type), `${type} missing from ${events.join(', ')}`);
    const href = await page.locator('#result-link').getAttribute('href');
    const id = decodeURIComponent(href?.split('/').pop() ?? '');
    const conversation = await t.ctx.conversations.get(user.uid, id, true);
    assert.equal(conversation.status, 'completed');
    assert.ok(
      (conversation.transcript_segments ?? []).length > 0,
      '(conversation.transcript_segments ?? []).length > 0',
    );
    await page.locator('#result-link').click();
    await page.waitForURL(`${base}/conversations/${id}`);
    // The kept audio becomes an MP3 in the background; the page plays it once it is built.
    for (let i = 0; i < 40 && (await page.locator('audio').count()) === 0; i++) {
      await page.waitForTimeout(500);
      await page.reload();
    }
    const src = await page.locator('audio').getAttribute('src');
    const mp3 = await fetch(String(src));
    assert.equal(mp3.status, 200);
    assert.match(String(mp3.headers.get('content-type')), /audio\/mpeg/);
    await shot('06-recorded-conversation');
  });
});
