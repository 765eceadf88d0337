import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BIN, freePort, waitForServe } from '../cli/server-process.js';

/**
 * Runs the CLI without blocking this process: a blocked event loop misses the server closing idle
 * keep-alive sockets, and the next fetch would reuse a dead one.
 */
function cli(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: unknown }).code as number | null) : 0;
      resolve({ code: typeof code === 'number' ? code : null, stdout, stderr });
    });
  });
}

describe('keepsake serve as a process', () => {
  let dataDir = '';
  let port = 0;
  let child: ChildProcess;
  let stdout = '';
  let env: NodeJS.ProcessEnv;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'keepsake-e2e-'));
    port = await freePort();
    env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
    };
    child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    // The first start prints the owner's secrets just after the port is bound.
    await waitForServe(
      `http://127.0.0.1:${port}`,
      child,
      () => stdout,
      () => /session token:/.test(stdout),
    );
  });

  after(() => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('first start prints the owner uid, a developer key and a session token once', async () => {
    const key = /developer key:\s+(omi_dev_[0-9a-f]{32})/.exec(stdout)?.[1];
    assert.ok(key, stdout);
    assert.match(stdout, /uid:\s+\S+/);
    assert.match(stdout, /session token:\s+\S+\.\S+\.\S+/);
    const res = await fetch(`http://127.0.0.1:${port}/v1/dev/user/conversations`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), []);
  });

  test('the OpenAPI document lists every route with its error responses', async () => {
    const doc = await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json();
    assert.match(doc.openapi, /^3\./);
    const route = doc.paths['/v1/dev/user/conversations/{conversation_id}'];
    assert.ok(route.get.responses['404'], 'GET one documents 404');
    assert.ok(route.patch.responses['422'], 'PATCH documents 422');
    assert.equal((await fetch(`http://127.0.0.1:${port}/docs`, { redirect: 'manual' })).status < 400, true);
  });

  test('admin commands print one JSON object and work while the server runs', async () => {
    const user = await cli(env, 'admin', 'user', 'create', '--name', 'Grace', '--timezone', 'Europe/Paris');
    assert.equal(user.code, 0, user.stderr);
    const { uid, name } = JSON.parse(user.stdout);
    assert.equal(name, 'Grace');
    const key = await cli(
      env,
      'admin',
      'key',
      'create',
      '--uid',
      uid,
      '--scopes',
      'conversations:read,conversations:write',
    );
    assert.equal(key.code, 0, key.stderr);
    const created = JSON.parse(key.stdout);
    assert.match(created.key, /^omi_dev_/);
    assert.deepEqual(created.scopes, ['conversations:read', 'conversations:write']);
    const token = JSON.parse((await cli(env, 'admin', 'token', 'create', '--uid', uid, '--ttl', '600')).stdout).token;
    const keys = await fetch(`http://127.0.0.1:${port}/v1/dev/keys`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(keys.status, 200);
    const post = await fetch(`http://127.0.0.1:${port}/v1/dev/user/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${created.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        text: 'I need to call the plumber tomorrow about the leaking kitchen sink and the broken heater.',
      }),
    });
    assert.equal(post.status, 200);
    assert.equal((await post.json()).status, 'completed');
    // Renamed and moved to Tokyo: later conversations are dated there.
    const moved = await cli(
      env,
      'admin',
      'user',
      'update',
      '--uid',
      uid,
      '--name',
      'Grace H',
      '--timezone',
      'Asia/Tokyo',
    );
    assert.equal(moved.code, 0, moved.stderr);
    assert.deepEqual(JSON.parse(moved.stdout), { uid, name: 'Grace H', timezone: 'Asia/Tokyo' });
    const wrong = await cli(env, 'admin', 'user', 'update', '--uid', uid, '--timezone', 'Mars/Olympus');
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /Unknown timezone 'Mars\/Olympus'/);
    const nothing = await cli(env, 'admin', 'user', 'update', '--uid', uid);
    assert.notEqual(nothing.code, 0);
    assert.match(nothing.stderr, /nothing to change/);
  });

  test('usage errors exit non-zero with nothing on stdout', async () => {
    const res = await cli(env, 'admin', 'user', 'create');
    assert.notEqual(res.code, 0);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, /--name is required/);
    // An unknown uid says which store was read: an admin command run without the server's DATA_DIR
    // opens another one.
    const unknown = await cli(env, 'admin', 'key', 'create', '--uid', 'no-such-user');
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /no user with uid no-such-user in DATA_DIR \S+/);
  });

  test('a bad PORT or DATABASE_URL fails at start with one clear line', async () => {
    const port = await cli({ ...env, PORT: 'eighty' }, 'serve');
    assert.equal(port.code, 78);
    assert.equal(port.stderr.trim().split('\n').length, 1);
    assert.match(port.stderr, /PORT must be an integer/);
    const db = await cli({ ...env, DATABASE_URL: 'mysql://x' }, 'serve');
    assert.equal(db.code, 78);
    assert.match(db.stderr, /DATABASE_URL must use postgres/);
  });

  test('SIGTERM shuts down gracefully', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
