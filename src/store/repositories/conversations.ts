import type { CompiledQuery, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { TransactionRunner } from '../group-commit.js';
import type { ConversationEventsTable, ConversationsTable, Database, TranscriptSegmentsTable } from '../schema.js';
import { newestFirstKeys } from './list-pages.js';
import { type Cursor, type Db, deleteOwned, groupBy, pageAfter, updateOwned } from './shared.js';

export type ConversationRow = Selectable<ConversationsTable>;
export type SegmentRow = Selectable<TranscriptSegmentsTable>;
export type EventRow = Selectable<ConversationEventsTable>;
export type ConversationWithFolder = ConversationRow & { folder_name: string | null };

/** The columns a developer-API read shows (SPEC §2.1); lists read only these, not the stored text. */
const VIEW_COLUMNS = [
  'c.id',
  'c.created_at',
  'c.started_at',
  'c.finished_at',
  'c.title',
  'c.overview',
  'c.category',
  'c.emoji',
  'c.language',
  'c.source',
  'c.folder_id',
  'c.starred',
  'c.status',
  'c.discarded',
  'c.geolocation',
] as const;
export type ConversationView = Pick<
  ConversationRow,
  (typeof VIEW_COLUMNS)[number] extends `c.${infer C}` ? C & keyof ConversationRow : never
> & {
  folder_name: string | null;
};

export interface ConversationListFilter {
  statuses?: readonly string[];
  includeDiscarded: boolean;
  startDate?: number;
  endDate?: number;
  categories?: readonly string[];
  folderId?: string;
  starred?: boolean;
  limit: number;
  offset: number;
}

export class ConversationsRepository {
  private readonly segmentInserts: SegmentInserts;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly grouped: TransactionRunner = (work) => db.transaction().execute(work),
  ) {
    this.segmentInserts = new SegmentInserts(db);
  }

  async insert(
    row: Insertable<ConversationsTable>,
    segments: readonly Insertable<TranscriptSegmentsTable>[],
    tx: Db = this.db,
  ): Promise<void> {
    await tx.insertInto('conversations').values(row).execute();
    await this.segmentInserts.insert(tx, segments);
  }

  async findById(userId: string, id: string): Promise<ConversationWithFolder | undefined> {
    return this.selectWithFolder(this.db).where('c.user_id', '=', userId).where('c.id', '=', id).executeTakeFirst();
  }

  async findByClientSession(userId: string, clientSessionId: string): Promise<ConversationRow | undefined> {
    return this.db
      .selectFrom('conversations')
      .selectAll()
      .where('user_id', '=', userId)
      .where('client_session_id', '=', clientSessionId)
      .executeTakeFirst();
  }

  /** Whole rows of a list page (integration reads, which show more than the developer view). */
  async list(userId: string, filter: ConversationListFilter): Promise<ConversationWithFolder[]> {
    return this.pageRows(userId, filter).selectAll('c').select('f.name as folder_name').execute();
  }

  /** The developer-API page: only the shown columns, never the stored text. */
  async listViews(userId: string, filter: ConversationListFilter): Promise<ConversationView[]> {
    return this.listQuery(userId, filter).execute();
  }

  /** The developer list query, exposed so tests can check its plan. */
  listQuery(userId: string, filter: ConversationListFilter) {
    return this.pageRows(userId, filter).select([...VIEW_COLUMNS, 'f.name as folder_name']);
  }

  /** The ids of a list page, from covering indexes only (list-pages.ts); exposed so tests can check its plan. */
  pageKeysQuery(userId: string, filter: ConversationListFilter) {
    return newestFirstKeys(filter.categories, (category) => this.pageKeysArm(userId, filter, category), filter);
  }

  /** A page's rows, fetched by the ids of its keys. */
  private pageRows(userId: string, filter: ConversationListFilter) {
    return (
      this.db
        .selectFrom(this.pageKeysQuery(userId, filter).as('p'))
        // A cross join keeps SQLite on the page's keys first, each row then found by its primary key.
        .crossJoin('conversations as c')
        .whereRef('c.id', '=', 'p.id')
        .leftJoin('folders as f', (join) => join.onRef('f.id', '=', 'c.folder_id').onRef('f.user_id', '=', 'c.user_id'))
        .where('c.user_id', '=', userId)
        .orderBy('c.created_at', 'desc')
        .orderBy('c.id', 'desc')
    );
  }

  /** The keys of the filtered conversations; `category`: one value of a category list, merged with the others. */
  private pageKeysArm(userId: string, filter: ConversationListFilter, category: string | undefined) {
    let query = this.db
      .selectFrom('conversations as c')
      .select(['c.id', 'c.created_at'])
      .where('c.user_id', '=', userId);
    if (filter.statuses && filter.statuses.length > 0) query = query.where('c.status', 'in', [...filter.statuses]);
    if (!filter.includeDiscarded) query = query.where('c.discarded', '=', 0);
    if (filter.startDate !== undefined) query = query.where('c.created_at', '>=', filter.startDate);
    if (filter.endDate !== undefined) query = query.where('c.created_at', '<=', filter.endDate);
    if (category !== undefined) query = query.where('c.category', '=', category);
    else if (filter.categories && filter.categories.length > 0)
      query = query.where('c.category', 'in', [...filter.categories]);
    if (filter.folderId !== undefined) query = query.where('c.folder_id', '=', filter.folderId);
    if (filter.starred !== undefined) query = query.where('c.starred', '=', filter.starred ? 1 : 0);
    return query;
  }

  /** Segments of several conversations in one query (no N+1), grouped by conversation id. */
  async segmentsFor(userId: string, conversationIds: readonly string[]): Promise<Map<string, SegmentRow[]>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('transcript_segments')
      .selectAll()
      .where('user_id', '=', userId)
      .where('conversation_id', 'in', [...conversationIds])
      .orderBy('conversation_id')
      .orderBy('seq')
      .execute();
    return groupBy(rows, (row) => row.conversation_id);
  }

  async eventsFor(userId: string, conversationIds: readonly string[]): Promise<Map<string, EventRow[]>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('conversation_events')
      .selectAll()
      .where('user_id', '=', userId)
      .where('conversation_id', 'in', [...conversationIds])
      .orderBy('conversation_id')
      .orderBy('seq')
      .execute();
    return groupBy(rows, (row) => row.conversation_id);
  }

  async update(
    userId: string,
    id: string,
    patch: Partial<Omit<ConversationRow, 'id' | 'user_id'>>,
    tx: Db = this.db,
  ): Promise<boolean> {
    return updateOwned(tx.updateTable('conversations').set(patch), userId, id);
  }

  async replaceEvents(
    userId: string,
    conversationId: string,
    events: readonly Insertable<ConversationEventsTable>[],
    tx: Db = this.db,
  ): Promise<void> {
    await tx
      .deleteFrom('conversation_events')
      .where('user_id', '=', userId)
      .where('conversation_id', '=', conversationId)
      .execute();
    if (events.length > 0)
      await tx
        .insertInto('conversation_events')
        .values([...events])
        .execute();
  }

  async appendSegments(segments: readonly Insertable<TranscriptSegmentsTable>[], tx: Db = this.db): Promise<void> {
    await this.segmentInserts.insert(tx, segments);
  }

  /** Permanent delete; segments, events and action items go with it (ON DELETE CASCADE). */
  async delete(userId: string, id: string, tx: Db = this.db): Promise<boolean> {
    return deleteOwned(tx.deleteFrom('conversations'), userId, id);
  }

  /** Every conversation (any status) after the (created_at, id) cursor, oldest first (export). */
  async pageAfter(userId: string, after: Cursor | null, limit: number): Promise<ConversationWithFolder[]> {
    return pageAfter(this.selectWithFolder(this.db).where('c.user_id', '=', userId), after, limit, 'c');
  }

  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * A transaction for a write that stands alone (a new conversation and its job): on SQLite it may
   * share its commit with other requests' (group commit), and resolves only once that commit is done.
   * `work` must use only `tx`.
   */
  ingestTransaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.grouped(work);
  }

  private selectWithFolder(db: Db) {
    return db
      .selectFrom('conversations as c')
      .leftJoin('folders as f', (join) => join.onRef('f.id', '=', 'c.folder_id').onRef('f.user_id', '=', 'c.user_id'))
      .selectAll('c')
      .select('f.name as folder_name');
  }
}

const SEGMENT_COLUMNS = [
  'id',
  'user_id',
  'conversation_id',
  'seq',
  'text',
  'speaker',
  'speaker_id',
  'is_user',
  'person_id',
  'start_sec',
  'end_sec',
] as const satisfies readonly (keyof TranscriptSegmentsTable)[];
// Stay under SQLite's bound-parameter limit (11 columns per row).
const SEGMENT_BATCH = 500;

/**
 * Segment inserts come in batches of tens to hundreds of rows. Building and compiling such a statement
 * costs more than running it, so the SQL is compiled once per batch size and reused with fresh values
 * (placed in SEGMENT_COLUMNS order, row after row, as the compiled statement expects).
 */
class SegmentInserts {
  private readonly compiled = new Map<number, CompiledQuery>();

  constructor(private readonly db: Kysely<Database>) {}

  async insert(tx: Db, segments: readonly Insertable<TranscriptSegmentsTable>[]): Promise<void> {
    for (let i = 0; i < segments.length; i += SEGMENT_BATCH) {
      const rows = Math.min(SEGMENT_BATCH, segments.length - i);
      // A flat parameter array filled in place (this runs for every ingested segment).
      const parameters: unknown[] = new Array(rows * SEGMENT_COLUMNS.length);
      let p = 0;
      for (let r = i; r < i + rows; r++) {
        const row = segments[r];
        for (const column of SEGMENT_COLUMNS) parameters[p++] = row[column];
      }
      await tx.executeQuery({ ...this.statement(rows), parameters });
    }
  }

  private statement(rows: number): CompiledQuery {
    let compiled = this.compiled.get(rows);
    if (!compiled) {
      const blank = Object.fromEntries(
        SEGMENT_COLUMNS.map((column) => [column, null]),
      ) as unknown as Insertable<TranscriptSegmentsTable>;
      compiled = this.db
        .insertInto('transcript_segments')
        .values(Array.from({ length: rows }, () => blank))
        .compile();
      this.compiled.set(rows, compiled);
    }
    return compiled;
  }
}
