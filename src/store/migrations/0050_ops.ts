import type { Kysely } from 'kysely';

// Scale-out operations: /metrics reads the last hour of webhook outcomes on every scrape;
// this index keeps that a range scan however large the delivery history grows.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_updated')
    .on('webhook_deliveries')
    .columns(['updated_at', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_updated').execute();
}
