import { type Kysely, sql, type Transaction } from 'kysely';
import type { DialectName } from './db.js';
import type { Database } from './schema.js';

export type TransactionWork<T> = (tx: Transaction<Database>) => Promise<T>;

/** Runs one unit of write work in a transaction of its own or, on SQLite, in a shared group commit. */
export type TransactionRunner = <T>(work: TransactionWork<T>) => Promise<T>;

interface Pending {
  work: TransactionWork<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

// A group holds the single SQLite connection while it runs; this bounds how long a read waits behind it.
const MAX_GROUP = 32;

/**
 * Group commit for SQLite. Every SQLite commit rewrites the pages it touched (B-tree append points,
 * index roots, the data-version row) and periodically checkpoints them, whatever the transaction's size;
 * for an ingest of 100 segments that fixed cost is about a third of the write. Units of work that arrive
 * while the event loop is busy are run together, each inside a savepoint, and committed once:
 *
 * - a unit that throws is rolled back to its savepoint alone and its caller gets the error;
 * - every caller is answered only after the shared COMMIT, so an acknowledged write is committed;
 * - if the COMMIT itself fails, every unit of the group gets that error (nothing of it was written).
 *
 * A lone unit runs as a plain transaction. PostgreSQL gets a transaction per unit: its pool runs them
 * in parallel and the server groups WAL flushes itself.
 */
export function transactionRunner(db: Kysely<Database>, dialect: DialectName): TransactionRunner {
  if (dialect === 'postgres') return (work) => db.transaction().execute(work);

  const queue: Pending[] = [];
  let scheduled = false;

  async function flush(): Promise<void> {
    const group = queue.splice(0, MAX_GROUP);
    const outcomes = await runGroup(db, group).catch((error: unknown) =>
      group.map(() => ({ ok: false as const, error })),
    );
    group.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
    if (queue.length > 0) setImmediate(() => void flush());
    else scheduled = false;
  }

  return <T>(work: TransactionWork<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        // After the I/O callbacks of this loop turn, so requests that arrived together commit together.
        setImmediate(() => void flush());
      }
    });
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

async function runGroup(db: Kysely<Database>, group: readonly Pending[]): Promise<Outcome[]> {
  if (group.length === 1) {
    try {
      return [{ ok: true, value: await db.transaction().execute(group[0].work) }];
    } catch (error) {
      return [{ ok: false, error }];
    }
  }
  return db.transaction().execute(async (tx) => {
    const outcomes: Outcome[] = [];
    for (const pending of group) {
      await sql`SAVEPOINT group_unit`.execute(tx);
      try {
        outcomes.push({ ok: true, value: await pending.work(tx) });
      } catch (error) {
        await sql`ROLLBACK TO group_unit`.execute(tx);
        outcomes.push({ ok: false, error });
      }
      await sql`RELEASE group_unit`.execute(tx);
    }
    return outcomes;
  });
}
