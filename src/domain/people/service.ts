import { randomUUID } from 'node:crypto';
import type { Clock } from '../../context-types.js';
import { AppError, Detail, invalidInput } from '../../errors.js';
import type { PeopleRepository, PersonRow } from '../../store/repositories/people.js';

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
  if (trimmed === '') throw invalidInput(['body', 'name'], Detail.personNameEmpty);
  return trimmed;
}

/** A person with how many voice vectors the matcher holds for them (SPEC §6.1). */
export interface PersonVoiceView extends PersonView {
  voice_vectors: number;
}

/** Reads the number of stored voice vectors per person (the voice repository). */
export interface VoiceCounts {
  vectorCounts(userId: string): Promise<Map<string, number>>;
}

/** Known people: the names transcripts show for speakers linked to them (SPEC §2.1 speaker_name). */
export class PeopleService {
  constructor(
    private readonly people: PeopleRepository,
    private readonly clock: Clock,
    private readonly voices: VoiceCounts | null = null,
  ) {}

  async list(userId: string): Promise<PersonView[]> {
    return (await this.people.list(userId)).map(toView);
  }

  /** The REST list (routes/people.ts): each person with their voice vector count. */
  async listWithVoices(userId: string): Promise<PersonVoiceView[]> {
    const [rows, counts] = await Promise.all([
      this.people.list(userId),
      this.voices ? this.voices.vectorCounts(userId) : new Map<string, number>(),
    ]);
    return rows.map((row) => ({ ...toView(row), voice_vectors: counts.get(row.id) ?? 0 }));
  }

  async get(userId: string, id: string): Promise<PersonVoiceView> {
    const row = await this.people.find(userId, id);
    if (!row) throw new AppError(404, Detail.personNotFound);
    const counts = this.voices ? await this.voices.vectorCounts(userId) : new Map<string, number>();
    return { ...toView(row), voice_vectors: counts.get(id) ?? 0 };
  }

  async create(userId: string, name: string): Promise<PersonView> {
    const now = this.clock.now();
    const row: PersonRow = {
      id: randomUUID(),
      user_id: userId,
      name: cleanName(name),
      created_at: now,
      updated_at: now,
    };
    await this.people.insert(row);
    return toView(row);
  }

  async rename(userId: string, id: string, name: string): Promise<void> {
    if (!(await this.people.rename(userId, id, cleanName(name), this.clock.now())))
      throw new AppError(404, Detail.personNotFound);
  }

  /** Also deletes the person's voice vectors and samples and unlinks their segments (one transaction). */
  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.people.delete(userId, id))) throw new AppError(404, Detail.personNotFound);
  }
}
