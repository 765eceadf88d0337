import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import pino from 'pino';
import { claimOwner } from '../../src/cli/owner.js';
import { testConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import { openStore } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createTestApp } from '../helpers/app.js';
import { BIN, freePort, waitForServe } from './server-process.js';

const databaseUrl = process.env.TEST_DATABASE_URL;

interface Started {
  child: ChildProcess;
  output: () => string;
}

/** Starts `keepsake serve` processes at the same moment; waits until every one answers /healthz and one printed. */
async function startTogether(count: number, env: NodeJS.ProcessEnv): Promise<Started[]> {
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const started = ports.map((port) => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', STT_PROVIDER: 'none', PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    return { child, port, output: () => out };
  });
  try {
    // The banner follows the bound port, so /healthz can answer before the one process prints it.
    const printed = () => started.some((s) => /session token:/.test(s.output()));
    for (const { port, child, output } of started)
      await waitForServe(`http://127.0.0.1:${port}`, child, output, printed);
  } catch (err) {
    // Never leave a server behind: its pipes would hold the test runner open.
    await stopAll(started);
    throw err;
  }
  return started;
}

async function stopAll(started: Started[]): Promise<void> {
  await Promise.all(
    started.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          // A server that ignores SIGTERM (stuck starting) is killed after 30 s.
          setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
        }),
    ),
  );
}

/**
 * Exactly one owner is stored, with exactly one key, and exactly one process printed the first-start
 * secrets naming it.
 */
function assertOneOwner(started: Started[], owners: Array<{ id: string }>, keys: Array<{ user_id: string }>): void {
  const printers = started.filter((s) => s.output().includes('first start'));
  assert.equal(printers.length, 1, started.map((s) => s.output()).join('\n----\n'));
  assert.equal(owners.length, 1);
  assert.match(printers[0].output(), new RegExp(`uid:\\s+${owners[0].id}`));
  assert.deepEqual(
    keys.map((k) => k.user_id),
    owners.map((o) => o.id),
  );
}

describe('first-start owner creation with several processes starting at once', () => {
  test('SQLite: three processes on one fresh data directory create one owner', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'keepsake-owner-'));
    // Migrated beforehand, so no process is held back by migrating and all reach the owner step together.
    const migrated = openStore({ databaseUrl: null, dataDir });
    await migrateToLatest(migrated);
    await migrated.close();
    const started = await startTogether(3, {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      KEEPSAKE_SECRET: randomBytes(32).toString('hex'),
    });
    try {
      const db = new Database(join(dataDir, 'keepsake.db'), { readonly: true });
      const owners = db.prepare('select id from users').all() as Array<{ id: string }>;
      const keys = db.prepare('select user_id from api_keys').all() as Array<{ user_id: string }>;
      db.close();
      assertOneOwner(started, owners, keys);
    } finally {
      await stopAll(started);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('PostgreSQL: three processes on one fresh database create one owner', {
    skip: databaseUrl ? false : 'TEST_DATABASE_URL not set',
  }, async () => {
    const name = `ks_owner_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(databaseUrl ?? '');
    url.pathname = `/${name}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'keepsake-owner-'));
    let started: Started[] = [];
    try {
      const secret = randomBytes(32).toString('hex');
      const env = { DATA_DIR: dataDir, DATABASE_URL: url.toString(), REDIS_URL: '', KEEPSAKE_SECRET: secret };
      started = await startTogether(3, env);
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const owners = (await client.query<{ id: string }>('select id from users')).rows;
      const keys = (await client.query<{ user_id: string }>('select user_id from api_keys')).rows;
      await client.end();
      assertOneOwner(started, owners, keys);
    } finally {
      await stopAll(started);
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('PostgreSQL: two contexts with their own pools claiming at once create one owner', {
    skip: databaseUrl ? false : 'TEST_DATABASE_URL not set',
  }, async () => {
    // Two contexts with their own pools on one fresh schema, as two processes would be; their first
    // queries interleave, so a check-then-create would make two owners here.
    const first = await createTestApp('postgres');
    const store = openStore({ databaseUrl: databaseUrl ?? '', dataDir: ':memory:', pgSchema: first.ctx.store.schema });
    const second = await createContext(testConfig(), { store, log: pino({ level: 'silent' }) });
    try {
      const claims = await Promise.all([claimOwner(first.ctx), claimOwner(second)]);
      assert.equal(claims.filter((c) => c !== null).length, 1);
      const users = await first.ctx.store.db.selectFrom('users').select('id').execute();
      assert.deepEqual(
        users.map((u) => u.id),
        claims.filter((c) => c !== null).map((c) => c?.uid),
      );
      assert.equal(await claimOwner(second), null);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
