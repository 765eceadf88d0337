import { createHash, randomUUID } from 'node:crypto';
import type { Clock } from '../../context-types.js';
import type { ImportedTable, ImportsRepository } from '../../store/repositories/imports.js';
import { CONVERSATION_CATEGORIES, MEMORY_CATEGORIES } from '../categories.js';
import { GOAL_STATUSES } from '../goals/views.js';

/** What became of one record. */
export type ImportOutcome = 'imported' | 'skipped' | 'ignored';

type Json = Record<string, unknown>;

const TABLE_OF: Record<string, ImportedTable> = {
  folder: 'folders',
  conversation: 'conversations',
  memory: 'memories',
  action_item: 'action_items',
  goal: 'goals',
};

const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const optStr = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;
const flag = (value: unknown): number => (value === true ? 1 : 0);
const list = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null) : [];

/** An ISO date (or epoch milliseconds) as epoch milliseconds; null when absent or unreadable. */
function ms(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string') return null;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

/**
 * Restores records of Keepsake's NDJSON export, or of the Omi developer API's read shapes (the same
 * shapes), into one user's account (docs/cli.md "keepsake import"). Ids are kept; an id another user
 * already holds (the same export imported twice on one server) is replaced by one derived from the user
 * and the source id, so every rerun maps it the same way and finds what it wrote before: nothing is
 * imported twice, and an interrupted import resumes by running it again.
 */
export class ImportService {
  constructor(
    private readonly repo: ImportsRepository,
    private readonly clock: Clock,
  ) {}

  async importRecord(userId: string, record: Json): Promise<ImportOutcome> {
    const table = TABLE_OF[str(record.type)];
    if (!table || typeof record.id !== 'string' || record.id === '') return 'ignored';
    const target = await this.resolve(table, userId, record.id);
    if (target.exists) return 'skipped';
    const id = target.id;
    switch (table) {
      case 'folders':
        await this.folder(userId, id, record);
        break;
      case 'conversations':
        await this.conversation(userId, id, record);
        break;
      case 'memories':
        await this.memory(userId, id, record);
        break;
      case 'action_items':
        await this.actionItem(userId, id, record);
        break;
      case 'goals':
        await this.goal(userId, id, record);
        break;
    }
    return 'imported';
  }

  /** The id a source record has in this account, and whether it is already there. */
  private async resolve(
    table: ImportedTable,
    userId: string,
    sourceId: string,
  ): Promise<{ id: string; exists: boolean }> {
    const first = await this.repo.owner(table, userId, sourceId);
    if (first !== 'other_user') return { id: sourceId, exists: first === 'this_user' };
    const derived = derivedId(userId, table, sourceId);
    const second = await this.repo.owner(table, userId, derived);
    if (second === 'other_user') throw new Error(`${table} id ${sourceId} cannot be mapped`);
    return { id: derived, exists: second === 'this_user' };
  }

  /** A reference to a row that may have been imported (a conversation, a folder), or null. */
  private async reference(table: ImportedTable, userId: string, sourceId: unknown): Promise<string | null> {
    if (typeof sourceId !== 'string' || sourceId === '') return null;
    const target = await this.resolve(table, userId, sourceId);
    return target.exists ? target.id : null;
  }

  private times(record: Json): { created_at: number; updated_at: number } {
    const created = ms(record.created_at) ?? this.clock.now();
    return { created_at: created, updated_at: ms(record.updated_at) ?? created };
  }

  private async folder(userId: string, id: string, r: Json): Promise<void> {
    await this.repo.folder({
      id,
      user_id: userId,
      name: str(r.name, 'Imported'),
      description: optStr(r.description),
      color: str(r.color, '#6B7280'),
      icon: str(r.icon, '📁'),
      position: num(r.order ?? r.position, 0),
      ...this.times(r),
    });
  }

  private async conversation(userId: string, id: string, r: Json): Promise<void> {
    const structured = (typeof r.structured === 'object' && r.structured !== null ? r.structured : {}) as Json;
    const category = str(structured.category, 'other');
    const status = r.status === 'failed' ? 'failed' : 'completed';
    const times = this.times(r);
    const segments = list(r.transcript_segments).map((s, seq) => {
      const start = num(s.start, 0);
      return {
        id: randomUUID(),
        user_id: userId,
        conversation_id: id,
        seq,
        text: str(s.text),
        speaker: str(s.speaker, `SPEAKER_${String(num(s.speaker_id, 0)).padStart(2, '0')}`),
        speaker_id: num(s.speaker_id, 0),
        is_user: flag(s.is_user),
        person_id: null,
        start_sec: start,
        end_sec: num(s.end, start),
      };
    });
    const events = list(structured.events).flatMap((e, seq) => {
      const start = ms(e.start);
      if (start === null) return [];
      const event = { id: randomUUID(), user_id: userId, conversation_id: id, seq, title: str(e.title) };
      return [
        {
          ...event,
          description: str(e.description),
          start_at: start,
          duration: num(e.duration, 30),
          created: flag(e.created),
        },
      ];
    });
    const row = {
      id,
      user_id: userId,
      ...times,
      started_at: ms(r.started_at),
      finished_at: ms(r.finished_at),
      status,
      discarded: flag(r.discarded),
      starred: flag(r.starred),
      folder_id: await this.reference('folders', userId, r.folder_id),
      title: str(structured.title),
      overview: str(structured.overview),
      category: (CONVERSATION_CATEGORIES as readonly string[]).includes(category) ? category : 'other',
      emoji: str(structured.emoji, '🧠'),
      language: optStr(r.language),
      source: optStr(r.source),
      text_source: optStr(r.text_source),
      text_source_spec: optStr(r.text_source_spec),
      text: optStr(r.text),
      geolocation: typeof r.geolocation === 'object' && r.geolocation !== null ? JSON.stringify(r.geolocation) : null,
      // The keep-or-discard decision the export carries comes back as it was; anything else is none.
      relevance: keptDecision(r.relevance),
      processing: JSON.stringify({ imported: true }),
      app_id: null,
      client_session_id: null,
      revision: 0,
    };
    await this.repo.conversation(row, segments, events);
  }

  private async memory(userId: string, id: string, r: Json): Promise<void> {
    const category = str(r.category, 'interesting');
    const source = str(r.source, 'manual');
    const tags = Array.isArray(r.tags) ? r.tags.filter((t) => typeof t === 'string') : [];
    await this.repo.memory({
      id,
      user_id: userId,
      content: str(r.content),
      category: (MEMORY_CATEGORIES as readonly string[]).includes(category) ? category : 'interesting',
      visibility: r.visibility === 'public' ? 'public' : 'private',
      tags: JSON.stringify(tags),
      origin: source === 'conversation' || source === 'app' ? source : 'manual',
      conversation_id: await this.reference('conversations', userId, r.conversation_id),
      app_id: null,
      manually_added: flag(r.manually_added),
      reviewed: flag(r.reviewed),
      user_review: typeof r.user_review === 'boolean' ? flag(r.user_review) : null,
      edited: flag(r.edited),
      ...this.times(r),
    });
  }

  private async actionItem(userId: string, id: string, r: Json): Promise<void> {
    await this.repo.actionItem({
      id,
      user_id: userId,
      conversation_id: await this.reference('conversations', userId, r.conversation_id),
      description: str(r.description),
      completed: flag(r.completed),
      completed_at: ms(r.completed_at),
      due_at: ms(r.due_at),
      ...this.times(r),
    });
  }

  private async goal(userId: string, id: string, r: Json): Promise<void> {
    const times = this.times(r);
    const status = str(r.status);
    const active = status ? status === 'active' : r.is_active !== false;
    // One point a day (the table's key): a later point of the same day wins.
    const byDay = new Map<
      string,
      { goal_id: string; user_id: string; day: string; value: number; recorded_at: number }
    >();
    for (const point of list(r.history)) {
      const day = str(point.date);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) continue;
      const recordedAt = ms(point.recorded_at) ?? times.updated_at;
      byDay.set(day, { goal_id: id, user_id: userId, day, value: num(point.value, 0), recorded_at: recordedAt });
    }
    const history = [...byDay.values()];
    await this.repo.goal(
      {
        id,
        user_id: userId,
        title: str(r.title, 'Imported goal'),
        goal_type: str(r.goal_type, 'scale'),
        target_value: num(r.target_value, 0),
        current_value: num(r.current_value, 0),
        min_value: num(r.min_value, 0),
        max_value: num(r.max_value, num(r.target_value, 10)),
        unit: optStr(r.unit),
        is_active: active ? 1 : 0,
        ...times,
        ended_at: active ? null : times.updated_at,
        goal_id: str(r.goal_id) || id,
        status: (GOAL_STATUSES as readonly string[]).includes(status) ? status : active ? 'active' : 'archived',
        source: str(r.source, 'user'),
        desired_outcome: optStr(r.desired_outcome) ?? str(r.title, 'Imported goal'),
        why_it_matters: optStr(r.why_it_matters),
        success_criteria: JSON.stringify(
          Array.isArray(r.success_criteria) ? r.success_criteria.filter((c) => typeof c === 'string') : [],
        ),
        horizon_at: ms(r.horizon_at),
      },
      history,
    );
  }
}

/** A stable id for a source id another user already holds: the same on every rerun for this user. */
function derivedId(userId: string, table: string, sourceId: string): string {
  const hex = createHash('sha256').update(`${userId}\u0000${table}\u0000${sourceId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** An exported `relevance` ({verdict: 'keep' | 'discard', …}) as stored, or null when it is not one. */
function keptDecision(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const verdict = (value as { verdict?: unknown }).verdict;
  return verdict === 'keep' || verdict === 'discard' ? JSON.stringify(value) : null;
}
