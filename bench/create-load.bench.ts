// Performance: creates that process the conversation before answering (POST /v1/dev/user/conversations,
// 50 connections, 30 s, SQLite) with the local engine on worker threads (the default), against the same
// server with ENGINE_WORKERS=0 (the engine on the main thread, as before) measured in the same run;
// meanwhile 5 connections list conversations. Targets: throughput ≥ 1.8× the baseline, p99 ≤ 3× the
// median, no create over 10 s, list p99 < 50 ms.
// Read the baseline with its CPU per create: the main thread answers creates while the extraction jobs
// they leave wait, so within the window it does less of the work per create than the pooled run, whose
// extraction gets every third thread. On a machine shared with other busy processes the threads (nice 10
// on Linux) get little CPU: report the load average with the figures.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { testConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { DEV_SCOPES } from '../src/domain/keys/dev-keys.js';
import { createLocalEngine } from '../src/processing/local/index.js';
import { cpuSeconds } from './cpu.js';
import { fmt, startServer } from './support.js';

const SECONDS = Number(process.env.BENCH_CREATE_SECONDS ?? 30);
const CONNECTIONS = 50;
const READERS = 5;
const SLOW_MS = 10_000;

const SENTENCES = [
  'Morning! Did you get a chance to look at the budget for the Lisbon offsite?',
  "Yes, I'll send the revised numbers to Priya by Friday, the venue quote went up again.",
  'Can you also book the team dinner for Thursday at seven? Somewhere near the hotel.',
  "Sure. I live near Alfama, so I know a few places. I'm allergic to shellfish though.",
  'Noted. The client wants the roadmap presentation moved to next week.',
  'That works. I need to update the slides and remind me to call the caterer tomorrow morning.',
  "I've been running every morning before work, it helps with the stress of the launch.",
  'We should also think about the hiring plan and whether the design team needs another person.',
];

/** A ~180-word conversation, different for every request (no two parses alike). */
function body(n: number): string {
  const text = Array.from({ length: 12 }, (_, i) => SENTENCES[(i + n) % SENTENCES.length])
    .join(' ')
    .replace('Priya', `Priya ${n}`);
  return JSON.stringify({ text, text_source: 'audio_transcript' });
}

async function seed(dataDir: string): Promise<string> {
  const ctx = await createContext(testConfig({ dataDir }), { log: pino({ level: 'silent' }) });
  const user = await ctx.users.create({ name: 'Bench' });
  const key = await ctx.keys.create(user.uid, 'bench', [...DEV_SCOPES]);
  await ctx.close();
  return key.key;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  slow: number;
  errors: number;
  non2xx: number;
  listP50: number;
  listP99: number;
  listRps: number;
  cpuMsPerCreate: number;
}

/** One server on its own copy of the seeded data: creates and, at the same time, list reads. */
async function measure(seeded: string, key: string, env: Record<string, string>): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'keepsake-bench-create-run-'));
  cpSync(seeded, dataDir, { recursive: true });
  const server = await startServer('bench/servers/app.ts', {
    ...{ BENCH_MODE: 'app', DATA_DIR: dataDir, BENCH_ENGINE_READY: '1' },
    ...env,
  });
  const base = `http://127.0.0.1:${server.port}/v1/dev/user/conversations`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  let n = 0;
  const creates = (duration: number, onResponse?: (ms: number) => void) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const options = {
        ...{ url: base, method: 'POST' as const, headers, connections: CONNECTIONS, duration, timeout: 60 },
        requests: [{ setupRequest: (request: autocannon.Request) => Object.assign(request, { body: body(n++) }) }],
      };
      const instance = autocannon(options, (err, result) => (err ? reject(err) : resolve(result)));
      if (onResponse) instance.on('response', (_client, _status, _bytes, ms) => onResponse(ms));
    });
  try {
    await creates(5);
    let slow = 0;
    const cpuBefore = cpuSeconds(server.child.pid ?? 0);
    const [write, read] = await Promise.all([
      creates(SECONDS, (ms) => {
        if (ms > SLOW_MS) slow++;
      }),
      autocannon({ url: `${base}?limit=25`, headers, connections: READERS, duration: SECONDS }),
    ]);
    const cpu = cpuSeconds(server.child.pid ?? 0) - cpuBefore;
    return {
      ...{ rps: write.requests.average, p50: write.latency.p50, p99: write.latency.p99, slow },
      ...{ errors: write.errors + write.timeouts, non2xx: write.non2xx + read.non2xx },
      ...{ listP50: read.latency.p50, listP99: read.latency.p99, listRps: read.requests.average },
      cpuMsPerCreate: (cpu * 1000) / write.requests.total,
    };
  } finally {
    server.child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The engine's own CPU for one create and its extraction, on this thread (no HTTP, no database). */
async function engineMs(): Promise<number> {
  const engine = createLocalEngine();
  const run = async (i: number) => {
    const input = {
      ...{ text: JSON.parse(body(i)).text as string, segments: [], startedAt: new Date() },
      ...{ timezone: 'UTC', language: 'en', userName: 'Bench' },
    };
    await engine.decideRelevance(input);
    await engine.structure(input);
    const again = { ...input };
    await engine.extractActionItems(again, []);
    await engine.extractMemories(again, []);
  };
  for (let i = 0; i < 10; i++) await run(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < 40; i++) await run(1000 + i);
  return Number(process.hrtime.bigint() - started) / 1e6 / 40;
}

const describe = (label: string, f: Figures) =>
  `${label}: ${fmt(f.rps)} creates/s, p50 ${f.p50} ms, p99 ${f.p99} ms (p99/p50 ${fmt(f.p99 / f.p50, 2)}), over 10 s ${f.slow}, errors ${f.errors}, non-2xx ${f.non2xx}; server CPU ${fmt(f.cpuMsPerCreate)} ms per create; list side load ${fmt(f.listRps)} req/s, p50 ${f.listP50} ms, p99 ${f.listP99} ms`;

export async function run() {
  const seeded = mkdtempSync(join(tmpdir(), 'keepsake-bench-create-'));
  const lines: string[] = [];
  try {
    const key = await seed(seeded);
    lines.push(
      `machine: ${availableParallelism()} cores, load average at start ${loadavg()
        .map((l) => fmt(l, 2))
        .join(' ')}`,
    );
    const baseline = await measure(seeded, key, { ENGINE_WORKERS: '0' });
    const pooled = await measure(seeded, key, {});
    const engine = await engineMs();
    lines.push(describe('baseline, engine on the main thread (ENGINE_WORKERS=0)', baseline));
    lines.push(
      describe(`engine on worker threads (ENGINE_WORKERS default ${Math.min(4, availableParallelism())})`, pooled),
    );
    lines.push(
      `throughput ${fmt(pooled.rps / baseline.rps, 2)}× the baseline (target ≥ 1.8); p99/p50 ${fmt(pooled.p99 / pooled.p50, 2)} (target ≤ 3); over 10 s ${pooled.slow} (target 0); list p99 ${pooled.listP99} ms (target < 50)`,
    );
    lines.push(
      `where the time goes: the engine alone ${fmt(engine)} ms per create + extraction on one core; with ${availableParallelism()} cores the engine alone allows at most ${fmt((availableParallelism() * 1000) / engine)} creates/s, the baseline's one thread ${fmt(1000 / engine)}; load average at end ${loadavg()
        .map((l) => fmt(l, 2))
        .join(' ')}`,
    );
    return { name: 'creates with processing under load (SQLite)', lines };
  } finally {
    rmSync(seeded, { recursive: true, force: true });
  }
}
