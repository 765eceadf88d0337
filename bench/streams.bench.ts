// Performance: 500 concurrent real-time 16 kHz PCM16 live streams with client transcripts
// (custom_stt=enabled + suggested_transcript) spread over 2 `keepsake serve` processes on PostgreSQL
// and Redis. Baseline in the same run: the same load against 2 bare `ws` processes that only echo
// the transcript. The load generator is this process: pre-built audio frames and one timer that
// drives every stream. Needs TEST_DATABASE_URL/TEST_REDIS_URL (or DATABASE_URL/REDIS_URL).
import { type ChildProcess, spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import WebSocket from 'ws';
import { signSessionToken } from '../src/domain/users/session-tokens.js';
import { Cluster } from '../test/scale/cluster.js';
import { CpuMeter, formatCpu, pidsMatching, rssBytes } from './cpu.js';
import { fmt, freePort, TRANSCRIPT_ECHO_SERVER } from './support.js';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 500);
const SECONDS = Number(process.env.BENCH_STREAMS_SECONDS ?? 20);
const USERS = Math.max(1, Math.ceil(STREAMS / 5)); // 5 devices per user
const FRAME_MS = 100;
const FRAME = Buffer.alloc((16_000 * 2 * FRAME_MS) / 1000); // 100 ms of 16 kHz PCM16
const TICK_MS = 10; // one timer; each tick serves the streams whose slot it is
const SLOTS = FRAME_MS / TICK_MS;

interface Target {
  pids: number[];
  /** PostgreSQL backends and Redis, when the target uses them */
  services: Record<string, () => number[]>;
  /** Reads the servers' event-loop delay since the previous call (keepsake: /metrics). */
  loopDelay?: () => Promise<string>;
  url: (n: number) => string;
  headers: (n: number) => Record<string, string>;
}

interface Result {
  p50: number;
  p99: number;
  transcripts: number;
  expected: number;
  loopDelay: string;
  /** percent of one core: the server processes (summed), their services, the load generator */
  cpu: Record<string, number>;
  rssPerStream: number;
  openFailures: number;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const commit = process.env.BENCH_PG_SYNCHRONOUS_COMMIT
    ? `, synchronous_commit=${process.env.BENCH_PG_SYNCHRONOUS_COMMIT}`
    : '';
  const name = `${STREAMS} live streams over 2 API processes (PostgreSQL + Redis, client transcripts${commit})`;
  const dbUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const redisUrl = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
  if (!dbUrl || !redisUrl) return { name, lines: ['skipped: set TEST_DATABASE_URL and TEST_REDIS_URL'] };
  const echo = await Promise.all([startEcho(), startEcho()]);
  const bare = await drive({
    pids: echo.map((e) => e.pid ?? 0),
    services: {},
    url: (n) => `ws://127.0.0.1:${echo[n % 2].port}/`,
    headers: () => ({}),
  }).finally(() => Promise.all(echo.map((e) => stop(e.child))));
  // Queue dispatch (Cluster's default); streams stay open for the run (conversation_timeout=600).
  const cluster = await Cluster.create(dbUrl, redisUrl, 13, { LOG_LEVEL: 'warn' });
  try {
    // Optional (docs/deployment.md): commits stop waiting for the WAL flush, for the whole database.
    const syncCommit = process.env.BENCH_PG_SYNCHRONOUS_COMMIT;
    if (syncCommit === 'off' || syncCommit === 'on')
      await cluster.query(
        `alter database "${new URL(cluster.databaseUrl).pathname.slice(1)}" set synchronous_commit = ${syncCommit}`,
      );
    const nodes = [await cluster.serve(), await cluster.serve()];
    const tokens = await seedUsers(cluster);
    const database = new URL(cluster.databaseUrl).pathname.slice(1);
    const ours = await drive({
      pids: nodes.map((n) => n.pid),
      services: {
        'PostgreSQL backends': () =>
          pidsMatching((cmd) => cmd.startsWith('postgres: ') && cmd.includes(` ${database} `)),
        Redis: () => pidsMatching((cmd) => cmd.startsWith('redis-server')),
      },
      url: (n) =>
        `${nodes[n % 2].url.replace('http', 'ws')}/v4/listen?codec=pcm16&sample_rate=16000&custom_stt=enabled&conversation_timeout=600`,
      headers: (n) => ({ authorization: `Bearer ${tokens[n % tokens.length]}` }),
      loopDelay: () => Promise.all(nodes.map((node) => loopDelayOf(node.url))).then((d) => d.join('; ')),
    });
    return { name, lines: report(ours, bare) };
  } finally {
    await cluster.stop();
  }
}

function report(ours: Result, bare: Result): string[] {
  const verdict = (ok: boolean) => (ok ? 'ok' : 'OVER TARGET');
  const load = loadavg().map((l) => l.toFixed(2));
  return [
    `machine: ${cpus().length} cores, load average ${load.join(' ')} (shared: absolute figures are noisy, ratios less so)`,
    `transcript event latency: p50 ${fmt(ours.p50)} ms, p99 ${fmt(ours.p99)} ms (target < 150 ms: ${verdict(ours.p99 < 150)}); bare ws p50 ${fmt(bare.p50)} ms, p99 ${fmt(bare.p99)} ms → p99 ratio ${fmt(ours.p99 / bare.p99, 2)}×`,
    `transcripts received: ${ours.transcripts} of ${ours.expected} sent (bare ${bare.transcripts} of ${bare.expected}); failed opens ${ours.openFailures}`,
    `server memory: ${fmt(ours.rssPerStream / 1024)} KiB RSS per stream over both processes (target < 1024 KiB: ${verdict(ours.rssPerStream < 1024 * 1024)}); bare ws ${fmt(bare.rssPerStream / 1024)} KiB`,
    `server CPU (2 processes): ${fmt(ours.cpu.servers)}% of one core; bare ws ${fmt(bare.cpu.servers)}% → ratio ${fmt(ours.cpu.servers / bare.cpu.servers, 2)}×`,
    `server event-loop delay during the run (p99 / max): ${ours.loopDelay}`,
    `CPU during the run (% of one core): ${formatCpu(ours.cpu)}; bare run: ${formatCpu(bare.cpu)}`,
  ];
}

/** USERS accounts with a session token each (5 streams per user, as 5 devices). */
async function seedUsers(cluster: Cluster): Promise<string[]> {
  const now = Date.now();
  const rows = await cluster.query<{ id: string }>(
    `insert into users (id, name, email, timezone, settings, created_at, updated_at)
     select md5('bench-user-' || g::text)::uuid::text, 'Bench ' || g, null, 'UTC', '{}', $1::bigint, $1::bigint
     from generate_series(1, $2::int) as g returning id`,
    [now, USERS],
  );
  const secret = cluster.env.KEEPSAKE_SECRET ?? '';
  return rows.map((r) => signSessionToken(secret, r.id, now, 3600));
}

/** Opens the streams (in batches), drives them in real time for SECONDS, measures. */
async function drive(target: Target): Promise<Result> {
  await sleep(500);
  const idleRss = sum(target.pids.map(rssBytes));
  const latencies: number[] = [];
  const sentAt = new Map<string, number>();
  const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
    if (isBinary) return;
    const text = data.toString();
    if (text.charCodeAt(0) !== 91) return; // transcript frames are bare arrays
    const received = performance.now();
    for (const segment of JSON.parse(text) as Array<{ text: string }>) {
      const started = sentAt.get(segment.text);
      if (started === undefined) continue;
      latencies.push(received - started);
      sentAt.delete(segment.text);
    }
  };
  const sockets: Array<WebSocket | null> = [];
  let openFailures = 0;
  for (let first = 0; first < STREAMS; first += 50) {
    const batch = Array.from({ length: Math.min(50, STREAMS - first) }, (_, i) => open(target, first + i));
    for (const ws of await Promise.all(batch)) {
      if (!ws) openFailures++;
      ws?.on('message', onMessage);
      sockets.push(ws);
    }
  }
  await sleep(2000);
  const meter = new CpuMeter({ servers: () => target.pids, ...target.services });
  await target.loopDelay?.(); // resets the servers' event-loop histograms
  meter.start();
  let expected = 0;
  let tick = 0;
  // One timer for every stream: stream n sends on slot n % SLOTS, a 100 ms frame each time and a
  // client transcript once a second (its turn comes every 10th frame, staggered by stream).
  const timer = setInterval(() => {
    const slot = tick % SLOTS;
    const second = Math.floor(tick / SLOTS);
    for (let n = slot; n < sockets.length; n += SLOTS) {
      const ws = sockets[n];
      if (!ws || ws.readyState !== WebSocket.OPEN) continue;
      ws.send(FRAME);
      if ((second + n) % 10 !== 0) continue;
      const text = `s${n} t${tick}`;
      sentAt.set(text, performance.now());
      expected++;
      const at = second / 10;
      ws.send(`{"type":"suggested_transcript","segments":[{"text":"${text}","start":${at},"end":${at + 0.9}}]}`);
    }
    tick++;
  }, TICK_MS);
  await sleep(SECONDS * 1000);
  clearInterval(timer);
  await sleep(1000); // late transcripts still count (as long latencies)
  const cpu = meter.stop();
  const loopDelay = (await target.loopDelay?.()) ?? '';
  const loadedRss = sum(target.pids.map(rssBytes));
  for (const ws of sockets) ws?.close(1000);
  await sleep(500);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? Number.NaN;
  return {
    p50: pct(0.5),
    p99: pct(0.99),
    transcripts: latencies.length,
    expected,
    cpu,
    loopDelay,
    rssPerStream: (loadedRss - idleRss) / Math.max(1, STREAMS - openFailures),
    openFailures,
  };
}

function open(target: Target, n: number): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(target.url(n), { headers: target.headers(n), perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', () => resolve(null));
  });
}

async function startEcho(): Promise<{ child: ChildProcess; port: number; pid: number | undefined }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', TRANSCRIPT_ECHO_SERVER], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`echo server exited with ${code}`)));
  });
  return { child, port, pid: child.pid };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** p99 and max event-loop delay of one serve process from its /metrics. */
async function loopDelayOf(url: string): Promise<string> {
  const body = await (await fetch(`${url}/metrics`)).text();
  const value = (quantile: string) =>
    Number(new RegExp(`^keepsake_event_loop_delay_seconds\\{quantile="${quantile}"\\} (\\S+)$`, 'm').exec(body)?.[1]) *
    1000;
  return `${fmt(value('0.99'))} / ${fmt(value('1'))} ms`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
