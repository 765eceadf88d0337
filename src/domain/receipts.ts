import type { Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import type { CreateReceipt } from './ports.js';

/** A repository that runs work in a transaction of its own. */
interface Transactional {
  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T>;
}

/**
 * Stores what `write` creates and, when the create carries an Idempotency-Key, its receipt of `answer`,
 * in one transaction; returns the answer. Without a receipt, `write` runs as it would alone (no
 * transaction of its own: one statement is one round trip on PostgreSQL).
 */
export async function createWithReceipt<A>(
  repository: Transactional,
  write: (tx?: Transaction<Database>) => Promise<void>,
  answer: A,
  receipt: CreateReceipt | undefined,
): Promise<A> {
  if (!receipt) {
    await write();
    return answer;
  }
  await repository.transaction(async (tx) => {
    await write(tx);
    await receipt(tx, answer);
  });
  return answer;
}
