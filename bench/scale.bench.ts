// Performance: developer-API read throughput with 2 API processes vs 1 (PostgreSQL + Redis, same
// run), and list latency at 1,000,000 conversations vs 10,000. Needs TEST_DATABASE_URL/TEST_REDIS_URL
// (or DATABASE_URL/REDIS_URL); skipped with a message otherwise.
import { cpus, loadavg } from 'node:os';
import { Cluster, type Node, stopNode } from '../test/scale/cluster.js';
import { CpuMeter, formatCpu, pidsMatching } from './cpu.js';
import { fmt, type LoadResult, load } from './support.js';

const LIST = '/v1/dev/user/conversations?limit=25';

export async function run(): Promise<{ name: string; lines: string[] }> {
  const name = 'scale (PostgreSQL + Redis, child processes)';
  const dbUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const redisUrl = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
  if (!dbUrl || !redisUrl) return { name, lines: ['skipped: set TEST_DATABASE_URL and TEST_REDIS_URL'] };
  const cluster = await Cluster.create(dbUrl, redisUrl, 12, { LOG_LEVEL: 'warn', RATE_LIMIT_BOOST: '1000000000' });
  try {
    // The first start creates the owner whose key the load uses.
    await stopNode(await cluster.serve());
    const auth = { authorization: `Bearer ${cluster.owner.key}` };
    await seed(cluster, cluster.owner.uid, 10_000);
    const lines = [
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (shared with other work: absolute figures are noisy)`,
      ...(await throughput(cluster, auth, 'cache on (default)', {})),
      // Every page built by the database: more of each request's work is the API process's own.
      ...(await throughput(cluster, auth, 'cache off', { RESPONSE_CACHE_MB: '0' })),
    ];
    // BENCH_SCALE_THROUGHPUT_ONLY=1 skips the 1,000,000-conversation seed (minutes on a busy machine).
    if (!process.env.BENCH_SCALE_THROUGHPUT_ONLY) lines.push(...(await dataSize(cluster, auth)));
    lines.push('500 live streams: bench/streams.bench.ts');
    return { name, lines };
  } finally {
    await cluster.stop();
  }
}

async function throughput(
  cluster: Cluster,
  headers: Record<string, string>,
  label: string,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  const node1 = await cluster.serve(env);
  const database = new URL(cluster.databaseUrl).pathname.slice(1);
  const meter = (nodes: Node[]) =>
    new CpuMeter({
      [`API process${nodes.length > 1 ? 'es' : ''}`]: () => nodes.map((n) => n.pid),
      'PostgreSQL backends': () => pidsMatching((cmd) => cmd.startsWith('postgres: ') && cmd.includes(` ${database} `)),
      Redis: () => pidsMatching((cmd) => cmd.startsWith('redis-server')),
    });
  // Warm-up: pool connections, statement paths and the JIT, so both measurements start alike.
  await load({ url: node1.url + LIST, headers, connections: 50, duration: 2 });
  const oneMeter = meter([node1]);
  oneMeter.start();
  const one = await load({ url: node1.url + LIST, headers, connections: 50, duration: 8 });
  const oneCpu = oneMeter.stop();
  const node2 = await cluster.serve(env);
  await load({ url: node2.url + LIST, headers, connections: 25, duration: 2 });
  const twoMeter = meter([node1, node2]);
  twoMeter.start();
  const [a, b] = await Promise.all(
    [node1, node2].map((node) => load({ url: node.url + LIST, headers, connections: 25, duration: 8 })),
  );
  const twoCpu = twoMeter.stop();
  await Promise.all([stopNode(node1), stopNode(node2)]);
  const two = a.rps + b.rps;
  return [
    `[${label}]`,
    `dev list, 1 API process:  ${fmt(one.rps, 0)} req/s, p99 ${one.p99} ms${errors(one)}`,
    `  CPU (% of one core): ${formatCpu(oneCpu)}`,
    `dev list, 2 API processes: ${fmt(two, 0)} req/s (${fmt(a.rps, 0)} + ${fmt(b.rps, 0)}), p99 ${Math.max(a.p99, b.p99)} ms${errors(a)}${errors(b)}`,
    `  CPU (% of one core): ${formatCpu(twoCpu)}`,
    `scaling ratio 2 vs 1: ${fmt(two / one.rps, 2)}× (target ≥ 1.6×); CPU of everything measured: ${fmt(total(oneCpu))}% → ${fmt(total(twoCpu))}% of the machine's ${cpus().length * 100}%`,
    bound(one.rps, oneCpu),
  ];
}

const total = (cpu: Record<string, number>) => Object.values(cpu).reduce((a, b) => a + b, 0);

/**
 * The best ratio this machine allows: per request the API process costs `a` of a core and everything else
 * (database, Redis, load generator) `b`; two API processes cannot pass all cores / (a + b) requests per
 * second, nor twice one process's rate, so the ratio is at most min(2, cores × rps₁⁻¹ / (a + b)).
 */
function bound(oneRps: number, oneCpu: Record<string, number>): string {
  const api = Object.entries(oneCpu).find(([name]) => name.startsWith('API'))?.[1] ?? 0;
  const rest = total(oneCpu) - api;
  const perRequest = (percent: number) => (percent / 100 / oneRps) * 1e6;
  const machineLimit = (cpus().length * 100) / total(oneCpu);
  return `  per request: API process ${fmt(perRequest(api), 0)} µs of CPU, everything else ${fmt(perRequest(rest), 0)} µs → this machine's cores cap 2 vs 1 at ${fmt(Math.min(2, machineLimit), 2)}×`;
}

async function dataSize(cluster: Cluster, small: Record<string, string>): Promise<string[]> {
  const big = cluster.admin(['user', 'create', '--name', 'Big']);
  const uid = String(big.uid);
  const key = cluster.admin(['key', 'create', '--uid', uid, '--name', 'bench']);
  const started = Date.now();
  await seed(cluster, uid, 1_000_000);
  const seededIn = (Date.now() - started) / 1000;
  // Every answer built by the query (RESPONSE_CACHE_MB=0): a cached page would cost the same at any size.
  const cold = await cluster.serve({ RESPONSE_CACHE_MB: '0' });
  const options = { connections: 10, duration: 6 };
  const at10k = await load({ url: cold.url + LIST, headers: small, ...options });
  const at1m = await load({
    url: cold.url + LIST,
    headers: { authorization: `Bearer ${String(key.key)}` },
    ...options,
  });
  return [
    `seeded 1,000,000 conversations in ${fmt(seededIn, 0)} s`,
    `dev list at 10,000 conversations (cache off):    p50 ${at10k.p50} ms, p99 ${at10k.p99} ms, ${fmt(at10k.rps, 0)} req/s`,
    `dev list at 1,000,000 conversations (cache off): p50 ${at1m.p50} ms, p99 ${at1m.p99} ms, ${fmt(at1m.rps, 0)} req/s`,
    `ratio 1M vs 10k (p50): ${fmt(at1m.p50 / Math.max(0.1, at10k.p50), 2)}× (target ≤ 1.5×)`,
  ];
}

/**
 * Completed conversations for one user, inserted in PostgreSQL by generate_series (seconds, not
 * minutes). Row triggers are skipped for the bulk insert (session_replication_role): the search-document
 * trigger builds a tsvector per row (tens of minutes for 1M rows), and the seeded user has not been read
 * yet, so no cached answer needs the data-version bump.
 */
async function seed(cluster: Cluster, uid: string, count: number): Promise<void> {
  if (!/^[0-9a-f-]{36}$/.test(uid) || !Number.isInteger(count)) throw new Error('bad seed arguments');
  const start = Date.parse('2020-01-01T00:00:00Z');
  const at = (offset: string) => `${start}::bigint + g::bigint * 60000${offset}`;
  await cluster.query(
    `begin;
     set local session_replication_role = replica;
     insert into conversations (id, user_id, created_at, updated_at, started_at, finished_at, status, title, overview, category, language, source)
     select md5('${uid}' || g::text), '${uid}', ${at('')}, ${at('')}, ${at('')}, ${at(' + 30000')},
            'completed', 'Conversation ' || g, 'Overview of conversation ' || g, 'other', 'en', 'omi'
     from generate_series(1, ${count}) as g;
     commit`,
  );
  await cluster.query('analyze conversations');
}

function errors(result: LoadResult): string {
  return result.errors || result.non2xx ? ` (${result.errors} errors, ${result.non2xx} non-2xx)` : '';
}
