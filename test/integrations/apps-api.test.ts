import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';

const INTEGRATION = {
  name: 'Journal Sync',
  capabilities: ['external_integration', 'proactive_notification'],
  actions: ['create_conversation', 'read_memories'],
  triggers_on: 'memory_creation',
  webhook_url: 'https://journal.example.com/hook',
  scopes: ['user_name', 'user_facts'],
};

for (const dialect of dialects()) {
  describe(`apps REST API (${dialect})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let other: TestUser;

    before(async () => {
      t = await createTestApp(dialect);
      owner = await createUser(t.ctx, { name: 'Owner' });
      other = await createUser(t.ctx, { name: 'Other' });
    });
    after(() => t.close());

    const call = (user: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: user.session, ...(payload ? { payload } : {}) });
    const createApp = async (payload: object = INTEGRATION) => (await call(owner, 'POST', '/v1/apps', payload)).json();

    test('creating an app shows its sk_ key and secret once, with the declared configuration', async () => {
      const res = await call(owner, 'POST', '/v1/apps', INTEGRATION);
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.match(body.api_key, /^sk_[0-9a-f]{32}$/);
      assert.match(body.app_secret, /^ksec_[0-9a-f]{32}$/);
      assert.equal(body.app.id, body.app_id);
      assert.deepEqual(body.app.external_integration, {
        triggers_on: 'memory_creation',
        webhook_url: 'https://journal.example.com/hook',
        actions: ['create_conversation', 'read_memories'],
      });
      assert.deepEqual(body.app.proactive_notification, { scopes: ['user_name', 'user_facts'] });
      assert.equal(body.app.owned, true);
      const stored = await t.ctx.store.db
        .selectFrom('app_keys')
        .selectAll()
        .where('app_id', '=', body.app_id)
        .execute();
      assert.equal(stored.length, 1);
      assert.ok(!JSON.stringify(stored).includes(body.api_key.slice(3)), 'only a hash of the key is stored');
    });

    test('another user sees the app without its webhook URL', async () => {
      const created = await createApp();
      const res = await call(other, 'GET', `/v1/apps/${created.app_id}`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().owned, false);
      assert.equal(res.json().external_integration.webhook_url, null);
    });

    test('an unknown app is 404 App not found', async () => {
      const res = await call(owner, 'GET', '/v1/apps/no-such-app');
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { detail: 'App not found' });
    });

    test('the list holds apps the user owns or enabled, not others', async () => {
      const mine = await createApp({ ...INTEGRATION, name: 'Mine' });
      const res = await call(other, 'GET', '/v1/apps');
      assert.ok(
        !res.json().some((a: { id: string }) => a.id === mine.app_id),
        '!res.json().some((a: { id: string }) => a.id === mine.app_id)',
      );
      await call(other, 'POST', `/v1/apps/${mine.app_id}/enable`);
      const after = (await call(other, 'GET', '/v1/apps')).json() as Array<{
        id: string;
        enabled: boolean;
        owned: boolean;
      }>;
      const listed = after.find((a) => a.id === mine.app_id);
      assert.deepEqual({ enabled: listed?.enabled, owned: listed?.owned }, { enabled: true, owned: false });
    });

    test('the owner creates, lists and revokes extra keys', async () => {
      const created = await createApp();
      const res = await call(owner, 'POST', `/v1/apps/${created.app_id}/keys`);
      assert.equal(res.statusCode, 200);
      const key = res.json();
      assert.match(key.secret, /^sk_[0-9a-f]{32}$/);
      assert.equal(key.label, `sk_${key.secret.slice(3, 7)}...${key.secret.slice(-4)}`);
      const listed = (await call(owner, 'GET', `/v1/apps/${created.app_id}/keys`)).json();
      assert.equal(listed.length, 2);
      assert.ok(
        listed.every((k: object) => !('secret' in k)),
        "listed.every((k: object) => !('secret' in k))",
      );
      assert.equal((await call(owner, 'DELETE', `/v1/apps/${created.app_id}/keys/${key.id}`)).statusCode, 204);
      assert.equal((await call(owner, 'GET', `/v1/apps/${created.app_id}/keys`)).json().length, 1);
    });

    test('a non-owner cannot create keys (403 with the reference text)', async () => {
      const created = await createApp();
      const res = await call(other, 'POST', `/v1/apps/${created.app_id}/keys`);
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), { detail: 'You are not authorized to create API keys for this app' });
    });

    test('keys of an unknown app are 404 App not found', async () => {
      const res = await call(owner, 'POST', '/v1/apps/unknown/keys');
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().detail, 'App not found');
    });

    test('revoking an unknown key is 404', async () => {
      const created = await createApp();
      const res = await call(owner, 'DELETE', `/v1/apps/${created.app_id}/keys/nope`);
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().detail, 'API key not found');
    });

    test('enabling grants the scopes the app requests; disabling removes the grant', async () => {
      const created = await createApp();
      const enabled = await call(other, 'POST', `/v1/apps/${created.app_id}/enable`);
      assert.deepEqual(enabled.json(), {
        uid: other.uid,
        app_id: created.app_id,
        enabled: true,
        granted_scopes: ['user_name', 'user_facts'],
      });
      assert.deepEqual((await call(other, 'GET', `/v1/apps/${created.app_id}`)).json().granted_scopes, [
        'user_name',
        'user_facts',
      ]);
      const disabled = await call(other, 'POST', `/v1/apps/${created.app_id}/disable`);
      assert.deepEqual(disabled.json(), { uid: other.uid, app_id: created.app_id, enabled: false });
      assert.equal((await call(other, 'GET', `/v1/apps/${created.app_id}`)).json().enabled, false);
    });

    test('the owner edits the app; fields left out keep their value', async () => {
      const created = await createApp();
      const res = await call(owner, 'PATCH', `/v1/apps/${created.app_id}`, {
        webhook_url: 'https://journal.example.com/v2',
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().external_integration.webhook_url, 'https://journal.example.com/v2');
      assert.equal(res.json().name, 'Journal Sync');
    });

    test('a non-owner cannot edit or delete the app', async () => {
      const created = await createApp();
      assert.equal((await call(other, 'PATCH', `/v1/apps/${created.app_id}`, { name: 'Taken' })).statusCode, 403);
      assert.equal((await call(other, 'DELETE', `/v1/apps/${created.app_id}`)).statusCode, 403);
    });

    test('a deleted app is gone for everyone', async () => {
      const created = await createApp();
      assert.equal((await call(owner, 'DELETE', `/v1/apps/${created.app_id}`)).statusCode, 204);
      assert.equal((await call(owner, 'GET', `/v1/apps/${created.app_id}`)).statusCode, 404);
      assert.equal((await call(other, 'POST', `/v1/apps/${created.app_id}/enable`)).statusCode, 404);
    });

    test('unknown capabilities, actions, triggers or scopes are 422 naming the allowed values', async () => {
      for (const bad of [
        { capabilities: ['teleport'] },
        { actions: ['delete_everything'] },
        { scopes: ['user_bank'] },
      ]) {
        const res = await call(owner, 'POST', '/v1/apps', { ...INTEGRATION, ...bad });
        assert.equal(res.statusCode, 422, JSON.stringify(bad));
        const [issue] = res.json().detail;
        assert.deepEqual(issue.loc, ['body', Object.keys(bad)[0]]);
        assert.match(issue.msg, /^Unknown .+ Allowed: /);
      }
      const trigger = await call(owner, 'POST', '/v1/apps', { ...INTEGRATION, triggers_on: 'sunrise' });
      assert.equal(trigger.statusCode, 422);
    });

    test('actions without the external_integration capability are 422', async () => {
      const res = await call(owner, 'POST', '/v1/apps', { name: 'X', actions: ['read_memories'] });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().detail, [
        {
          loc: ['body', 'capabilities'],
          msg: 'actions, triggers_on and webhook_url need the external_integration capability',
          type: 'value_error',
        },
      ]);
    });

    test('a trigger without a webhook URL is 422', async () => {
      const res = await call(owner, 'POST', '/v1/apps', {
        name: 'X',
        capabilities: ['external_integration'],
        triggers_on: 'memory_creation',
      });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().detail, [
        { loc: ['body', 'webhook_url'], msg: 'webhook_url is required when triggers_on is set', type: 'value_error' },
      ]);
    });

    test('a webhook URL that is not http(s) is 422', async () => {
      const res = await call(owner, 'POST', '/v1/apps', { ...INTEGRATION, webhook_url: 'ftp://example.com/x' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().detail, [
        { loc: ['body', 'webhook_url'], msg: 'webhook_url must use http or https', type: 'value_error' },
      ]);
    });

    test('a webhook URL that can never be delivered is refused when the app is created or edited', async () => {
      const created = await createApp();
      for (const target of [
        'http://127.0.0.1:8080/hook',
        'http://10.0.0.7/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/hook',
        'http://[::127.0.0.1]/hook',
        'http://[::ffff:0:7f00:1]/hook',
        'http://[2002:7f00:1::]/hook',
        'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
        'http://[64:ff9b::a00:1]/hook',
        'http://[64:ff9b:1::1]/hook',
        'http://[fd00::1]/hook',
        'http://localhost:3000/hook',
        'http://api.localhost/hook',
        'http://2130706433/hook',
      ]) {
        for (const res of [
          await call(owner, 'POST', '/v1/apps', { ...INTEGRATION, webhook_url: target }),
          await call(owner, 'PATCH', `/v1/apps/${created.app_id}`, { webhook_url: target }),
        ]) {
          assert.equal(res.statusCode, 422, target);
          const [issue] = res.json().detail;
          assert.deepEqual(issue.loc, ['body', 'webhook_url'], target);
          assert.equal(issue.type, 'value_error');
          assert.match(issue.msg, /can never be delivered: .+ALLOW_PRIVATE_WEBHOOKS=true/, target);
        }
      }
      const view = (await call(owner, 'GET', `/v1/apps/${created.app_id}`)).json();
      assert.equal(view.external_integration.webhook_url, INTEGRATION.webhook_url, 'the stored URL is unchanged');
    });

    test('the refusal names why: a loopback address embedded in IPv6', async () => {
      const res = await call(owner, 'POST', '/v1/apps', { ...INTEGRATION, webhook_url: 'http://[::127.0.0.1]/' });
      assert.match(res.json().detail[0].msg, /::7f00:1 is IPv4-compatible and embeds 127\.0\.0\.1, a loopback address/);
    });

    test('public literals and names are accepted (names are checked again at dispatch)', async () => {
      for (const target of [
        'http://93.184.216.34/hook',
        'https://[2606:4700:4700::1111]/hook',
        'https://hooks.example.net/x',
      ]) {
        const res = await call(owner, 'POST', '/v1/apps', { ...INTEGRATION, webhook_url: target });
        assert.equal(res.statusCode, 200, target);
      }
    });

    test('app routes need a session token', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/apps' });
      assert.equal(res.statusCode, 401);
      const withDevKey = await t.app.inject({ method: 'GET', url: '/v1/apps', headers: owner.auth });
      assert.equal(withDevKey.statusCode, 401);
    });
  });

  describe(`apps REST API with ALLOW_PRIVATE_WEBHOOKS=true (${dialect})`, () => {
    let t: TestApp;
    let owner: TestUser;
    before(async () => {
      t = await createTestApp(dialect, { config: { allowPrivateWebhooks: true } });
      owner = await createUser(t.ctx, { name: 'Owner' });
    });
    after(() => t.close());

    test('a private webhook URL is accepted', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/apps',
        headers: owner.session,
        payload: { ...INTEGRATION, webhook_url: 'http://10.0.0.7:8080/hook' },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().app.external_integration.webhook_url, 'http://10.0.0.7:8080/hook');
    });
  });
}
