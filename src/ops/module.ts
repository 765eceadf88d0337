import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
import type { Database } from '../store/schema.js';
import { registerDatabaseCollectors } from './collect.js';
import { type Counter, counter, type MetricsRegistry } from './metrics.js';
import { ReadinessProbe } from './readiness.js';
import type { OpsState } from './state.js';

/** What the ops routes need: readiness, the database gauges and this process's draining flag. */
export interface OpsModule {
  state: OpsState;
  readiness: ReadinessProbe;
  addDatabaseCollectors(registry: MetricsRegistry): void;
  /** Terminal STT provider failures of live streams, by provider and outcome. */
  sttFailures: Counter<'provider' | 'outcome'>;
}

export function createOpsModule(deps: {
  db: Kysely<Database>;
  redisUrl: string | null;
  probeQueue: (() => Promise<void>) | null;
  clock: Clock;
  log: Logger;
}): OpsModule {
  const state: OpsState = { draining: false };
  const readiness = new ReadinessProbe({
    db: deps.db,
    redisUrl: deps.redisUrl,
    probeQueue: deps.probeQueue,
    draining: () => state.draining,
    log: deps.log,
  });
  return {
    state,
    readiness,
    addDatabaseCollectors: (registry) => registerDatabaseCollectors(registry, deps.db, () => deps.clock.now()),
    sttFailures: counter('keepsake_stt_provider_errors_total', 'Terminal STT provider failures of live streams', [
      'provider',
      'outcome',
    ]),
  };
}
