import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Clock } from '../context-types.js';
import type { Store } from '../store/db.js';
import { JobQueue } from './queue.js';
import { JobRunner } from './runner.js';
import { JobTable } from './table-queue.js';

const LEASE_MS = 60_000;

/** This process's name in leases: host, pid and a random suffix (several contexts share a pid in tests). */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

export interface JobsModule {
  jobs: JobTable;
  /** The main runner: conversation processing, extraction, app imports. */
  runner: JobRunner;
  /** BullMQ dispatch (LISTEN_FINALIZATION_DISPATCH_MODE=queue with REDIS_URL), else null. */
  queue: JobQueue | null;
}

export function createJobsModule(deps: {
  config: Config;
  store: Store;
  clock: Clock;
  log: Logger;
  concurrency: number;
}): JobsModule {
  const jobs = new JobTable(deps.store.db, deps.store.dialect);
  const runner = new JobRunner(jobs, deps.clock, deps.log, {
    workerId: newWorkerId(),
    leaseMs: LEASE_MS,
    pollMs: 1000,
    concurrency: deps.concurrency,
  });
  const { config } = deps;
  const queue =
    config.dispatchMode === 'queue' && config.redisUrl ? new JobQueue(config.redisUrl, jobs, deps.log) : null;
  return { jobs, runner, queue };
}
