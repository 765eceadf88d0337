// Performance: creates that process the conversation before answering (POST /v1/dev/user/conversations,
// 50 connections, 30 s, SQLite) with the local engine on worker threads (the default), against a
// baseline measured in the same run; meanwhile 5 connections list conversations, 10 times a second each. Targets: throughput
// ≥ 1.8× the baseline, p99 ≤ 3× the median, no create over 10 s, list p99 < 50 ms.
// The baseline is the commit the target was set against when BENCH_CREATE_BASELINE names a checkout of
// it (`git worktree add ../base ce40ddc`, node_modules linked), else this commit with ENGINE_WORKERS=0.
// A create answers after keep/discard and the summary; its action items and memories follow in a job.
// A server that answers faster by leaving those jobs to pile up has not done more work, so each run
// also waits, after its window, until the server is idle, and reports the sustained rate: creates
// divided by the window plus that drain.
// On a machine shared with other busy processes the threads (nice 10 on Linux) get little CPU:
// report the load average with the figures.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pino from 'pino';
import { createLocalEngine } from '../src/processing/local/index.js';
import { cpuSeconds } from './cpu.js';
import { fmt, startServer } from './support.js';

const SECONDS = Number(process.env.BENCH_CREATE_SECONDS ?? 30);
const CONNECTIONS = 50;
const READERS = 5;
// Each reader asks at a fixed rate, so every server in the run answers the same read work: readers in a
// closed loop would ask a server that answers reads fast for far more of them (thousands a second),
// and that CPU would count against its creates.
const READS_PER_SECOND_EACH = 10;
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

/** A user and a developer key, written by the code of the checkout at `root` (its own schema). */
async function seed(root: string, dataDir: string): Promise<string> {
  const load = (path: string) => import(pathToFileURL(join(root, path)).href);
  const [{ testConfig }, { createContext }, { DEV_SCOPES }] = await Promise.all([
    load('src/config.ts'),
    load('src/context.ts'),
    load('src/domain/keys/dev-keys.ts'),
  ]);
  const ctx = await createContext(testConfig({ dataDir }), { log: pino({ level: 'silent' }) });
  const user = await ctx.users.create({ name: 'Bench' });
  const key = await ctx.keys.create(user.uid, 'bench', [...DEV_SCOPES]);
  await ctx.close();
  return key.key as string;
}

/** Waits until the process has used under 5% of a core for a whole second (its queued jobs are done). */
async function idle(pid: number): Promise<number> {
  const started = performance.now();
  let before = cpuSeconds(pid);
  while (performance.now() - started < 300_000) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = cpuSeconds(pid);
    if (now - before < 0.05) break;
    before = now;
  }
  return (performance.now() - started) / 1000 - 1;
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
  /** Seconds after the window until the server was idle, and creates per second over both. */
  drain: number;
  sustained: number;
}

/** One server on its own copy of the seeded data: creates and, at the same time, list reads. */
async function measure(root: string, env: Record<string, string>): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'keepsake-bench-create-run-'));
  const key = await seed(root, dataDir);
  const server = await startServer(
    'bench/servers/app.ts',
    { ...{ BENCH_MODE: 'app', DATA_DIR: dataDir, BENCH_ENGINE_READY: '1' }, ...env },
    root,
  );
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
    await idle(server.child.pid ?? 0);
    let slow = 0;
    const cpuBefore = cpuSeconds(server.child.pid ?? 0);
    const [write, read] = await Promise.all([
      creates(SECONDS, (ms) => {
        if (ms > SLOW_MS) slow++;
      }),
      autocannon({
        ...{ url: `${base}?limit=25`, headers, connections: READERS, duration: SECONDS },
        connectionRate: READS_PER_SECOND_EACH,
      }),
    ]);
    const drain = await idle(server.child.pid ?? 0);
    const cpu = cpuSeconds(server.child.pid ?? 0) - cpuBefore;
    return {
      ...{ drain, sustained: write.requests.total / (SECONDS + drain) },
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
  `${label}: ${fmt(f.rps)} creates/s (sustained with the jobs they leave: ${fmt(f.sustained)}/s, idle ${fmt(f.drain)} s after the window), p50 ${f.p50} ms, p99 ${f.p99} ms (p99/p50 ${fmt(f.p99 / f.p50, 2)}), over 10 s ${f.slow}, errors ${f.errors}, non-2xx ${f.non2xx}; server CPU ${fmt(f.cpuMsPerCreate)} ms per create; list side load ${fmt(f.listRps)} req/s, p50 ${f.listP50} ms, p99 ${f.listP99} ms`;

export async function run() {
  const lines: string[] = [];
  const here = resolve('.');
  const baseRoot = process.env.BENCH_CREATE_BASELINE ? resolve(process.env.BENCH_CREATE_BASELINE) : null;
  lines.push(
    `machine: ${availableParallelism()} cores, load average at start ${loadavg()
      .map((l) => fmt(l, 2))
      .join(' ')}`,
  );
  const baseline = baseRoot ? await measure(baseRoot, {}) : await measure(here, { ENGINE_WORKERS: '0' });
  const pooled = await measure(here, {});
  const engine = await engineMs();
  const baseLabel = baseRoot
    ? `baseline, the checkout at ${baseRoot}`
    : 'baseline, this commit with the engine on the main thread (ENGINE_WORKERS=0)';
  lines.push(describe(baseLabel, baseline));
  lines.push(
    describe(`engine on worker threads (ENGINE_WORKERS default ${Math.min(4, availableParallelism())})`, pooled),
  );
  lines.push(
    `throughput ${fmt(pooled.rps / baseline.rps, 2)}× the baseline (target ≥ 1.8), sustained ${fmt(pooled.sustained / baseline.sustained, 2)}×; p99/p50 ${fmt(pooled.p99 / pooled.p50, 2)} (target ≤ 3); over 10 s ${pooled.slow} (target 0); list p99 ${pooled.listP99} ms (target < 50)`,
  );
  lines.push(
    `where the time goes: the engine alone ${fmt(engine)} ms per create + extraction on one core; with ${availableParallelism()} cores the engine alone allows at most ${fmt((availableParallelism() * 1000) / engine)} creates/s, the baseline's one thread ${fmt(1000 / engine)}; load average at end ${loadavg()
      .map((l) => fmt(l, 2))
      .join(' ')}`,
  );
  return { name: 'creates with processing under load (SQLite)', lines };
}
