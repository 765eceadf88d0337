import { randomUUID } from 'node:crypto';
import type { Clock } from '../../context-types.js';
import { AppError, Detail } from '../../http/errors.js';
import type { PeopleDirectory, PersonRow } from '../../store/repositories/people.js';

export interface PersonView {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

const toView = (row: PersonRow): PersonView => ({
  id: row.id,
  name: row.name,
  created_at: new Date(Number(row.created_at)).toISOString(),
  updated_at: new Date(Number(row.updated_at)).toISOString(),
});

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new AppError(422, 'name cannot be empty');
  return trimmed;
}

/** Known people: the names transcripts show for speakers linked to them (SPEC §2.1 speaker_name). */
export class PeopleService {
  constructor(
    private readonly people: PeopleDirectory,
    private readonly clock: Clock,
  ) {}

  async list(userId: string): Promise<PersonView[]> {
    return (await this.people.list(userId)).map(toView);
  }

  async create(userId: string, name: string): Promise<PersonView> {
    const now = this.clock.now();
    const row: PersonRow = { id: randomUUID(), user_id: userId, name: cleanName(name), created_at: now, updated_at: now };
    await this.people.insert(row);
    return toView(row);
  }

  async rename(userId: string, id: string, name: string): Promise<void> {
    if (!(await this.people.rename(userId, id, cleanName(name), this.clock.now())))
      throw new AppError(404, Detail.personNotFound);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.people.delete(userId, id))) throw new AppError(404, Detail.personNotFound);
  }
}
