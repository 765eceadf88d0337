import type { Kysely } from 'kysely';

// First-start owner creation: several `keepsake serve` processes may start at once on an
// empty database; the one whose insert of this marker row succeeds creates the owner, in the same
// transaction, so exactly one owner is ever created.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bootstrap_claims')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bootstrap_claims').execute();
}
