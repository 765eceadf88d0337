// A benchmark server: BENCH_MODE=bare serves one plain Fastify JSON route (the baseline);
// BENCH_MODE=app serves the full Keepsake app on DATA_DIR. Prints "ready" when listening.
import Fastify from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';

const port = Number(process.env.PORT);
if (process.env.BENCH_MODE === 'bare') {
  const app = Fastify();
  const page = Array.from({ length: 25 }, (_, i) => ({
    id: `c${i}`,
    title: 'A conversation',
    overview: 'x'.repeat(200),
  }));
  app.get('/bare', async () => page);
  await app.listen({ port, host: '127.0.0.1' });
} else {
  const config = { ...loadConfig(), rateLimitBoost: 1e9 };
  // BENCH_JOBS=off: an API-only process (jobs left to a worker), to measure ingest on its own.
  const ctx = await createContext(config, {
    log: pino({ level: 'silent' }),
    runJobs: process.env.BENCH_JOBS !== 'off',
  });
  // BENCH_ENGINE_READY: answer only once the engine's worker threads have loaded it (ENGINE_WORKERS > 0).
  const engine = ctx.engine as Partial<{ whenReady(): Promise<void> }>;
  if (process.env.BENCH_ENGINE_READY) await engine.whenReady?.();
  const app = await buildApp(ctx);
  await app.listen({ port, host: '127.0.0.1' });
  ctx.store.refreshStatistics(); // as keepsake serve does once it answers
}
process.stdout.write('ready\n');
process.on('SIGINT', () => process.exit(0));
