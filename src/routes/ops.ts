import { timingSafeEqual } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../context.js';
import { AppError, Detail } from '../errors.js';
import { errors } from '../http/schemas.js';
import type { TypedApp } from '../http/typed-app.js';
import { gauge, histogram, MetricsRegistry, PROMETHEUS_CONTENT_TYPE } from '../ops/metrics.js';
import { speechStatus } from '../providers/stt/select.js';

const tags = ['System'];
// Seconds; fine enough below 100 ms, where most API reads land.
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const Check = Type.Union([Type.Literal('ok'), Type.Literal('error'), Type.Literal('not_configured')]);
const ReadyBody = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready'), Type.Literal('draining')]),
  checks: Type.Object({ database: Check, redis: Check, queue: Check }),
  // Informational: a node without speech recognition still serves everything else.
  speech: Type.Object({
    provider: Type.Union([Type.String(), Type.Null()], { description: 'the speech provider new streams use' }),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'why none is active' }),
  }),
});

/** `/readyz` and `/metrics` (docs/deployment.md): what a load balancer and Prometheus ask each node. */
export function registerOpsRoutes(app: TypedApp, ctx: Services): void {
  const registry = processMetrics(app, ctx);
  const probe = ctx.ops.readiness;
  app.addHook('onClose', async () => probe.close());

  app.get(
    '/readyz',
    {
      schema: {
        tags,
        summary: 'Readiness: database, Redis and the job queue are reachable and the node is not draining',
        security: [],
        response: { 200: ReadyBody, 503: ReadyBody },
      },
    },
    async (_request, reply) => {
      const report = await probe.check();
      const speech = speechStatus(ctx.listen.chooseStt());
      return reply.code(report.status === 'ready' ? 200 : 503).send({ ...report, speech });
    },
  );

  app.get(
    '/metrics',
    {
      preHandler: async (request: FastifyRequest) => requireMetricsToken(ctx.config.ops.metricsToken, request),
      schema: {
        tags,
        summary: 'Prometheus metrics (text format 0.0.4); Bearer METRICS_TOKEN when it is set',
        security: [],
        response: { 200: Type.String({ description: PROMETHEUS_CONTENT_TYPE }), ...errors(401) },
      },
    },
    async (_request, reply: FastifyReply) => reply.type(PROMETHEUS_CONTENT_TYPE).send(await registry.render()),
  );
}

function processMetrics(app: TypedApp, ctx: Services): MetricsRegistry {
  const registry = new MetricsRegistry();
  const latency = registry.add(
    histogram(
      'keepsake_http_request_duration_seconds',
      'HTTP request latency by route pattern, method and status class',
      LATENCY_BUCKETS,
      ['route', 'method', 'status_class'],
    ),
  );
  registry.add(ctx.ops.sttFailures);
  const sockets = registry.add(gauge('keepsake_listen_open_sockets', 'Live listen sockets open on this process'));
  const draining = registry.add(gauge('keepsake_draining', '1 while this process drains after SIGTERM'));
  const memory = registry.add(gauge('keepsake_process_memory_bytes', 'Memory of this process by kind', ['kind']));
  const loopDelay = registry.add(
    gauge('keepsake_event_loop_delay_seconds', 'Event-loop delay of this process since the previous scrape', [
      'quantile',
    ]),
  );
  // Sampled every 10 ms; a busy or CPU-starved process shows here before its requests slow down.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  app.addHook('onClose', async () => loop.disable());
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL: ids in paths would make one series per resource.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { route, method: request.method, status_class: `${Math.floor(reply.statusCode / 100)}xx` };
    latency.observe(labels, reply.elapsedTime / 1000);
  });
  registry.collect(() => {
    sockets.set(ctx.listen.active.size);
    draining.set(ctx.ops.state.draining ? 1 : 0);
    const usage = process.memoryUsage();
    memory.set({ kind: 'rss' }, usage.rss);
    memory.set({ kind: 'heap_used' }, usage.heapUsed);
    for (const [quantile, nanos] of [
      ['0.5', loop.percentile(50)],
      ['0.99', loop.percentile(99)],
      ['1', loop.max],
    ] as const)
      loopDelay.set({ quantile }, Number.isFinite(nanos) ? nanos / 1e9 : 0);
    loop.reset();
  });
  ctx.ops.addDatabaseCollectors(registry);
  return registry;
}

function requireMetricsToken(expected: string | null, request: FastifyRequest): void {
  if (expected === null) return;
  const header = request.headers.authorization ?? '';
  const presented = Buffer.from(header.startsWith('Bearer ') ? header.slice(7).trim() : '');
  const wanted = Buffer.from(expected);
  if (presented.length !== wanted.length || !timingSafeEqual(presented, wanted)) {
    throw new AppError(401, Detail.invalidMetricsToken);
  }
}
