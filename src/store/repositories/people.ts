import type { Kysely, Selectable } from 'kysely';
import type { Database, PeopleTable } from '../schema.js';

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
}
