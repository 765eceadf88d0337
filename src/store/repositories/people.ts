import type { Kysely, Selectable } from 'kysely';
import type { Database, PeopleTable } from '../schema.js';
import './voice-tables.js';
import { deleteOwned, updateOwned } from './shared.js';

export type PersonRow = Selectable<PeopleTable>;

export class PeopleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Names of the given people that belong to the user (speaker_name resolution). */
  async namesByIds(userId: string, personIds: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    if (personIds.length === 0) return names;
    const rows = await this.db
      .selectFrom('people')
      .select(['id', 'name'])
      .where('user_id', '=', userId)
      .where('id', 'in', [...personIds])
      .execute();
    for (const row of rows) names.set(row.id, row.name);
    return names;
  }

  async list(userId: string): Promise<PersonRow[]> {
    return this.db.selectFrom('people').selectAll().where('user_id', '=', userId).orderBy('name').limit(1000).execute();
  }

  async insert(row: PersonRow): Promise<void> {
    await this.db.insertInto('people').values(row).execute();
  }

  async rename(userId: string, id: string, name: string, now: number): Promise<boolean> {
    return updateOwned(this.db.updateTable('people').set({ name, updated_at: now }), userId, id);
  }

  /** Deletes the person with their voice vectors and samples, and unlinks their segments; one transaction. */
  async delete(userId: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      if (!(await deleteOwned(tx.deleteFrom('people'), userId, id))) return false;
      await tx.deleteFrom('voice_embeddings').where('user_id', '=', userId).where('person_id', '=', id).execute();
      await tx.deleteFrom('speaker_samples').where('user_id', '=', userId).where('person_id', '=', id).execute();
      await tx
        .updateTable('transcript_segments')
        .set({ person_id: null })
        .where('user_id', '=', userId)
        .where('person_id', '=', id)
        .execute();
      return true;
    });
  }

  async find(userId: string, personId: string): Promise<PersonRow | undefined> {
    return this.db
      .selectFrom('people')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', personId)
      .executeTakeFirst();
  }
}
