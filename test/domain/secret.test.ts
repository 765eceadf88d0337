import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadOrCreateSecret } from '../../src/domain/users/secret.js';

test('the first start writes a private secret file; later starts read the same secret', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keepsake-secret-'));
  try {
    const first = loadOrCreateSecret(null, dir);
    assert.match(first, /^[0-9a-f]{64}$/);
    assert.equal(loadOrCreateSecret(null, dir), first);
    assert.equal(readFileSync(join(dir, 'secret'), 'utf8'), `${first}\n`);
    assert.equal(statSync(join(dir, 'secret')).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), ['secret'], 'no draft file is left behind');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('KEEPSAKE_SECRET wins over the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keepsake-secret-'));
  try {
    assert.equal(loadOrCreateSecret('x'.repeat(40), dir), 'x'.repeat(40));
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
