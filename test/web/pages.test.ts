import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { page, parseSetCookie, post, signIn } from './support.js';

const STORY =
  'Yesterday I met Maria at the bakery on Elm Street. We agreed that I will send her the quarterly budget spreadsheet by Friday. She told me about her marathon training and her new running shoes.';

/** The one-time key cookie a key creation sets, as a Cookie header part. */
function flashCookie(response: { headers: Record<string, unknown> }): string {
  const cookie = String(response.headers['set-cookie']).split(';')[0];
  assert.match(cookie, /^keepsake_new_key=.+/);
  return cookie;
}

for (const dialect of dialects()) {
  describe(`web pages (${dialect})`, () => {
    let t: TestApp;
    let ada: TestUser;
    let bob: TestUser;
    let cookie: string;

    before(async () => {
      t = await createTestApp(dialect);
      ada = await createUser(t.ctx, { name: 'Ada', timezone: 'Europe/Berlin' });
      bob = await createUser(t.ctx, { name: 'Bob' });
      cookie = await signIn(t.app, ada.token);
    });
    after(() => t.close());

    test('adding a memory stores it and lists it, with markup escaped', async () => {
      const added = await post(t.app, cookie, '/memories', {
        content: 'Likes <script>alert(1)</script> jazz',
        category: 'interests',
        visibility: 'private',
      });
      assert.equal(added.statusCode, 303);
      assert.equal(added.headers.location, '/memories?done=created');
      const [stored] = await t.ctx.memories.list(ada.uid, undefined, 10, 0);
      assert.deepEqual([stored.content, stored.category], ['Likes <script>alert(1)</script> jazz', 'interests']);
      const listed = await page(t.app, cookie, '/memories?done=created');
      assert.match(listed.body, /Likes &lt;script&gt;alert\(1\)&lt;\/script&gt; jazz/);
      assert.doesNotMatch(listed.body, /<script>alert/);
      assert.match(listed.body, /role="status">Created\./);
    });

    test('editing and deleting a memory change the stored row', async () => {
      const memory = await t.ctx.memories.create(ada.uid, { content: 'Owns a bicycle' });
      await post(t.app, cookie, `/memories/${memory.id}/edit`, {
        content: 'Owns two bicycles',
        category: 'lifestyle',
        visibility: 'public',
      });
      const edited = (await t.ctx.memories.list(ada.uid, undefined, 100, 0)).find((m) => m.id === memory.id);
      assert.deepEqual(
        [edited?.content, edited?.category, edited?.visibility],
        ['Owns two bicycles', 'lifestyle', 'public'],
      );
      assert.equal((await post(t.app, cookie, `/memories/${memory.id}/delete`)).statusCode, 303);
      assert.equal(
        (await t.ctx.memories.list(ada.uid, undefined, 100, 0)).some((m) => m.id === memory.id),
        false,
      );
    });

    test('a form that fails validation renders a 422 page, not a server error', async () => {
      const response = await post(t.app, cookie, '/memories', {
        content: 'x',
        category: 'nonsense',
        visibility: 'private',
      });
      assert.equal(response.statusCode, 422);
      assert.match(String(response.headers['content-type']), /text\/html/);
      assert.match(response.body, /role="alert"/);
    });

    test('an action item gets its due date in the user time zone, is checked off and reopened', async () => {
      await post(t.app, cookie, '/action-items', { description: 'Water the plants', due: '2030-07-01T09:30' });
      const [item] = (await t.ctx.actionItems.list(ada.uid, { limit: 100, offset: 0 })).filter(
        (i) => i.description === 'Water the plants',
      );
      // Berlin is UTC+2 in July.
      assert.equal(item.due_at, '2030-07-01T07:30:00.000Z');
      const done = await post(t.app, cookie, `/action-items/${item.id}/complete`, {
        completed: 'true',
        back: '/action-items?show=open',
      });
      assert.equal(done.headers.location, '/action-items?show=open&done=completed');
      assert.equal(
        (await t.ctx.actionItems.list(ada.uid, { completed: true, limit: 100, offset: 0 })).some(
          (i) => i.id === item.id,
        ),
        true,
      );
      await post(t.app, cookie, `/action-items/${item.id}/complete`, { completed: 'false' });
      assert.equal(
        (await t.ctx.actionItems.list(ada.uid, { completed: false, limit: 100, offset: 0 })).some(
          (i) => i.id === item.id,
        ),
        true,
      );
    });

    test('clearing a due date removes it', async () => {
      const item = await t.ctx.actionItems.create(ada.uid, {
        description: 'Call the plumber',
        due_at: '2030-01-01T10:00:00Z',
      });
      await post(t.app, cookie, `/action-items/${item.id}/due`, { due: '', clear: '1' });
      const [after] = (await t.ctx.actionItems.list(ada.uid, { limit: 100, offset: 0 })).filter(
        (i) => i.id === item.id,
      );
      assert.equal(after.due_at, null);
    });

    test('the conversation list shows completed conversations and search finds by word', async () => {
      const created = await t.ctx.conversations.createFromText(ada.uid, { text: STORY });
      const list = await page(t.app, cookie, '/conversations');
      assert.match(list.body, new RegExp(`href="/conversations/${created.id}"`));
      const hit = await page(t.app, cookie, '/conversations?q=marathon');
      assert.match(hit.body, new RegExp(created.id));
      const miss = await page(t.app, cookie, '/conversations?q=submarine');
      assert.doesNotMatch(miss.body, new RegExp(created.id));
      assert.match(miss.body, /No conversations match/);
    });

    test('list filters apply: a category that does not match hides the conversation', async () => {
      const created = await t.ctx.conversations.createFromText(ada.uid, { text: STORY });
      const { structured } = await t.ctx.conversations.get(ada.uid, created.id, false);
      const other = structured.category === 'music' ? 'sports' : 'music';
      assert.match(
        (await page(t.app, cookie, `/conversations?category=${structured.category}`)).body,
        new RegExp(created.id),
      );
      assert.doesNotMatch((await page(t.app, cookie, `/conversations?category=${other}`)).body, new RegExp(created.id));
      assert.equal((await page(t.app, cookie, '/conversations?category=bogus')).statusCode, 422);
    });

    test('the conversation page shows the transcript with speakers and can rename, star and delete', async () => {
      const created = await t.ctx.conversations.createFromSegments(ada.uid, {
        transcript_segments: [
          { text: 'Shall we plan the garden party for Saturday afternoon?', start: 0, end: 3, is_user: true },
          { text: 'Yes, and I will bring lemonade and chairs for everyone.', start: 3, end: 7, speaker: 'SPEAKER_01' },
        ],
      });
      const detail = await page(t.app, cookie, `/conversations/${created.id}`);
      assert.match(detail.body, /<span class="speaker">You<\/span>/);
      assert.match(detail.body, /I will bring lemonade and chairs/);
      await post(t.app, cookie, `/conversations/${created.id}/title`, { title: 'Garden party' });
      await post(t.app, cookie, `/conversations/${created.id}/star`, { starred: 'true' });
      const renamed = await t.ctx.conversations.get(ada.uid, created.id, false);
      assert.deepEqual([renamed.structured.title, renamed.starred], ['Garden party', true]);
      const deleted = await post(t.app, cookie, `/conversations/${created.id}/delete`);
      assert.equal(deleted.headers.location, '/conversations?done=deleted');
      assert.equal((await page(t.app, cookie, `/conversations/${created.id}`)).statusCode, 404);
    });

    test('a conversation created from text shows that text as its transcript, escaped', async () => {
      const created = await t.ctx.conversations.createFromText(ada.uid, {
        text: 'I will send the <b>budget</b> to Maria by Friday.\nWe agreed to cut travel costs.',
      });
      const detail = await page(t.app, cookie, `/conversations/${created.id}`);
      assert.match(detail.body, /<p>I will send the &lt;b&gt;budget&lt;\/b&gt; to Maria by Friday.<\/p>/);
      assert.match(detail.body, /<p>We agreed to cut travel costs.<\/p>/);
      assert.doesNotMatch(detail.body, /No transcript/);
    });

    test("another user's conversation is a 404 and cannot be deleted", async () => {
      const theirs = await t.ctx.conversations.createFromText(bob.uid, { text: STORY });
      assert.equal((await page(t.app, cookie, `/conversations/${theirs.id}`)).statusCode, 404);
      assert.equal((await post(t.app, cookie, `/conversations/${theirs.id}/delete`)).statusCode, 404);
      assert.equal((await t.ctx.conversations.get(bob.uid, theirs.id, false)).id, theirs.id);
      assert.doesNotMatch((await page(t.app, cookie, '/conversations')).body, new RegExp(theirs.id));
    });

    test("another user's memory is neither listed nor editable", async () => {
      const theirs = await t.ctx.memories.create(bob.uid, { content: 'Bob secret fact' });
      assert.doesNotMatch((await page(t.app, cookie, '/memories')).body, /Bob secret fact/);
      const edit = await post(t.app, cookie, `/memories/${theirs.id}/edit`, {
        content: 'hijacked',
        category: 'other',
        visibility: 'private',
      });
      assert.equal(edit.statusCode, 404);
      assert.equal((await t.ctx.memories.list(bob.uid, undefined, 10, 0))[0].content, 'Bob secret fact');
    });

    test('goals are created and their progress recorded', async () => {
      await post(t.app, cookie, '/goals', {
        title: 'Run 100 km',
        goal_type: 'numeric',
        target_value: '100',
        unit: 'km',
      });
      const [goal] = (await t.ctx.goals.list(ada.uid, false, 10)).filter((g) => g.title === 'Run 100 km');
      await post(t.app, cookie, `/goals/${goal.id}/progress`, { value: '42.5' });
      assert.equal((await t.ctx.goals.get(ada.uid, goal.id)).current_value, 42.5);
      assert.match((await page(t.app, cookie, '/goals')).body, /42.5 km of 100 km/);
    });

    test('folders are created and conversations moved into them', async () => {
      await post(t.app, cookie, '/folders', { name: 'Family', description: 'Home things' });
      const [folder] = (await t.ctx.folders.list(ada.uid)).filter((f) => f.name === 'Family');
      const created = await t.ctx.conversations.createFromText(ada.uid, { text: STORY });
      await post(t.app, cookie, `/conversations/${created.id}/folder`, { folder: folder.id });
      assert.equal((await t.ctx.conversations.get(ada.uid, created.id, false)).folder_id, folder.id);
      const filtered = await page(t.app, cookie, `/conversations?folder=${folder.id}`);
      assert.match(filtered.body, new RegExp(created.id));
    });

    test('people are added, renamed and deleted', async () => {
      await post(t.app, cookie, '/people', { name: 'Grace' });
      const listed = await page(t.app, cookie, '/people');
      const id = /action="\/people\/([^/]+)\/edit"/.exec(listed.body)?.[1];
      assert.ok(id, 'id');
      await post(t.app, cookie, `/people/${id}/edit`, { name: 'Grace Hopper' });
      assert.match((await page(t.app, cookie, '/people')).body, /Grace Hopper/);
      await post(t.app, cookie, `/people/${id}/delete`);
      assert.doesNotMatch((await page(t.app, cookie, '/people')).body, /Grace Hopper/);
    });

    test('apps are enabled and disabled, with the granted scopes shown', async () => {
      const app = await t.ctx.integrations.apps.create(null, {
        name: 'Coach',
        capabilities: ['proactive_notification'],
        scopes: ['user_name'],
      });
      await post(t.app, cookie, '/apps/enable', { app_id: app.app_id });
      const enabled = await page(t.app, cookie, '/apps');
      assert.match(enabled.body, /Coach <span class="badge ok">enabled<\/span>/);
      assert.match(enabled.body, /<dt>Granted scopes<\/dt><dd>user_name<\/dd>/);
      await post(t.app, cookie, `/apps/${app.app_id}/disable`);
      assert.equal((await t.ctx.integrations.apps.get(ada.uid, app.app_id)).enabled, false);
    });

    test('a created key is shown once and works; revoking it ends its access', async () => {
      const before = (await t.ctx.keys.list(ada.uid)).length;
      const created = await post(t.app, cookie, '/keys', {
        name: 'laptop script',
        scopes: ['memories:read', 'memories:write'],
      });
      // Post/redirect/get: the key is neither in the answer nor in the redirect's URL.
      assert.equal(created.statusCode, 303);
      assert.equal(created.headers.location, '/keys');
      assert.doesNotMatch(created.body, /omi_dev_/);
      const flash = flashCookie(created);
      const flashLine = parseSetCookie(String(created.headers['set-cookie']));
      assert.match(flashLine.pair, /^keepsake_new_key=[^;]+$/);
      assert.deepEqual(flashLine.attributes, { Path: '/keys', HttpOnly: true, SameSite: 'Strict', 'Max-Age': '60' });
      assert.doesNotMatch(String(created.headers['set-cookie']), /omi_dev_/);
      const shown = await page(t.app, `${cookie}; ${flash}`, '/keys');
      assert.equal(shown.statusCode, 200);
      const key = /value="(omi_dev_[0-9a-f]{32})"/.exec(shown.body)?.[1];
      assert.ok(key, 'key');
      assert.match(shown.body, /Key created\./);
      const cleared = parseSetCookie(String(shown.headers['set-cookie']));
      assert.equal(cleared.pair, 'keepsake_new_key=');
      assert.deepEqual([cleared.attributes.Path, cleared.attributes['Max-Age']], ['/keys', '0']);
      // The browser drops the cleared cookie; reloading shows no key and creates none.
      assert.doesNotMatch((await page(t.app, cookie, '/keys')).body, /omi_dev_[0-9a-f]{32}/);
      // Even a replayed cookie does not show it twice.
      assert.doesNotMatch((await page(t.app, `${cookie}; ${flash}`, '/keys')).body, /omi_dev_[0-9a-f]{32}/);
      assert.equal((await t.ctx.keys.list(ada.uid)).length, before + 1);
      const me = await t.app.inject({ url: '/v1/dev/key', headers: { authorization: `Bearer ${key}` } });
      assert.deepEqual(me.json().scopes, ['memories:read', 'memories:write']);
      const id = me.json().id as string;
      await post(t.app, cookie, `/keys/${id}/revoke`);
      assert.equal(
        (await t.app.inject({ url: '/v1/dev/key', headers: { authorization: `Bearer ${key}` } })).statusCode,
        401,
      );
    });

    test('a flashed key is shown only to the account that created it', async () => {
      const created = await post(t.app, cookie, '/keys', { name: 'mine' });
      const other = await createUser(t.ctx, { name: 'Other' });
      const otherCookie = await signIn(t.app, other.token);
      const shown = await page(t.app, `${otherCookie}; ${flashCookie(created)}`, '/keys');
      assert.equal(shown.statusCode, 200);
      assert.doesNotMatch(shown.body, /omi_dev_[0-9a-f]{32}/);
    });

    test('the record page switches keeping the audio on and off', async () => {
      await post(t.app, cookie, '/record/settings', { audio_capture: 'true' });
      assert.equal((await t.ctx.audio.service.settings(ada.uid)).audio_capture, true);
      assert.match((await page(t.app, cookie, '/record')).body, /Don&#39;t keep audio/);
      await post(t.app, cookie, '/record/settings', { audio_capture: 'false' });
      assert.equal((await t.ctx.audio.service.settings(ada.uid)).audio_capture, false);
    });

    test('the notifications page lists stored notifications', async () => {
      await t.ctx.integrations.notifications.deliver(ada.uid, {
        appId: null,
        title: 'Reminder',
        message: 'Stretch your legs',
        source: 'integration',
      });
      assert.match((await page(t.app, cookie, '/notifications')).body, /Stretch your legs/);
    });
  });
}
