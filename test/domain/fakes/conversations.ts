import type { Transaction } from 'kysely';
import type {
  ConversationRow,
  ConversationsRepository,
  ConversationWithFolder,
  SegmentRow,
} from '../../../src/store/repositories/conversations.js';
import type { UserRow, UsersRepository } from '../../../src/store/repositories/users.js';
import type { Database } from '../../../src/store/schema.js';
import { asPort, NO_TX } from './port.js';

type Used = 'findById' | 'segmentsFor' | 'update' | 'replaceEvents' | 'transaction';

/** A completed conversation from `text`, at revision 1 (tests override what they need). */
export function conversationRow(userId: string, id: string, at: number, text: string): ConversationRow {
  return {
    id,
    user_id: userId,
    created_at: at,
    updated_at: at,
    started_at: at,
    finished_at: at,
    status: 'completed',
    discarded: 0,
    starred: 0,
    folder_id: null,
    title: '',
    overview: '',
    category: 'other',
    emoji: '',
    language: 'en',
    source: 'external_integration',
    text_source: null,
    text_source_spec: null,
    text,
    geolocation: null,
    relevance: null,
    processing: null,
    app_id: null,
    client_session_id: null,
    revision: 1,
  };
}

/** Conversations in memory (no segments: text conversations), for the processing pipeline's rules. */
export class FakeConversations implements Pick<ConversationsRepository, Used> {
  readonly rows: ConversationRow[] = [];

  get port(): ConversationsRepository {
    return asPort<ConversationsRepository>(this);
  }

  async findById(userId: string, id: string): Promise<ConversationWithFolder | undefined> {
    const row = this.rows.find((c) => c.user_id === userId && c.id === id);
    return row && { ...row, folder_name: null };
  }

  async segmentsFor(): Promise<Map<string, SegmentRow[]>> {
    return new Map();
  }

  async update(userId: string, id: string, patch: Partial<Omit<ConversationRow, 'id' | 'user_id'>>): Promise<boolean> {
    const row = this.rows.find((c) => c.user_id === userId && c.id === id);
    if (row) Object.assign(row, patch);
    return row !== undefined;
  }

  async replaceEvents(): Promise<void> {}

  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return work(NO_TX);
  }
}

/** Users in memory: the pipeline reads a user's name and timezone. */
export class FakeUsers implements Pick<UsersRepository, 'findById'> {
  readonly rows: UserRow[] = [];

  get port(): UsersRepository {
    return asPort<UsersRepository>(this);
  }

  add(id: string, name: string, timezone = 'UTC'): UserRow {
    const row = { id, name, email: null, timezone, settings: '{}', created_at: 0, updated_at: 0 };
    this.rows.push(row);
    return row;
  }

  async findById(userId: string): Promise<UserRow | undefined> {
    return this.rows.find((u) => u.id === userId);
  }
}
