import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { adminCommands } from '../../src/cli/admin.js';
import { UsageError } from '../../src/cli/usage.js';
import { AppError } from '../../src/errors.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';

for (const dialect of dialects()) {
  describe(`admin app commands (${dialect})`, () => {
    let t: TestApp;
    let user: TestUser;

    before(async () => {
      t = await createTestApp(dialect);
      user = await createUser(t.ctx, { name: 'Ada' });
    });
    after(() => t.close());

    const run = async (command: string, args: string[]) => {
      const handler = adminCommands.get(command);
      assert.ok(handler, `${command} is registered`);
      return handler(t.ctx, args);
    };

    test('app create prints exactly {app_id, api_key, app_secret}', async () => {
      const out = await run('app create', [
        '--name',
        'Smoke App',
        '--owner',
        user.uid,
        '--capabilities',
        'external_integration',
        '--actions',
        'create_conversation,read_conversations',
      ]);
      assert.deepEqual(Object.keys(out).sort(), ['api_key', 'app_id', 'app_secret']);
      assert.match(String(out.api_key), /^sk_[0-9a-f]{32}$/);
      const view = await t.ctx.integrations.apps.get(user.uid, String(out.app_id));
      assert.deepEqual(view.external_integration?.actions, ['create_conversation', 'read_conversations']);
      assert.equal(view.owned, true);
    });

    test('app create takes every option of DESIGN §5, and works without an owner', async () => {
      const out = await run('app create', [
        '--name',
        'Coach',
        '--capabilities',
        'external_integration,proactive_notification',
        '--actions',
        'read_memories',
        '--triggers-on',
        'transcript_processed',
        '--webhook-url',
        'https://coach.example.com/hook',
        '--scopes',
        'user_name,user_facts',
      ]);
      const view = await t.ctx.integrations.apps.get(user.uid, String(out.app_id));
      assert.equal(view.owner_uid, null);
      assert.equal(view.external_integration?.triggers_on, 'transcript_processed');
      assert.deepEqual(view.proactive_notification?.scopes, ['user_name', 'user_facts']);
    });

    test('app enable prints {uid, app_id, enabled: true} and the key then works for that user', async () => {
      const created = await run('app create', [
        '--name',
        'Reader',
        '--capabilities',
        'external_integration',
        '--actions',
        'read_memories',
      ]);
      const out = await run('app enable', ['--uid', user.uid, '--app', String(created.app_id)]);
      assert.deepEqual(out, { uid: user.uid, app_id: created.app_id, enabled: true });
      const res = await t.app.inject({
        method: 'GET',
        url: `/v2/integrations/${created.app_id}/memories?uid=${user.uid}`,
        headers: { authorization: `Bearer ${created.api_key}` },
      });
      assert.equal(res.statusCode, 200);
    });

    test('a missing --name, an unknown owner or user is a usage error', async () => {
      await assert.rejects(run('app create', ['--owner', user.uid]), UsageError);
      await assert.rejects(run('app create', ['--name', 'X', '--owner', 'nobody']), UsageError);
      await assert.rejects(run('app enable', ['--uid', 'nobody', '--app', 'x']), UsageError);
    });

    test('an unknown app or an invalid declaration is reported with its detail', async () => {
      await assert.rejects(
        run('app enable', ['--uid', user.uid, '--app', 'missing']),
        (err: unknown) => err instanceof AppError && err.detail === 'App not found',
      );
      await assert.rejects(
        run('app create', ['--name', 'X', '--capabilities', 'telepathy']),
        (err: unknown) => err instanceof AppError && err.statusCode === 422,
      );
    });

    test('app create refuses a webhook URL on a loopback address', async () => {
      await assert.rejects(
        run('app create', [
          ...['--name', 'Local', '--capabilities', 'external_integration'],
          ...['--webhook-url', 'http://[::ffff:0:7f00:1]:9000/hook'],
        ]),
        (err: unknown) =>
          err instanceof AppError &&
          err.statusCode === 422 &&
          /webhook_url can never be delivered/.test(JSON.stringify(err.detail)),
      );
    });
  });
}
