import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BIN = join(process.cwd(), 'bin', 'keepsake.js');

export interface ServerProcess {
  url: string;
  uid: string;
  /** The owner's all-scope key printed on first start. */
  key: string;
  token: string;
  /** Environment that points `keepsake admin …` at the same data directory. */
  serverEnv: NodeJS.ProcessEnv;
  /** What the server printed on stdout so far (its first-start notice and its log lines). */
  output(): string;
  stop(): Promise<void>;
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Waits until the child answers /healthz (and `ready()` holds), for as long as a busy machine needs:
 * the cap only stops a test that would otherwise hang. Throws at once when the child exits.
 */
export async function waitForServe(
  url: string,
  child: ChildProcess,
  output: () => string,
  ready: () => boolean = () => true,
  capMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + capMs;
  for (;;) {
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up && ready()) return;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`serve exited:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`serve did not start within ${capMs / 1000} s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `keepsake serve` as a child process on a fresh SQLite data directory, with its first-start secrets. */
export async function startServer(extraEnv: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'keepsake-client-'));
  const port = await freePort();
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
    STT_PROVIDER: 'none',
    // The engine on the main thread: these tests are about the CLI and the API, and each engine thread
    // loads the engine (seconds of CPU on a shared machine). test/e2e/serve.test.ts keeps the default.
    ENGINE_WORKERS: '0',
    ...extraEnv,
  };
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve'], {
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.resume();
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForServe(
      url,
      child,
      () => stdout,
      () => /session token:/.test(stdout),
    );
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const key = /developer key:\s+(omi_dev_[0-9a-f]{32})/.exec(stdout)?.[1];
  const uid = /uid:\s+(\S+)/.exec(stdout)?.[1];
  const token = /session token:\s+(\S+)/.exec(stdout)?.[1];
  if (!key || !uid || !token) {
    child.kill('SIGKILL');
    throw new Error(`server did not start:\n${stdout}`);
  }
  return {
    url,
    uid,
    key,
    token,
    serverEnv,
    output: () => stdout,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `keepsake admin key create` against the server's data directory (safe while it runs, DESIGN §5). */
export function createKey(server: ServerProcess, scopes: string[] | null): string {
  const args = ['admin', 'key', 'create', '--uid', server.uid, '--name', 'test'];
  if (scopes) args.push('--scopes', scopes.join(','));
  const result = spawnSync(process.execPath, [BIN, ...args], { env: server.serverEnv, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`admin key create failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { key: string }).key;
}
