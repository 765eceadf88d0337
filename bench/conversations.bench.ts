// Performance: the developer conversation list at 100,000 conversations (SQLite) against a
// bare Fastify JSON route, and create-from-segments throughput with 100 segments, no LLM.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { testConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { DEV_SCOPES } from '../src/domain/keys/dev-keys.js';
import { fmt, type LoadResult, load, startServer, warmUp } from './support.js';

const CONVERSATIONS = 100_000;
const CATEGORIES = ['work', 'personal', 'health', 'finance', 'travel', 'family', 'technology', 'social'];

export async function seed(dataDir: string): Promise<string> {
  const ctx = await createContext(testConfig({ dataDir }), { log: pino({ level: 'silent' }) });
  const user = await ctx.users.create({ name: 'Bench' });
  const key = await ctx.keys.create(user.uid, 'bench', [...DEV_SCOPES]);
  const start = Date.parse('2024-01-01T00:00:00Z');
  for (let batch = 0; batch < CONVERSATIONS; batch += 1000) {
    await ctx.store.db.transaction().execute(async (tx) => {
      const rows = Array.from({ length: 1000 }, (_, i) => {
        const n = batch + i;
        const at = start + n * 60_000;
        return {
          id: randomUUID(),
          user_id: user.uid,
          created_at: at,
          updated_at: at,
          started_at: at,
          finished_at: at + 300_000,
          status: n % 50 === 0 ? 'in_progress' : 'completed',
          discarded: n % 20 === 0 ? 1 : 0,
          starred: n % 10 === 0 ? 1 : 0,
          title: `Conversation number ${n} about the weekly plan`,
          overview: 'We talked about the plan for the week, the budget review and the trip next month. '.repeat(2),
          category: CATEGORIES[n % CATEGORIES.length],
          emoji: '💼',
          language: 'en',
          source: 'omi',
          revision: 0,
        };
      });
      await tx.insertInto('conversations').values(rows).execute();
      const items = rows
        .filter((_, i) => i % 4 === 0)
        .map((r) => ({
          id: randomUUID(),
          user_id: user.uid,
          conversation_id: r.id,
          description: 'Send the budget review to the team',
          completed: 0,
          completed_at: null,
          due_at: r.created_at + 86_400_000,
          created_at: r.created_at,
          updated_at: r.created_at,
        }));
      await tx.insertInto('action_items').values(items).execute();
    });
  }
  await ctx.close();
  return key.key;
}

function createRequest(port: number, headers: Record<string, string>, wait: boolean) {
  return {
    url: `http://127.0.0.1:${port}/v1/dev/user/conversations/from-segments?wait=${wait}`,
    method: 'POST' as const,
    headers: { ...headers, 'content-type': 'application/json' },
    body: segmentsBody(),
  };
}

function segmentsBody(): string {
  const transcript_segments = Array.from({ length: 100 }, (_, i) => ({
    text: `Segment ${i}: we should review the launch checklist and confirm the venue for the offsite next week.`,
    start: i * 3,
    end: i * 3 + 2.5,
    speaker: `SPEAKER_0${i % 2}`,
    is_user: i % 2 === 0,
  }));
  return JSON.stringify({ transcript_segments });
}

export async function run() {
  const dataDir = mkdtempSync(join(tmpdir(), 'keepsake-bench-'));
  const lines: string[] = [];
  try {
    const seedStart = Date.now();
    const key = await seed(dataDir);
    lines.push(`seeded ${CONVERSATIONS} conversations in ${fmt((Date.now() - seedStart) / 1000)} s`);

    const bare = await startServer('bench/servers/app.ts', { BENCH_MODE: 'bare' });
    await warmUp({ url: `http://127.0.0.1:${bare.port}/bare` });
    const baseline = await load({ url: `http://127.0.0.1:${bare.port}/bare` });
    bare.child.kill();

    const headers = { authorization: `Bearer ${key}` };
    const listPath = '/v1/dev/user/conversations?limit=25';
    const deepPath = '/v1/dev/user/conversations?limit=25&offset=5000&categories=work,travel';

    // Every read built from the database (RESPONSE_CACHE_MB=0): the cost of a first read or a read after a write.
    const cold = await startServer('bench/servers/app.ts', {
      BENCH_MODE: 'app',
      DATA_DIR: dataDir,
      RESPONSE_CACHE_MB: '0',
    });
    await warmUp({ url: `http://127.0.0.1:${cold.port}${listPath}`, headers });
    const listCold = await load({ url: `http://127.0.0.1:${cold.port}${listPath}`, headers });
    const deepCold = await load({ url: `http://127.0.0.1:${cold.port}${deepPath}`, headers });
    cold.child.kill();

    // Default configuration: repeated reads are answered from the response cache while the data is unchanged.
    const app = await startServer('bench/servers/app.ts', { BENCH_MODE: 'app', DATA_DIR: dataDir });
    await warmUp({ url: `http://127.0.0.1:${app.port}${listPath}`, headers });
    const list = await load({ url: `http://127.0.0.1:${app.port}${listPath}`, headers });
    const deep = await load({ url: `http://127.0.0.1:${app.port}${deepPath}`, headers });
    app.child.kill();

    // Creates last: processing leaves extraction jobs behind that would load the reads measured after them.
    const writer = await startServer('bench/servers/app.ts', { BENCH_MODE: 'app', DATA_DIR: dataDir });
    const inline = await load({ ...createRequest(writer.port, headers, true), connections: 20, duration: 6 });
    writer.child.kill();

    // Ingest on an API process whose jobs run elsewhere (a worker): the durable write of 100 segments + job.
    const api = await startServer('bench/servers/app.ts', { BENCH_MODE: 'app', DATA_DIR: dataDir, BENCH_JOBS: 'off' });
    await warmUp({ ...createRequest(api.port, headers, false), connections: 20 });
    const ingest = await load({ ...createRequest(api.port, headers, false), connections: 20, duration: 6 });
    api.child.kill();

    const pct = (r: LoadResult) => `${fmt((100 * r.rps) / baseline.rps)}% of baseline`;
    lines.push(`baseline bare Fastify JSON route: ${fmt(baseline.rps, 0)} req/s, p99 ${baseline.p99} ms`);
    lines.push(
      `GET conversations?limit=25 @100k, 50 conns, cache on (default): ${fmt(list.rps, 0)} req/s = ${pct(list)} (target ≥ 40%), p99 ${list.p99} ms (target < 20), non-2xx ${list.non2xx}`,
    );
    lines.push(
      `GET conversations?limit=25 @100k, 50 conns, cache off: ${fmt(listCold.rps, 0)} req/s = ${pct(listCold)}, p99 ${listCold.p99} ms, non-2xx ${listCold.non2xx}`,
    );
    lines.push(
      `GET with categories OR + offset 5000: cache on ${fmt(deep.rps, 0)} req/s = ${pct(deep)}, p99 ${deep.p99} ms; cache off ${fmt(deepCold.rps, 0)} req/s = ${pct(deepCold)}, p99 ${deepCold.p99} ms`,
    );
    lines.push(
      `cache off, first page / (categories OR + offset 5000) throughput: ${fmt(listCold.rps / deepCold.rps, 2)}× (target ≤ 2×)`,
    );
    lines.push(
      `POST from-segments (100 segments) ?wait=false on an API process, jobs on a worker: ${fmt(ingest.rps, 0)} req/s (target ≥ 1000), p99 ${ingest.p99} ms, non-2xx ${ingest.non2xx}`,
    );
    lines.push(
      `POST from-segments (100 segments) processed before answering (default): ${fmt(inline.rps, 0)} req/s, p99 ${inline.p99} ms, non-2xx ${inline.non2xx}; ingest/inline ${fmt(ingest.rps / inline.rps, 1)}×`,
    );
    return { name: 'developer conversations API (SQLite)', lines };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
