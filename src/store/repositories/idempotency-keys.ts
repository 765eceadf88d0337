import type { Kysely, Selectable, Transaction } from 'kysely';
import { PreparedQuery } from '../prepared.js';
import type { Database } from '../schema.js';

export interface IdempotencyKeysTable {
  user_id: string;
  /** `dev` for the developer API, `app:<app id>` for an app's integration requests. */
  scope: string;
  key: string;
  /** SHA-256 of the request (method, route, path, query, body) the key was first used with. */
  request_hash: string;
  status_code: number;
  /** The serialized answer, replayed byte for byte. */
  body: string;
  /** 0 while the answer can still change before it is sent, 1 once it is the one sent. */
  final: number;
  created_at: number;
}

declare module '../schema.js' {
  interface Database {
    idempotency_keys: IdempotencyKeysTable;
  }
}

export type IdempotencyRecord = Selectable<IdempotencyKeysTable>;

/** The Idempotency-Key records of creates (http/idempotency.ts); every query names the owner. */
export class IdempotencyKeysRepository {
  /** Every keyed create looks its key up first, so the lookup is compiled once. */
  private readonly lookup: PreparedQuery<IdempotencyRecord, 'userId' | 'scope' | 'key' | 'notBefore'>;

  constructor(private readonly db: Kysely<Database>) {
    this.lookup = new PreparedQuery(db, ['userId', 'scope', 'key', 'notBefore'], (v) =>
      db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('user_id', '=', v.userId)
        .where('scope', '=', v.scope)
        .where('key', '=', v.key)
        .where('created_at', '>=', v.notBefore),
    );
  }

  /** The owner's record of `key`, unless it was written before `notBefore` (expired). */
  async find(userId: string, scope: string, key: string, notBefore: number): Promise<IdempotencyRecord | undefined> {
    const [row] = await this.lookup.execute({ userId, scope, key, notBefore });
    return row;
  }

  /**
   * Writes the record in the create's transaction; false when an unexpired record holds the key (the
   * caller must then roll back). On PostgreSQL a concurrent writer of the same key waits here for the
   * first one's transaction to end. A record older than `expiredBefore` is replaced.
   */
  async claim(tx: Transaction<Database>, record: IdempotencyRecord, expiredBefore: number): Promise<boolean> {
    const written = await tx
      .insertInto('idempotency_keys')
      .values(record)
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'scope', 'key'])
          .doUpdateSet((eb) => ({
            request_hash: eb.ref('excluded.request_hash'),
            status_code: eb.ref('excluded.status_code'),
            body: eb.ref('excluded.body'),
            final: eb.ref('excluded.final'),
            created_at: eb.ref('excluded.created_at'),
          }))
          .where('idempotency_keys.created_at', '<', expiredBefore),
      )
      .returning('key')
      .executeTakeFirst();
    return written !== undefined;
  }

  /** Records an answer after the fact (a create that wrote nothing new); a record already there stays. */
  async recordAnswered(record: IdempotencyRecord): Promise<void> {
    await this.db
      .insertInto('idempotency_keys')
      .values(record)
      .onConflict((oc) => oc.columns(['user_id', 'scope', 'key']).doNothing())
      .execute();
  }

  /** Replaces a provisional answer with the one sent. */
  async finalize(userId: string, scope: string, key: string, statusCode: number, body: string): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ status_code: statusCode, body, final: 1 })
      .where('user_id', '=', userId)
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('final', '=', 0)
      .execute();
  }

  /** Deletes every record written before `before`; how many. */
  async sweep(before: number): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
