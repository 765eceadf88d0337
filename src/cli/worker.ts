import type { Config } from '../config.js';
import { createContext } from '../context.js';
import { UsageError } from './usage.js';

/**
 * `keepsake worker --concurrency N`: runs jobs. With LISTEN_FINALIZATION_DISPATCH_MODE=queue every
 * runner consumes its BullMQ queue (processing and extraction, finalization, webhook outbox, audio,
 * app jobs) and sweeps for lost deliveries; with inline dispatch the runners poll the job table.
 */
export async function runWorker(config: Config, concurrencyArg: string | undefined): Promise<number> {
  const concurrency = concurrencyArg === undefined ? 4 : Number(concurrencyArg);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) {
    throw new UsageError('--concurrency must be an integer from 1 to 256');
  }
  const ctx = await createContext(config, { runJobs: true, concurrency });
  ctx.store.refreshStatistics();
  ctx.log.info({ concurrency, dispatch: config.dispatchMode }, 'worker started');
  await new Promise<void>((resolve) => {
    const stop = () => {
      ctx.log.info('worker stopping: finishing leased jobs');
      ctx.close().finally(resolve);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  return 0;
}
