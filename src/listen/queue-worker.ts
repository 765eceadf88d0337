import type { AppContext } from '../context.js';
import { startQueueConsumer } from './dispatch.js';

/**
 * `keepsake worker` with LISTEN_FINALIZATION_DISPATCH_MODE=queue: consumes the BullMQ deliveries
 * of finalization jobs (job id + dispatch generation) and reconciles lost ones. Registered in
 * src/cli/worker.ts `workerStarters`.
 */
export async function startFinalizationConsumer(ctx: AppContext, concurrency: number): Promise<void> {
  const { listen, config } = ctx;
  if (listen.dispatcher.mode !== 'queue' || !config.redisUrl) return;
  const stop = startQueueConsumer(
    {
      redisUrl: config.redisUrl,
      jobs: ctx.jobs,
      finalization: listen.finalization,
      runner: listen.finalizationRunner,
      dispatcher: listen.dispatcher,
      clock: ctx.clock,
      log: ctx.log,
      reconcileMs: config.listen.sweepMs,
    },
    concurrency,
  );
  ctx.onClose.push(stop);
}
