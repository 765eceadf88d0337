import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics through prom-client. Values live in this process; Prometheus scrapes every
 * `keepsake serve` process and sums. Cluster-wide figures (job queue, webhook outcomes) are read
 * from the database at scrape time by collectors instead, so they are right whichever node is scraped.
 * Metrics are created outside prom-client's global registry: each app (and each test) has its own.
 */
export { Counter, Gauge, Histogram };

export const PROMETHEUS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

export const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
  new Counter<L>({ name, help, labelNames, registers: [] });

export const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
  new Gauge<L>({ name, help, labelNames, registers: [] });

export const histogram = <L extends string>(name: string, help: string, buckets: number[], labelNames: readonly L[]) =>
  new Histogram<L>({ name, help, buckets, labelNames, registers: [] });

/**
 * prom-client's registry plus collectors that refresh gauges right before each scrape. A collector
 * may fill several gauges from one query, which prom-client's per-metric `collect` (run for all
 * metrics at once) cannot order.
 */
export class MetricsRegistry extends Registry {
  private readonly collectors: Array<() => Promise<void> | void> = [];

  add<M extends Counter | Gauge | Histogram>(metric: M): M {
    this.registerMetric(metric);
    return metric;
  }

  collect(collector: () => Promise<void> | void): void {
    this.collectors.push(collector);
  }

  async render(): Promise<string> {
    for (const collector of this.collectors) await collector();
    return this.metrics();
  }
}
