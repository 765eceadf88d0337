// Performance: (1) what queueing the transcript_processed webhooks of 20 enabled apps adds to
// the listen path, against an empty async call; (2) how fast the durable outbox delivers webhooks to a
// local receiver, against a bare loop of fetch calls with the same concurrency, in the same run.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { testConfig } from '../src/config.js';
import { type AppContext, createContext } from '../src/context.js';
import { fmt } from './support.js';

const APPS = 20;
const LATENCY_CALLS = 2000;
const DELIVERIES = 4000;
const CONCURRENCY = 64;

const SEGMENTS = [
  {
    text: 'Remind me to call the plumber about the kitchen sink tomorrow morning.',
    speaker: 'SPEAKER_00',
    is_user: true,
    start: 0,
    end: 3.2,
  },
  {
    text: 'Sure, and ask him about the bathroom tap as well.',
    speaker: 'SPEAKER_01',
    is_user: false,
    start: 3.2,
    end: 5.9,
  },
];

// The receiver runs in its own process, as an app would, so it does not share our event loop.
const RECEIVER = `
const http = require('node:http');
let count = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { count++; res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"session_id":"s"}'); });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write('ready ' + server.address().port + '\\n'));
process.on('message', () => process.send(count));
`;

async function startReceiver(): Promise<{ child: ChildProcess; url: string; count(): Promise<number> }> {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /ready (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
  });
  const count = () =>
    new Promise<number>((resolve) => {
      child.once('message', (n) => resolve(Number(n)));
      child.send('count');
    });
  return { child, url: `http://127.0.0.1:${port}`, count };
}

async function setup(ctx: AppContext, receiverUrl: string): Promise<string> {
  const user = await ctx.users.create({ name: 'Bench' });
  for (let i = 0; i < APPS; i++) {
    const created = await ctx.integrations.apps.create(null, {
      name: `App ${i}`,
      capabilities: ['external_integration'],
      triggers_on: 'transcript_processed',
      webhook_url: `${receiverUrl}/app-${i}`,
    });
    await ctx.integrations.apps.enable(user.uid, created.app_id);
  }
  return user.uid;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/** Mean and p99 of `calls` sequential awaits of `fn`, in milliseconds. */
async function timeCalls(calls: number, fn: () => Promise<void>): Promise<{ mean: number; p99: number }> {
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { mean: samples.reduce((a, b) => a + b, 0) / samples.length, p99: percentile(samples, 99) };
}

async function fanOutLatency(ctx: AppContext, uid: string): Promise<string[]> {
  const empty = async (): Promise<void> => {};
  let batch = 0;
  const call = () => ctx.integrations.webhooks.onTranscriptBatch(uid, `session-${batch++ % 50}`, SEGMENTS);
  await timeCalls(100, call); // warm-up: JIT, statement cache, the apps cache
  const baseline = await timeCalls(LATENCY_CALLS, empty);
  const fanout = await timeCalls(LATENCY_CALLS, call);
  const added = fanout.mean - baseline.mean;
  return [
    `transcript batch → ${APPS} enabled apps (SQLite file, WAL): onTranscriptBatch mean ${fmt(fanout.mean, 3)} ms, p99 ${fmt(fanout.p99, 3)} ms`,
    `  baseline empty async call: mean ${fmt(baseline.mean * 1000, 2)} µs → adds ${fmt(added, 3)} ms to the listen path (target < 5 ms): ${added < 5 ? 'PASS' : 'FAIL'}`,
  ];
}

/** A bare loop of fetch calls: `CONCURRENCY` workers POSTing until `total` are done; returns calls/s. */
async function bareFetchRate(url: string, total: number): Promise<number> {
  const body = JSON.stringify({ session_id: 's', segments: SEGMENTS });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        next++;
        const res = await fetch(`${url}/bare`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        await res.text();
      }
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

async function outboxRate(ctx: AppContext, uid: string, receiver: { count(): Promise<number> }): Promise<number> {
  // Queue DELIVERIES rows (one row per app per batch); nothing runs until the runner starts.
  for (let i = 0; i < DELIVERIES / APPS; i++)
    await ctx.integrations.webhooks.onTranscriptBatch(uid, `throughput-${i}`, SEGMENTS);
  const before = await receiver.count();
  const started = performance.now();
  ctx.integrations.webhookRunner.start();
  while ((await receiver.count()) - before < DELIVERIES) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - started) / 1000;
  await ctx.integrations.webhookRunner.stop();
  return DELIVERIES / seconds;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const receiver = await startReceiver();
  const dataDir = mkdtempSync(join(tmpdir(), 'keepsake-webhooks-bench-'));
  try {
    const config = testConfig({ dataDir, allowPrivateWebhooks: true });
    const latencyCtx = await createContext(config, { log: pino({ level: 'silent' }) });
    const lines = await fanOutLatency(latencyCtx, await setup(latencyCtx, receiver.url));
    await latencyCtx.close();

    const throughputCtx = await createContext(
      testConfig({ dataDir: join(dataDir, 'throughput'), allowPrivateWebhooks: true }),
      {
        log: pino({ level: 'silent' }),
      },
    );
    const uid = await setup(throughputCtx, receiver.url);
    // The baseline runs before and after; the faster of the two keeps the ratio conservative on a busy machine.
    const bareBefore = await bareFetchRate(receiver.url, DELIVERIES);
    const outbox = await outboxRate(throughputCtx, uid, receiver);
    const bare = Math.max(bareBefore, await bareFetchRate(receiver.url, DELIVERIES));
    await throughputCtx.close();
    lines.push(
      `outbox delivery to a local receiver (${DELIVERIES} webhooks, ${APPS} apps, signed, durable, ${CONCURRENCY} in flight): ${fmt(outbox, 0)}/s (target ≥ 500/s): ${outbox >= 500 ? 'PASS' : 'FAIL'}`,
      `  bare fetch loop, same receiver, same concurrency (best of a run before and after): ${fmt(bare, 0)}/s → outbox/bare ratio ${fmt(outbox / bare, 2)}`,
    );
    return { name: 'Webhooks: listen-path fan-out and outbox throughput', lines };
  } finally {
    receiver.child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
