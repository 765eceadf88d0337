/**
 * A small Prometheus registry (text exposition format 0.0.4): counters, gauges and histograms with
 * labels. Values live in this process; Prometheus scrapes every `keepsake serve` process and sums.
 * Cluster-wide figures (job queue, webhook outcomes) are read from the database at scrape time by
 * collectors instead, so they are right whichever node is scraped.
 */

export type Labels = Record<string, string>;

interface Sample {
  labels: Labels;
  value: number;
}

abstract class Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge' | 'histogram',
  ) {}

  abstract samples(): Array<Sample & { suffix: string }>;

  render(): string {
    const lines = [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`];
    for (const sample of this.samples()) {
      lines.push(`${this.name}${sample.suffix}${formatLabels(sample.labels)} ${formatValue(sample.value)}`);
    }
    return lines.join('\n');
  }
}

class Series<T> {
  private readonly byKey = new Map<string, { labels: Labels; value: T }>();

  get(labels: Labels, init: () => T): { labels: Labels; value: T } {
    // Label names in code-unit order (not localeCompare: this runs on every request).
    const key = JSON.stringify(
      Object.keys(labels)
        .sort()
        .map((name) => [name, labels[name]]),
    );
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = { labels: { ...labels }, value: init() };
      this.byKey.set(key, entry);
    }
    return entry;
  }

  entries(): Array<{ labels: Labels; value: T }> {
    return [...this.byKey.values()];
  }

  clear(): void {
    this.byKey.clear();
  }
}

export class Counter extends Metric {
  private readonly series = new Series<number>();

  constructor(name: string, help: string) {
    super(name, help, 'counter');
  }

  inc(labels: Labels = {}, by = 1): void {
    const entry = this.series.get(labels, () => 0);
    entry.value += by;
  }

  samples() {
    return this.series.entries().map(({ labels, value }) => ({ labels, value, suffix: '' }));
  }
}

export class Gauge extends Metric {
  private readonly series = new Series<number>();

  constructor(name: string, help: string) {
    super(name, help, 'gauge');
  }

  set(labels: Labels, value: number): void {
    this.series.get(labels, () => 0).value = value;
  }

  /** Drops every series (a collector refills the gauge from scratch on each scrape). */
  reset(): void {
    this.series.clear();
  }

  samples() {
    return this.series.entries().map(({ labels, value }) => ({ labels, value, suffix: '' }));
  }
}

interface Buckets {
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram extends Metric {
  private readonly series = new Series<Buckets>();

  constructor(
    name: string,
    help: string,
    readonly bounds: readonly number[],
  ) {
    super(name, help, 'histogram');
  }

  observe(labels: Labels, value: number): void {
    const entry = this.series.get(labels, () => ({ counts: this.bounds.map(() => 0), sum: 0, count: 0 }));
    // Cumulative buckets: a value counts in every bucket whose upper bound it does not exceed.
    for (let i = 0; i < this.bounds.length; i++) if (value <= this.bounds[i]) entry.value.counts[i]++;
    entry.value.sum += value;
    entry.value.count++;
  }

  samples() {
    return this.series.entries().flatMap(({ labels, value }) => [
      ...this.bounds.map((bound, i) => ({
        labels: { ...labels, le: formatValue(bound) },
        value: value.counts[i],
        suffix: '_bucket',
      })),
      { labels: { ...labels, le: '+Inf' }, value: value.count, suffix: '_bucket' },
      { labels, value: value.sum, suffix: '_sum' },
      { labels, value: value.count, suffix: '_count' },
    ]);
  }
}

/** Metrics of one process plus collectors that refresh gauges right before each scrape. */
export class Registry {
  private readonly metrics: Metric[] = [];
  private readonly collectors: Array<() => Promise<void> | void> = [];

  add<M extends Metric>(metric: M): M {
    if (this.metrics.some((m) => m.name === metric.name)) throw new Error(`metric ${metric.name} registered twice`);
    this.metrics.push(metric);
    return metric;
  }

  collect(collector: () => Promise<void> | void): void {
    this.collectors.push(collector);
  }

  async render(): Promise<string> {
    for (const collector of this.collectors) await collector();
    return `${this.metrics.map((m) => m.render()).join('\n')}\n`;
  }
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

function formatLabels(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function escapeHelp(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}
