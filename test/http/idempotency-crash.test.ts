import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/db.js';
import { BIN, freePort, waitForServe } from '../cli/server-process.js';
import { dialects } from '../helpers/store.js';

/**
 * Crash test (issue 18, point 5): `keepsake serve` is SIGKILLed while clients create conversations with
 * Idempotency-Keys, some processed before answering (committed but not yet answered when it dies). After
 * a restart every create is retried with its key: each key ends up with exactly one conversation, and
 * a create answered before the crash is replayed byte for byte.
 */

const WORKERS = 8;
const MAX_CREATES = 600;
const KILL_AFTER_ANSWERS = 40;

interface Server {
  url: string;
  child: ChildProcess;
  stdout: () => string;
}

async function startServer(env: NodeJS.ProcessEnv, firstStart: boolean): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...{ PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' },
      RATE_LIMITS: 'dev:conversations=1000000/60',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    // The first start prints the owner's secrets just after the port is bound.
    await waitForServe(
      url,
      child,
      () => out,
      () => !firstStart || /developer key:/.test(out),
    );
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return { url, child, stdout: () => out };
}

async function kill(server: Server | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}

/** One statement on the machine's PostgreSQL, outside any test database. */
async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * The database the servers share: a SQLite data directory, or a fresh PostgreSQL database (dropped
 * afterwards; a schema would not do, the server has no setting to pick one).
 */
async function database(dialect: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'keepsake-idem-crash-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    const open = (): Store => openStore({ databaseUrl: null, dataDir });
    return { env: { DATA_DIR: dataDir, STT_PROVIDER: 'none' }, open, cleanup: async () => removeDir() };
  }
  const baseUrl = process.env.TEST_DATABASE_URL ?? '';
  const name = `ks_idem_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await adminQuery(baseUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, STT_PROVIDER: 'none', DATABASE_URL: url.toString() },
    open: (): Store => openStore({ databaseUrl: url.toString(), dataDir, poolSize: 2 }),
    cleanup: async () => {
      removeDir();
      await adminQuery(baseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

interface Create {
  key: string;
  url: string;
  body: string;
  /** The answer before the crash, when one came. */
  first?: { status: number; body: string };
}

function newCreate(n: number): Create {
  const key = `crash-${n}-${randomUUID()}`;
  // Every other create is processed before answering: the window the audit found unanswered commits in.
  const url = n % 2 === 0 ? '/v1/dev/user/conversations' : '/v1/dev/user/conversations?wait=false';
  // A longer text for the processed ones widens the window between their commit and their answer.
  const note = 'I will send Maria the revised budget before the review on Thursday. ';
  const text = `Marker ${key}. ${note.repeat(n % 2 === 0 ? 30 : 1)}`;
  return { key, url, body: JSON.stringify({ text }) };
}

const post = (base: string, auth: string, create: Create) =>
  fetch(`${base}${create.url}`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json', 'idempotency-key': create.key },
    body: create.body,
  });

for (const dialect of dialects()) {
  test(`a SIGKILL mid-load, then retries with the same keys: one conversation per key (${dialect})`, {
    timeout: 240_000,
  }, async (t) => {
    const db = await database(dialect);
    let server: Server | undefined;
    let store: Store | undefined;
    try {
      server = await startServer(db.env, true);
      const devKey = /developer key:\s+(omi_dev_[0-9a-f]{32})/.exec(server.stdout())?.[1];
      assert.ok(devKey, 'the first start prints the owner key');
      const auth = `Bearer ${devKey}`;

      // Load: WORKERS clients creating one after another until the server dies under them.
      const sent: Create[] = [];
      let answered = 0;
      const base = server.url;
      const worker = async () => {
        while (sent.length < MAX_CREATES) {
          const create = newCreate(sent.length);
          sent.push(create);
          try {
            const res = await post(base, auth, create);
            create.first = { status: res.status, body: await res.text() };
            answered++;
          } catch {
            return; // the server died with this request in flight
          }
        }
      };
      const load = Promise.all(Array.from({ length: WORKERS }, worker));
      while (answered < KILL_AFTER_ANSWERS && sent.length < MAX_CREATES)
        await new Promise((resolve) => setTimeout(resolve, 5));
      await kill(server);
      await load;
      assert.ok(sent.length < MAX_CREATES, 'the server died mid-load');
      for (const create of sent) if (create.first) assert.equal(create.first.status, 200, create.first.body);

      server = await startServer(db.env, false);
      const retried = new Map<string, { status: number; body: string; replayed: boolean }>();
      const queue = [...sent];
      const retry = async (url: string) => {
        for (let create = queue.pop(); create; create = queue.pop()) {
          const res = await post(url, auth, create);
          retried.set(create.key, {
            status: res.status,
            body: await res.text(),
            replayed: res.headers.get('idempotent-replayed') === 'true',
          });
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, () => retry(server?.url ?? '')));

      store = db.open();
      const rows = await store.db.selectFrom('conversations').select(['id', 'text']).execute();
      const byKey = new Map<string, string[]>();
      for (const row of rows) {
        const key = /Marker (crash-\S+)\./.exec(row.text ?? '')?.[1] ?? '';
        byKey.set(key, [...(byKey.get(key) ?? []), row.id]);
      }
      let unansweredCommits = 0;
      for (const create of sent) {
        const again = retried.get(create.key);
        assert.equal(again?.status, 200, `${create.key}: ${again?.body}`);
        const ids = byKey.get(create.key) ?? [];
        assert.equal(ids.length, 1, `${create.key} created ${ids.length} conversations`);
        assert.equal(JSON.parse(again.body).id, ids[0]);
        if (create.first) {
          assert.equal(again.replayed, true);
          assert.equal(again.body, create.first.body, 'an answered create is replayed byte for byte');
        } else if (again.replayed) unansweredCommits++;
      }
      assert.equal(rows.length, sent.length, 'no conversation without a key');
      t.diagnostic(
        `${sent.length} creates, ${sent.length - answered} unanswered at the kill, ${unansweredCommits} of them committed (replayed on retry)`,
      );
    } finally {
      await store?.close();
      await kill(server);
      await db.cleanup();
    }
  });
}
