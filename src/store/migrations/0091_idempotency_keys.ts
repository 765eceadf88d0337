import type { Kysely } from 'kysely';

/**
 * Idempotency-Key records (docs/developer-api.md): what a create answered, written in the transaction
 * that stores what it created. The primary key is the claim: a second create with the same key, in any
 * process, fails on it (PostgreSQL makes it wait for the first to commit) and replays the first answer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull())
    // `dev` for the developer API, `app:<app id>` for an app's integration requests.
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    // 0 while the answer can still change (a conversation processed before answering), then 1.
    .addColumn('final', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'scope', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
