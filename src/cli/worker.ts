import type { Config } from '../config.js';
import { createContext } from '../context.js';
import { startFinalizationConsumer } from '../listen/queue-worker.js';
import { UsageError } from './usage.js';

/** Hooks that start queue consumers in a worker process (the BullMQ dispatcher registers here). */
export const workerStarters: Array<
  (ctx: Awaited<ReturnType<typeof createContext>>, concurrency: number) => Promise<void>
> = [startFinalizationConsumer];

export async function runWorker(config: Config, concurrencyArg: string | undefined): Promise<number> {
  const concurrency = concurrencyArg === undefined ? 4 : Number(concurrencyArg);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) {
    throw new UsageError('--concurrency must be an integer from 1 to 256');
  }
  const ctx = await createContext(config, { runJobs: true, concurrency });
  for (const start of workerStarters) await start(ctx, concurrency);
  ctx.log.info({ concurrency }, 'worker started');
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
