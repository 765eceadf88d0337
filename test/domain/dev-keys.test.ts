import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { READ_ONLY_SCOPES } from '../../src/domain/keys/dev-keys.js';
import { DevKeysService } from '../../src/domain/keys/service.js';
import { FakeApiKeys } from './fakes/api-keys.js';
import { refusal } from './refusal.js';

function setUp() {
  const clock = new ManualClock();
  const keys = new FakeApiKeys();
  return { clock, keys, service: new DevKeysService(keys.port, clock) };
}

describe('developer keys service', () => {
  test('a key is shown once in full and stored only as a hash with a display prefix', async () => {
    const { keys, service } = setUp();
    const created = await service.create('ada', '  laptop  ', null);
    assert.match(created.key, /^omi_dev_[0-9a-f]{32}$/);
    const [row] = keys.rows;
    assert.equal(row.name, 'laptop');
    assert.equal(row.key_prefix, `omi_dev_${created.key.slice(8, 12)}...${created.key.slice(-4)}`);
    assert.ok(!JSON.stringify(row).includes(created.key.slice(8)), 'the secret part is not stored');
  });

  test('a key created without scopes gets the read-only scopes', async () => {
    const { service } = setUp();
    const created = await service.create('ada', 'reader', undefined);
    assert.deepEqual(created.scopes, [...READ_ONLY_SCOPES]);
  });

  test('repeated scopes are stored once', async () => {
    const { keys, service } = setUp();
    await service.create('ada', 'writer', ['memories:write', 'memories:write', 'goals:read']);
    assert.equal(keys.rows[0].scopes, '["memories:write","goals:read"]');
  });

  test('an unknown scope is refused with 400 and no key is stored', async () => {
    const { keys, service } = setUp();
    await assert.rejects(service.create('ada', 'bad', ['memories:read', 'admin']), { statusCode: 400 });
    assert.deepEqual(keys.rows, []);
  });

  test('the presented key authenticates its user with its scopes; a near miss does not', async () => {
    const { service } = setUp();
    const created = await service.create('ada', 'writer', ['goals:write']);
    assert.deepEqual(await service.authenticate(created.key), {
      keyId: created.id,
      userId: 'ada',
      scopes: ['goals:write'],
    });
    const flipped = created.key.slice(0, -1) + (created.key.endsWith('0') ? '1' : '0');
    assert.equal(await service.authenticate(flipped), null);
    assert.equal(await service.authenticate(created.key.toUpperCase()), null);
  });

  test('last use is written at most once a minute per key', async () => {
    const { clock, keys, service } = setUp();
    const created = await service.create('ada', 'busy', null);
    const start = clock.now();
    for (let i = 0; i < 5; i++) {
      await service.authenticate(created.key);
      clock.advance(10_000);
    }
    assert.deepEqual([keys.touches, keys.rows[0].last_used_at], [1, start]);
    clock.set(start + 60_000);
    await service.authenticate(created.key);
    assert.deepEqual([keys.touches, keys.rows[0].last_used_at], [2, start + 60_000]);
  });

  test("revoking another user's key is a 404 that leaves it working", async () => {
    const { service } = setUp();
    const created = await service.create('ada', 'mine', null);
    await assert.rejects(service.revoke('bob', created.id), refusal(404, 'API key not found'));
    assert.equal((await service.authenticate(created.key))?.userId, 'ada');
    await service.revoke('ada', created.id);
    assert.equal(await service.authenticate(created.key), null);
  });
});
