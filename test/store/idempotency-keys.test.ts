import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IdempotencyKeysRepository, type IdempotencyRecord } from '../../src/store/repositories/idempotency-keys.js';
import { dialects, repositorySuite } from '../helpers/store.js';

const record = (userId: string, key: string, createdAt: number, hash = 'h1'): IdempotencyRecord => ({
  user_id: userId,
  scope: 'dev',
  key,
  request_hash: hash,
  status_code: 200,
  body: `{"hash":"${hash}"}`,
  final: 1,
  created_at: createdAt,
});

for (const dialect of dialects()) {
  describe(`idempotency keys repository (${dialect})`, () => {
    const s = repositorySuite(dialect, (store) => new IdempotencyKeysRepository(store.db));
    const claim = (row: IdempotencyRecord, expiredBefore: number) =>
      s.store.db.transaction().execute((tx) => s.repo.claim(tx, row, expiredBefore));

    test('a key is claimed once; a second claim while it is fresh fails and changes nothing', async () => {
      const user = await s.newUser();
      assert.equal(await claim(record(user, 'k', 1000), 0), true);
      assert.equal(await claim(record(user, 'k', 2000, 'h2'), 0), false);
      assert.equal((await s.repo.find(user, 'dev', 'k', 0))?.request_hash, 'h1');
    });

    test('an expired record is replaced by a new claim, and hidden from find', async () => {
      const user = await s.newUser();
      await claim(record(user, 'old', 1000), 0);
      assert.equal(await s.repo.find(user, 'dev', 'old', 1001), undefined);
      assert.equal(await claim(record(user, 'old', 5000, 'h2'), 1001), true);
      assert.equal((await s.repo.find(user, 'dev', 'old', 1001))?.request_hash, 'h2');
    });

    test('keys are per user and scope', async () => {
      const [ada, bob] = [await s.newUser(), await s.newUser()];
      assert.equal(await claim(record(ada, 'same', 1000), 0), true);
      assert.equal(await claim(record(bob, 'same', 1000), 0), true);
      assert.equal(await claim({ ...record(ada, 'same', 1000), scope: 'app:x' }, 0), true);
    });

    test('finalize replaces only a provisional answer', async () => {
      const user = await s.newUser();
      await claim({ ...record(user, 'p', 1000), final: 0, body: 'provisional' }, 0);
      await s.repo.finalize(user, 'dev', 'p', 200, 'final');
      await s.repo.finalize(user, 'dev', 'p', 200, 'again');
      const found = await s.repo.find(user, 'dev', 'p', 0);
      assert.deepEqual([found?.body, found?.final], ['final', 1]);
    });

    test('the sweep deletes records older than the cut-off and keeps the rest', async () => {
      const user = await s.newUser();
      await claim(record(user, 'stale', 10), 0);
      await claim(record(user, 'fresh', 10_000_000), 0);
      assert.ok((await s.repo.sweep(100)) >= 1, '(await s.repo.sweep(100)) >= 1');
      assert.equal(await s.repo.find(user, 'dev', 'stale', 0), undefined);
      assert.ok(await s.repo.find(user, 'dev', 'fresh', 0), "await s.repo.find(user, 'dev', 'fresh', 0)");
    });
  });
}
