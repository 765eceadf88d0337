import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startServer } from '../cli/server-process.js';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** `keepsake serve` on `dataDir` (SQLite), up and answering, with its log lines collected. */
const serve = (dataDir: string) => startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });

describe('DATA_DIR file modes', () => {
  const roots: string[] = [];
  after(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  test('a new DATA_DIR is created 0700, and the database, its -wal and -shm and the secret 0600', async () => {
    const root = mkdtempSync(join(tmpdir(), 'keepsake-modes-'));
    roots.push(root);
    const dataDir = join(root, 'data');
    const server = await serve(dataDir);
    try {
      assert.equal(modeOf(dataDir), '700');
      for (const file of ['keepsake.db', 'keepsake.db-wal', 'keepsake.db-shm', 'secret']) {
        assert.ok(existsSync(join(dataDir, file)), `${file} exists while the server runs`);
        assert.equal(modeOf(join(dataDir, file)), '600', file);
      }
      assert.doesNotMatch(server.output(), /open to other accounts/);
    } finally {
      await server.stop();
    }
  });

  test('an existing DATA_DIR that others can read is named at start with the chmod that fixes it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'keepsake-modes-'));
    roots.push(root);
    const dataDir = join(root, 'shared');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const server = await serve(dataDir);
    try {
      const warnings = server.output().match(/open to other accounts[^\n]*/g) ?? [];
      assert.equal(warnings.length, 1, server.output());
      assert.ok(warnings[0].includes(`chmod 700 ${dataDir}`), warnings[0]);
      assert.equal(modeOf(dataDir), '755', 'the operator’s directory is not changed behind their back');
      assert.equal(modeOf(join(dataDir, 'keepsake.db')), '600');
    } finally {
      await server.stop();
    }
  });
});
