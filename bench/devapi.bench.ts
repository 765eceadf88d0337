// Performance: the developer memory list and full-text memory search at 50,000 memories
// (SQLite, 50 connections) against a bare Fastify JSON route, with search reported against the list.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { testConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { DEV_SCOPES } from '../src/domain/keys/dev-keys.js';
import type { MemoriesTable } from '../src/store/schema.js';
import { CpuMeter } from './cpu.js';
import { fmt, type LoadResult, load, startServer, warmUp } from './support.js';

const MEMORIES = 50_000;
const BATCH = 1000;
const CATEGORIES = 'core hobbies lifestyle interests habits work skills learnings other system'.split(' ');
const SYLLABLES = 'ka lo mi ren to sha vel dor un pri zo fen ga lu ber nix'.split(' ');

/** 4,096 distinct made-up words: each appears in a few dozen memories, as real topic words do. */
const WORDS = Array.from(
  { length: 4096 },
  (_, i) => SYLLABLES[i % 16] + SYLLABLES[(i >> 4) % 16] + SYLLABLES[(i >> 8) % 16],
);

function content(n: number): string {
  const pick = (k: number) => WORDS[(n * 2654435761 + k * 40503) % WORDS.length];
  return `Likes the ${pick(1)} and the ${pick(2)}; often talks about ${pick(3)} with friends near ${pick(4)}.`;
}

export async function seed(dataDir: string): Promise<string> {
  const ctx = await createContext(testConfig({ dataDir }), { log: pino({ level: 'silent' }) });
  const user = await ctx.users.create({ name: 'Bench' });
  const key = await ctx.keys.create(user.uid, 'bench', [...DEV_SCOPES]);
  const start = Date.parse('2024-01-01T00:00:00Z');
  for (let batch = 0; batch < MEMORIES; batch += BATCH) {
    const rows: MemoriesTable[] = Array.from({ length: BATCH }, (_, i) => {
      const n = batch + i;
      const at = start + n * 60_000;
      return {
        id: randomUUID(),
        user_id: user.uid,
        content: content(n),
        category: CATEGORIES[n % CATEGORIES.length],
        visibility: 'private',
        tags: '[]',
        origin: n % 3 === 0 ? 'manual' : 'conversation',
        conversation_id: null,
        app_id: null,
        manually_added: n % 3 === 0 ? 1 : 0,
        reviewed: 0,
        user_review: null,
        edited: 0,
        created_at: at,
        updated_at: at,
      };
    });
    await ctx.repos.memories.transaction((tx) => ctx.repos.memories.insertMany(rows, tx));
  }
  await ctx.close();
  return key.key;
}

const CONNECTIONS = 50;

/** A load's figures with the CPU each request cost the server process and the load generator. */
type Measured = LoadResult & { serverUs: number; loadUs: number };

const describe = (label: string, r: LoadResult, baseline: LoadResult) =>
  `${label}: ${fmt(r.rps, 0)} req/s = ${fmt((100 * r.rps) / baseline.rps)}% of baseline, p50 ${r.p50} ms, p99 ${r.p99} ms (target < 20), non-2xx ${r.non2xx}`;

/**
 * What the machine allows: with 50 connections each waiting for its answer, mean latency is
 * connections / throughput (Little's law), and throughput is bounded by the server's one JavaScript
 * thread (1 s / its CPU per request) and by all cores shared with the load generator.
 */
function bound(label: string, r: Measured): string {
  const oneThread = CONNECTIONS * r.serverUs;
  const allCores = (CONNECTIONS * (r.serverUs + r.loadUs)) / cpus().length;
  return `${label}: CPU per request server ${fmt(r.serverUs, 0)} µs + load generator ${fmt(r.loadUs, 0)} µs; at ${CONNECTIONS} connections the mean latency is at least ${fmt(oneThread / 1000)} ms on one server thread, ${fmt(allCores / 1000)} ms if every core served (measured mean ≈ ${fmt((CONNECTIONS / r.rps) * 1000)} ms)`;
}

type Case = 'list' | 'filtered' | 'selective' | 'varied' | 'two' | 'vector' | 'broad';

/** A fixed path, or a path made anew for each request (so no two requests in a row are alike). */
type PathOf = string | (() => string);

async function measureAll(
  dataDir: string,
  env: Record<string, string>,
  paths: Record<Case, PathOf>,
  headers: Record<string, string>,
): Promise<Record<Case, Measured>> {
  const app = await startServer('bench/servers/app.ts', { BENCH_MODE: 'app', DATA_DIR: dataDir, ...env });
  const base = `http://127.0.0.1:${app.port}/v1/dev/user`;
  const out = {} as Record<Case, Measured>;
  const pid = app.child.pid ?? 0;
  try {
    await warmUp({ url: `${base}/memories?limit=25`, headers });
    for (const name of Object.keys(paths) as Case[]) {
      const path = paths[name];
      const meter = new CpuMeter({ server: () => [pid] });
      meter.start();
      const result =
        typeof path === 'string'
          ? await load({ url: `${base}${path}`, headers, duration: 5, connections: CONNECTIONS })
          : await load({
              url: base,
              headers,
              duration: 5,
              connections: CONNECTIONS,
              requests: [{ setupRequest: (request) => Object.assign(request, { path: `/v1/dev/user${path()}` }) }],
            });
      const cpu = meter.stop();
      const perRequest = (percent: number) => (percent / 100 / result.rps) * 1e6;
      out[name] = { ...result, serverUs: perRequest(cpu.server), loadUs: perRequest(cpu['load generator']) };
    }
  } finally {
    app.child.kill();
  }
  return out;
}

export async function run() {
  const dataDir = mkdtempSync(join(tmpdir(), 'keepsake-bench-devapi-'));
  const lines: string[] = [];
  try {
    const seedStart = Date.now();
    const key = await seed(dataDir);
    lines.push(`seeded ${MEMORIES} memories through the repository in ${fmt((Date.now() - seedStart) / 1000)} s`);

    const bare = await startServer('bench/servers/app.ts', { BENCH_MODE: 'bare' });
    await warmUp({ url: `http://127.0.0.1:${bare.port}/bare` });
    const baseline = await load({ url: `http://127.0.0.1:${bare.port}/bare` });
    bare.child.kill();

    const headers = { authorization: `Bearer ${key}` };
    let varied = 0;
    const paths: Record<Case, PathOf> = {
      list: '/memories?limit=25',
      filtered: '/memories?limit=25&offset=1000&categories=work,skills',
      selective: `/memories/search?q=${WORDS[7]}&limit=25`,
      // 4,096 topic words × 11 page sizes: every request is a different search (a cache miss).
      varied: () => {
        const n = varied++;
        return `/memories/search?q=${WORDS[n % WORDS.length]}&limit=${20 + (Math.floor(n / WORDS.length) % 11)}`;
      },
      two: `/memories/search?q=friends%20${WORDS[99]}&limit=25`,
      vector: `/memories/vector/search?query=${WORDS[42]}&limit=10`,
      // Last: its backlog of slow requests would spill into the next measurement.
      broad: '/memories/search?q=friends&limit=25',
    };
    // Cache on (the default) answers repeated reads of unchanged data from memory; cache off
    // (RESPONSE_CACHE_MB=0) builds every answer from the database, as a first read or a read after a write does.
    const on = await measureAll(dataDir, {}, paths, headers);
    const off = await measureAll(dataDir, { RESPONSE_CACHE_MB: '0' }, paths, headers);

    lines.push(`baseline bare Fastify JSON route: ${fmt(baseline.rps, 0)} req/s, p99 ${baseline.p99} ms`);
    for (const [mode, r] of [
      ['cache on', on],
      ['cache off', off],
    ] as const) {
      lines.push(describe(`[${mode}] GET memories?limit=25 @50k, 50 conns`, r.list, baseline));
      lines.push(describe(`[${mode}] GET memories, categories OR + offset 1000`, r.filtered, baseline));
      lines.push(describe(`[${mode}] GET memories/search, one topic word (~50 matches)`, r.selective, baseline));
      lines.push(
        describe(`[${mode}] GET memories/search, a different topic word or page size per request`, r.varied, baseline),
      );
      lines.push(describe(`[${mode}] GET memories/search, a word in every memory AND a topic word`, r.two, baseline));
      lines.push(describe(`[${mode}] GET memories/search, a word in every memory (50k matches)`, r.broad, baseline));
      lines.push(describe(`[${mode}] GET memories/vector/search without embeddings (not cached)`, r.vector, baseline));
      lines.push(
        `[${mode}] first page / (categories OR + offset 1000) throughput: ${fmt(r.list.rps / r.filtered.rps, 2)}× (target ≤ 2× with the cache off)`,
      );
      lines.push(bound(`[${mode}] list`, r.list));
      lines.push(bound(`[${mode}] topic search`, r.selective));
      lines.push(bound(`[${mode}] varied search`, r.varied));
      lines.push(
        `[${mode}] search throughput vs the plain list: topic word ${fmt(r.selective.rps / r.list.rps, 2)}×, varied topic words ${fmt(r.varied.rps / r.list.rps, 2)}×, two words ${fmt(r.two.rps / r.list.rps, 2)}×, every-memory word ${fmt(r.broad.rps / r.list.rps, 2)}×`,
      );
    }
    return { name: 'developer memories list and search (SQLite, 50k memories)', lines };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
