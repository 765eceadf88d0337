import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import '../store/repositories/apps-tables.js';
import { gauge, type MetricsRegistry } from './metrics.js';

const HOUR_MS = 3_600_000;
// Terminal "completed" rows are left out: the claim index (status, run_at) makes these range scans.
const OPEN_STATUSES = ['queued', 'leased', 'blocked_byok', 'dead_letter'] as const;

/**
 * Cluster-wide gauges read from the database at scrape time: every node reports the same job queue
 * and webhook figures, whichever process ran the work (workers expose no HTTP port).
 */
export function registerDatabaseCollectors(registry: MetricsRegistry, db: Kysely<Database>, now: () => number): void {
  const jobs = registry.add(
    gauge('keepsake_jobs', 'Jobs in the job table by kind and open status', ['kind', 'status']),
  );
  const oldest = registry.add(
    gauge('keepsake_jobs_oldest_queued_age_seconds', 'Age of the oldest due queued job by kind (0 when none)', [
      'kind',
    ]),
  );
  const webhooks = registry.add(
    gauge('keepsake_webhook_deliveries_last_hour', 'Webhook and push deliveries updated in the last hour, by status', [
      'status',
    ]),
  );
  registry.collect(async () => {
    const at = now();
    const rows = await db
      .selectFrom('jobs')
      .select(['kind', 'status', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('run_at').as('first')])
      .where('status', 'in', [...OPEN_STATUSES])
      .groupBy(['kind', 'status'])
      .execute();
    jobs.reset();
    oldest.reset();
    for (const row of rows) {
      jobs.set({ kind: row.kind, status: row.status }, Number(row.n));
      if (row.status === 'queued') oldest.set({ kind: row.kind }, Math.max(0, (at - Number(row.first)) / 1000));
    }
    const deliveries = await db
      .selectFrom('webhook_deliveries')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('updated_at', '>=', at - HOUR_MS)
      .groupBy('status')
      .execute();
    webhooks.reset();
    for (const row of deliveries) webhooks.set({ status: row.status }, Number(row.n));
  });
}
