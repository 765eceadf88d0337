import { type Kysely, sql } from 'kysely';

// Goals carry the reference's outcome fields: a goal may be a plain outcome (no target), has a stable
// goal_id (a client's retry of a create with the same goal_id finds it), a status and a source.
// Existing goals get their title as the desired outcome, their id as goal_id, and `archived` when a newer
// goal deactivated them.
export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite adds one column per statement.
  const goals = () => db.schema.alterTable('goals');
  await goals().addColumn('goal_id', 'text').execute();
  await goals()
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .execute();
  await goals()
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('user'))
    .execute();
  await goals().addColumn('desired_outcome', 'text').execute();
  await goals().addColumn('why_it_matters', 'text').execute();
  await goals()
    .addColumn('success_criteria', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await goals().addColumn('horizon_at', 'bigint').execute();
  await sql`update goals set goal_id = id, desired_outcome = title`.execute(db);
  await sql`update goals set status = 'archived' where is_active = 0`.execute(db);
  await db.schema.createIndex('goals_user_goal_id').unique().on('goals').columns(['user_id', 'goal_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('goals_user_goal_id').execute();
  for (const column of [
    'goal_id',
    'status',
    'source',
    'desired_outcome',
    'why_it_matters',
    'success_criteria',
    'horizon_at',
  ]) {
    await db.schema.alterTable('goals').dropColumn(column).execute();
  }
}
