import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { listenError } from '../../src/cli/startup.js';
import { ConfigError } from '../../src/config-env.js';
import { createDataDir } from '../../src/store/data-dir.js';
import { BIN, freePort, startServer } from './server-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'keepsake-startup-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `keepsake serve` to its exit (a start-up failure must end it; the cap only stops a hang). */
function serveUntilExit(env: NodeJS.ProcessEnv, capMs = 180_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        STT_PROVIDER: 'none',
        DATABASE_URL: '',
        REDIS_URL: '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const cap = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not exit within ${capMs / 1000} s:\n${stdout}\n${stderr}`));
    }, capMs);
    child.once('exit', (code) => {
      clearTimeout(cap);
      resolve({ code, stdout, stderr });
    });
  });
}

/** One line on stderr that names the setting, the configuration exit code, no stack trace. */
function assertNamed(run: Run, pattern: RegExp): void {
  assert.equal(run.code, 78, `${run.stdout}\n${run.stderr}`);
  const lines = run.stderr.trim().split('\n');
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
}

describe('start-up failures name their setting (docs/deployment.md)', () => {
  test('DATA_DIR that is a file', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'x');
    assertNamed(
      await serveUntilExit({ DATA_DIR: file }),
      /^keepsake: configuration error: DATA_DIR=.*a-file.*not a directory/,
    );
  });

  test('DATA_DIR under /proc ends at once instead of hanging', { skip: !existsSync('/proc/self') }, async () => {
    assertNamed(
      await serveUntilExit({ DATA_DIR: '/proc/keepsake-data' }),
      /DATA_DIR=\/proc\/keepsake-data cannot be created/,
    );
  });

  test('an unreachable PostgreSQL is named by DATABASE_URL, without its password', async () => {
    const port = await freePort();
    const run = await serveUntilExit({
      DATA_DIR: join(scratch, 'pg'),
      DATABASE_URL: `postgres://me:hunter2@127.0.0.1:${port}/x`,
    });
    assertNamed(
      run,
      /DATABASE_URL=postgres:\/\/me:\*\*\*@127\.0\.0\.1:\d+\/x: PostgreSQL cannot be reached \(ECONNREFUSED\)/,
    );
    assert.doesNotMatch(run.stderr, /hunter2/);
  });

  test('a port in use: PORT named, and no secrets printed; the next start prints them', async () => {
    const dataDir = join(scratch, 'busy');
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const run = await serveUntilExit({ DATA_DIR: dataDir, PORT: String(port) });
      assertNamed(run, new RegExp(`PORT=${port} is already in use`));
      assert.doesNotMatch(run.stdout, /first start|omi_dev_/);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
    const server = await startServer({ DATA_DIR: dataDir });
    try {
      assert.match(server.key, /^omi_dev_/);
      const res = await fetch(`${server.url}/v1/dev/user/conversations`, {
        headers: { authorization: `Bearer ${server.key}` },
      });
      assert.equal(res.status, 200);
    } finally {
      await server.stop();
    }
  });

  test('LOG_FORMAT=pretty writes readable lines; json (the default off a terminal) writes JSON', async () => {
    const env = { DATA_DIR: join(scratch, 'logs'), LOG_LEVEL: 'info' };
    const pretty = await firstLogLine({ ...env, LOG_FORMAT: 'pretty' });
    const json = await firstLogLine(env);
    assert.ok(json.startsWith('{"level":30'), json);
    assert.match(pretty, /INFO.*Server listening/);
    assert.ok(!pretty.includes('{"level"'), pretty);
  });
});

/** Starts `keepsake serve`, returns the stdout line that says it listens, and stops the server. */
async function firstLogLine(env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      STT_PROVIDER: 'none',
      DATABASE_URL: '',
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  try {
    return await new Promise<string>((resolve, reject) => {
      let stdout = '';
      const cap = setTimeout(() => reject(new Error(`no listening line within 180 s:\n${stdout}`)), 180_000);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const line = stdout.split('\n').find((l) => /Server listening/.test(l));
        if (line) {
          clearTimeout(cap);
          resolve(line);
        }
      });
      child.once('exit', () => reject(new Error(`serve exited:\n${stdout}\n${stderr}`)));
    });
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

describe('createDataDir and listenError', () => {
  test('creates missing levels owner-only and accepts an existing directory', () => {
    const dir = join(scratch, 'one', 'two');
    createDataDir(dir);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    createDataDir(dir);
  });

  test('maps listen failures to the setting that explains them', () => {
    const fail = (code: string) => Object.assign(new Error(code), { code });
    assert.ok(
      listenError(fail('EADDRINUSE'), 'h', 1) instanceof ConfigError,
      "listenError(fail('EADDRINUSE'), 'h', 1) instanceof ConfigError",
    );
    assert.match(
      listenError(fail('ENOTFOUND'), 'nowhere.invalid', 1).message,
      /^HOST=nowhere\.invalid cannot be resolved/,
    );
    assert.match(listenError(fail('EADDRNOTAVAIL'), '10.9.9.9', 1).message, /^HOST=10\.9\.9\.9 is not an address/);
    const other = fail('EMFILE');
    assert.equal(listenError(other, 'h', 1), other);
  });
});
