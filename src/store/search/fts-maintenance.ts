import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../schema.js';

/**
 * Keeps the SQLite full-text indexes in few segments.
 *
 * FTS5 writes each transaction's postings as a new segment and merges them only in groups of four per
 * level, so an index fed one memory at a time holds a dozen segments or more, and every search reads
 * every segment: at 50,000 memories, 11 segments make a one-word match 3× slower than 1 segment
 * (76 → 26 µs). This merges an index back into one segment once it holds `mergeAt` segments, in steps
 * of `pagesPerStep` leaf pages (each its own short write transaction, so requests run between steps),
 * and spends at most `budget` of wall time doing so: after a merge that took d ms, the next waits
 * d / budget ms, so a large, busy index is rewritten less often than a small one.
 */

/** The FTS5 tables kept merged. */
export const FTS_TABLES = ['memories_fts', 'conversations_fts'] as const;
type FtsTable = (typeof FTS_TABLES)[number];

export interface FtsMaintenanceOptions {
  /** How often indexes are checked. */
  intervalMs: number;
  /** Merge an index holding this many segments or more. */
  mergeAt: number;
  /** Leaf pages merged per step (FTS5 pages are 4 KB; 64 pages took ~8 ms here). */
  pagesPerStep: number;
  /** The share of time merging may take. */
  budget: number;
}

export const DEFAULT_FTS_MAINTENANCE: FtsMaintenanceOptions = {
  intervalMs: 30_000,
  mergeAt: 4,
  pagesPerStep: 64,
  budget: 0.02,
};

export interface MergeReport {
  table: FtsTable;
  segmentsBefore: number;
  segmentsAfter: number;
  steps: number;
  ms: number;
}

/** Row 10 of an FTS5 table's `%_data` is its structure record (see `segmentCount`). */
const STRUCTURE_ROWID = 10;
const STRUCTURE_V2 = [0xff, 0x00, 0x00, 0x01];

/**
 * Segments in an FTS5 structure record: a 4-byte cookie, the 4-byte V2 marker on tables that have one,
 * then the level count and the segment count as SQLite varints (7 bits a byte, high bit = more).
 */
export function segmentCount(record: Uint8Array): number {
  let at = 4;
  if (STRUCTURE_V2.every((byte, i) => record[4 + i] === byte)) at = 8;
  const varint = (): number => {
    let value = 0;
    for (let i = 0; i < 9 && at < record.length; i++) {
      const byte = record[at++];
      if (i === 8) return value * 256 + byte;
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error('truncated FTS5 structure record');
  };
  varint(); // levels
  return varint();
}

export class FtsMaintenance {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Per table: the earliest time (ms) its next merge may start. */
  private readonly notBefore = new Map<FtsTable, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: Logger,
    private readonly options: FtsMaintenanceOptions = DEFAULT_FTS_MAINTENANCE,
  ) {}

  /** Checks soon after start-up (an index built by an import is merged before it is searched much), then every interval. */
  start(firstDelayMs = 1000): void {
    this.stopped = false;
    this.schedule(firstDelayMs);
  }

  /** Stops the timer and waits for a merge under way to finish its current step. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  async segments(table: FtsTable): Promise<number> {
    const data = sql.table(`${table}_data`);
    const { rows } = await sql<{ block: Uint8Array }>`SELECT block FROM ${data} WHERE id = ${STRUCTURE_ROWID}`.execute(
      this.db,
    );
    return rows.length > 0 ? segmentCount(rows[0].block) : 0;
  }

  /** One pass over the indexes: each one due and holding `mergeAt` segments or more is merged whole. */
  async runOnce(now = Date.now()): Promise<MergeReport[]> {
    const reports: MergeReport[] = [];
    for (const table of FTS_TABLES) {
      if (this.stopped || now < (this.notBefore.get(table) ?? 0)) continue;
      const before = await this.segments(table);
      if (before < this.options.mergeAt) continue;
      const report = await this.merge(table, before);
      this.notBefore.set(table, Date.now() + report.ms / this.options.budget);
      reports.push(report);
    }
    return reports;
  }

  /**
   * Merges every segment of `table` into one. A negative page count starts FTS5's incremental optimize
   * (all segments onto one level); positive counts continue it. A step that changes fewer than two rows
   * found nothing left to merge.
   */
  private async merge(table: FtsTable, segmentsBefore: number): Promise<MergeReport> {
    const started = performance.now();
    const pages = this.options.pagesPerStep;
    let steps = 0;
    for (;;) {
      const changes = await this.db.connection().execute(async (conn) => {
        const before = await sql<{ n: number }>`SELECT total_changes() AS n`.execute(conn);
        await sql`INSERT INTO ${sql.table(table)} (${sql.ref(table)}, rank) VALUES ('merge', ${steps === 0 ? -pages : pages})`.execute(
          conn,
        );
        const after = await sql<{ n: number }>`SELECT total_changes() AS n`.execute(conn);
        return after.rows[0].n - before.rows[0].n;
      });
      steps++;
      if (changes < 2 || this.stopped) break;
      // Let requests waiting on the connection run before the next step.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const report = {
      table,
      segmentsBefore,
      segmentsAfter: await this.segments(table),
      steps,
      ms: performance.now() - started,
    };
    this.log.info({ ...report, ms: Math.round(report.ms) }, 'full-text index merged');
    return report;
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .then(() => undefined)
        .catch((err) => this.log.warn({ err }, 'full-text index merge failed'))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.options.intervalMs);
        });
    }, delay);
    this.timer.unref();
  }
}
