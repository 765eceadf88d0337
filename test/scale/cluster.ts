import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';

const BIN = join(process.cwd(), 'bin', 'keepsake.js');

/** One `keepsake serve` or `keepsake worker` child process. */
export interface Node {
  readonly role: 'serve' | 'worker';
  readonly child: ChildProcess;
  readonly pid: number;
  /** http://127.0.0.1:port for serve nodes */
  readonly url: string;
  output(): string;
}

/**
 * A cluster on the machine's PostgreSQL and Redis: a fresh database and a Redis database number of
 * its own (so parallel suites never share keys or queues), N serve and M worker processes.
 */
export class Cluster {
  readonly nodes: Node[] = [];
  readonly dataDirs: string[] = [];
  owner = { uid: '', key: '', token: '' };

  private constructor(
    readonly databaseUrl: string,
    readonly redisUrl: string,
    readonly env: NodeJS.ProcessEnv,
    private readonly dropDatabase: () => Promise<void>,
  ) {}

  static async create(baseDbUrl: string, baseRedisUrl: string, redisDb: number, extraEnv: NodeJS.ProcessEnv) {
    const name = `ks_scale_${randomBytes(6).toString('hex')}`;
    await adminQuery(baseDbUrl, `CREATE DATABASE "${name}"`);
    const dbUrl = new URL(baseDbUrl);
    dbUrl.pathname = `/${name}`;
    const redisUrl = new URL(baseRedisUrl);
    redisUrl.pathname = `/${redisDb}`;
    const redis = new Redis(redisUrl.toString());
    await redis.flushdb();
    redis.disconnect();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL: redisUrl.toString(),
      KEEPSAKE_SECRET: randomBytes(32).toString('hex'),
      LISTEN_FINALIZATION_DISPATCH_MODE: 'queue',
      STT_PROVIDER: 'none',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...extraEnv,
    };
    const drop = () => adminQuery(baseDbUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    return new Cluster(dbUrl.toString(), redisUrl.toString(), env, drop);
  }

  /** Starts `keepsake serve`; the first one on the empty database prints the owner's secrets. */
  async serve(env: NodeJS.ProcessEnv = {}): Promise<Node> {
    const port = await freePort();
    const node = this.spawn('serve', { PORT: String(port), ...env }, `http://127.0.0.1:${port}`);
    await waitUntil(
      async () =>
        (await fetch(`${node.url}/healthz`).then(
          (r) => r.ok,
          () => false,
        )) &&
        // The first start on the empty database prints the owner's secrets just after binding the port.
        (this.owner.uid !== '' || /session token:/.test(node.output())),
      180_000,
      () => `serve did not start:\n${node.output()}`,
    );
    if (!this.owner.uid) {
      const out = node.output();
      this.owner = {
        uid: /uid:\s+(\S+)/.exec(out)?.[1] ?? '',
        key: /developer key:\s+(omi_dev_[0-9a-f]{32})/.exec(out)?.[1] ?? '',
        token: /session token:\s+(\S+)/.exec(out)?.[1] ?? '',
      };
    }
    return node;
  }

  async worker(env: NodeJS.ProcessEnv = {}): Promise<Node> {
    const node = this.spawn('worker', env, '', ['--concurrency', '2']);
    await waitUntil(
      async () => node.output().includes('worker started'),
      30_000,
      () => `worker did not start:\n${node.output()}`,
    );
    return node;
  }

  /** `keepsake admin …` against the cluster's database; returns its JSON output. */
  admin(args: string[]): Record<string, unknown> {
    const result = spawnSync(process.execPath, [BIN, 'admin', ...args], {
      env: { ...this.env, LOG_LEVEL: 'warn', DATA_DIR: this.tempDir() },
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`admin ${args.join(' ')} failed: ${result.stderr}`);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  async query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => stopNode(node)));
    await this.dropDatabase();
    for (const dir of this.dataDirs) rmSync(dir, { recursive: true, force: true });
  }

  private spawn(role: Node['role'], env: NodeJS.ProcessEnv, url: string, args: string[] = []): Node {
    const child = spawn(process.execPath, [BIN, role, ...args], {
      env: { ...this.env, DATA_DIR: this.tempDir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const node: Node = { role, child, pid: child.pid ?? -1, url, output: () => out };
    this.nodes.push(node);
    return node;
  }

  private tempDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'keepsake-scale-'));
    this.dataDirs.push(dir);
    return dir;
  }
}

export async function stopNode(node: Node, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return node.child.exitCode;
  const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
  node.child.kill(signal);
  const code = await Promise.race([exited, sleep(15_000).then(() => 'timeout' as const)]);
  if (code === 'timeout') {
    node.child.kill('SIGKILL');
    return null;
  }
  return code;
}

/** The exit code once the process ended by itself (null when a signal ended it). */
export function exitOf(node: Node): Promise<number | null> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return Promise.resolve(node.child.exitCode);
  return new Promise((resolve) => node.child.once('exit', (code) => resolve(code)));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function waitUntil(
  probe: () => Promise<boolean>,
  timeoutMs: number,
  message: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(message());
    await sleep(100);
  }
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
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
