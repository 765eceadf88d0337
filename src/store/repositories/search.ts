import { type Expression, type Kysely, type QueryCreator, sql } from 'kysely';
import type { Clock } from '../../context-types.js';
import type { DialectName } from '../db.js';
import { PreparedQuery } from '../prepared.js';
import type { Database } from '../schema.js';
import { type MatchMode, type SearchBackend, type SearchHit, searchBackend, searchTerms } from '../search/index.js';
import { type MemoryEmbeddingsTable, refreshedEmbedding } from '../search/tables.js';
import { MemoryTermStats } from '../search/term-stats.js';
import type { ConversationListFilter, ConversationRow, ConversationWithFolder } from './conversations.js';
import type { MemoryRow } from './memories.js';

export interface MemorySearchFilter {
  /** default `all`: every term must occur */
  mode?: MatchMode;
  categories?: readonly string[];
  limit: number;
  offset: number;
}

/** The conversation list's filters a search takes (it always shows completed, kept conversations). */
export type ConversationSearchFilter = Omit<ConversationListFilter, 'statuses' | 'includeDiscarded'>;

export type Scored<T> = T & { score: number };

/** The integration search's filters: discarded conversations are shown unless excluded. */
export interface IntegrationSearchFilter {
  includeDiscarded: boolean;
  startDate?: number;
  endDate?: number;
  limit: number;
  offset: number;
}

/** Ranked full-text search and stored embeddings; the dialect's backend is chosen once, here. */
export class SearchRepository {
  private readonly backend: SearchBackend;
  /** With FTS5 only: bm25's term weights, to spot terms it gives no weight (see MemoryTermStats). */
  private readonly termStats: MemoryTermStats | null;
  /** The FTS5 memory search without a category filter, compiled once (its match is one parameter). */
  private plainMemoryPage: PreparedQuery<Scored<MemoryRow>, 'userId' | 'match' | 'limit' | 'offset'> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    dialect: DialectName,
    clock: Clock,
  ) {
    this.backend = searchBackend(dialect);
    this.termStats = this.backend.memoryMatch ? new MemoryTermStats(db, clock) : null;
  }

  /** The words of a query the full-text index can match (letters, digits, marks; bounded). */
  terms(query: string): string[] {
    return searchTerms(query);
  }

  /**
   * The user's visible memories matching the terms, best first. With FTS5, terms in at least half of all
   * memories and in 1,000 of them (bm25 weighs each at 1e-6) only filter: the rarer terms rank, and a
   * query made only of such terms lists its matches newest first, score 0 (see MemoryTermStats).
   */
  async memories(userId: string, terms: readonly string[], filter: MemorySearchFilter): Promise<Scored<MemoryRow>[]> {
    const mode = filter.mode ?? 'all';
    const fts = this.backend.memoryMatch;
    if (fts && this.termStats) {
      const { ranked, common } =
        mode === 'all' ? await this.termStats.partition(terms) : { ranked: terms, common: [] as string[] };
      if (ranked.length === 0) return this.newestMemoryPage(userId, terms, filter).execute();
      if (common.length > 0) return this.memoryPage(userId, (qc) => fts.rankedBy(qc, ranked, terms), filter).execute();
      if (!filter.categories?.length) {
        this.plainMemoryPage ??= new PreparedQuery(this.db, ['userId', 'match', 'limit', 'offset'], (v) =>
          this.memoryPage(v.userId, (qc) => fts.hits(qc, v.match), { limit: v.limit, offset: v.offset }),
        );
        const { limit, offset } = filter;
        return this.plainMemoryPage.execute({ userId, match: fts.match(terms, mode), limit, offset });
      }
    }
    return this.memoryPage(userId, (qc) => this.backend.memoryHits(qc, userId, terms, mode), filter).execute();
  }

  /**
   * FTS5: matches of every term in stored order, newest first, for a query bm25 cannot rank. Exposed so
   * tests can check its plan reads one page backwards through the index instead of sorting every match.
   */
  newestMemoryPage(userId: string, terms: readonly string[], filter: Omit<MemorySearchFilter, 'mode'>) {
    const fts = this.backend.memoryMatch;
    if (!fts) throw new Error('newest-first memory search needs FTS5');
    return this.memoryPage(userId, (qc) => fts.newest(qc, fts.match(terms, 'all')), filter, 'stored');
  }

  /**
   * The user's visible hits as memory rows: best score first, or in stored order (`doc_id`, newest
   * first), which FTS5 reads backwards through its index so a page stops after its own rows.
   */
  private memoryPage(
    userId: string,
    hits: (qc: QueryCreator<Database>) => Expression<SearchHit>,
    filter: Pick<MemorySearchFilter, 'categories' | 'limit' | 'offset'>,
    order: 'score' | 'stored' = 'score',
  ) {
    let query = this.db
      .with('hit', hits)
      .selectFrom('hit')
      .innerJoin('memories as m', 'm.id', 'hit.id')
      .selectAll('m')
      .select('hit.score')
      .where('m.user_id', '=', userId)
      .where((eb) => eb.or([eb('m.user_review', 'is', null), eb('m.user_review', '<>', 0)]));
    if (filter.categories && filter.categories.length > 0)
      query = query.where('m.category', 'in', [...filter.categories]);
    query =
      order === 'stored'
        ? query.orderBy(sql`hit.doc_id`, 'desc')
        : query.orderBy('hit.score', 'desc').orderBy('m.created_at', 'desc').orderBy('m.id', 'desc');
    return query.limit(filter.limit).offset(filter.offset);
  }

  /** Completed, non-discarded conversations holding every term (title, overview, transcript), best first. */
  async conversations(
    userId: string,
    terms: readonly string[],
    filter: ConversationSearchFilter,
  ): Promise<Scored<ConversationWithFolder>[]> {
    let query = this.keptConversations(userId, (qc) => this.backend.conversationHits(qc, userId, terms, 'all'));
    if (filter.startDate !== undefined) query = query.where('c.created_at', '>=', filter.startDate);
    if (filter.endDate !== undefined) query = query.where('c.created_at', '<=', filter.endDate);
    if (filter.categories && filter.categories.length > 0)
      query = query.where('c.category', 'in', [...filter.categories]);
    if (filter.folderId !== undefined) query = query.where('c.folder_id', '=', filter.folderId);
    if (filter.starred !== undefined) query = query.where('c.starred', '=', filter.starred ? 1 : 0);
    return query
      .orderBy('hit.score', 'desc')
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
  }

  /**
   * Candidates for an answer (docs/developer-api.md, ask): completed, kept conversations that happened in
   * the span (started, else created), holding any of the terms, best first; without terms, newest first.
   */
  async answerCandidates(
    userId: string,
    terms: readonly string[],
    span: { from: number; to: number } | null,
    limit: number,
  ): Promise<Scored<ConversationWithFolder>[]> {
    const when = sql<number>`coalesce(c.started_at, c.created_at)`;
    let query = this.keptConversations(userId, (qc) =>
      terms.length > 0
        ? this.backend.conversationHits(qc, userId, terms, 'any')
        : qc
            .selectFrom('conversations as x')
            .where('x.user_id', '=', userId)
            .select(['x.id as id', sql<number>`0`.as('score')]),
    );
    if (span) query = query.where(when, '>=', span.from).where(when, '<=', span.to);
    return query.orderBy('hit.score', 'desc').orderBy(when, 'desc').orderBy('c.id', 'desc').limit(limit).execute();
  }

  /** The user's completed, kept conversations among `ids` (ranked elsewhere), score 0, in no order. */
  async keptConversationsByIds(userId: string, ids: readonly string[]): Promise<Scored<ConversationWithFolder>[]> {
    if (ids.length === 0) return [];
    return this.keptConversations(userId, (qc) =>
      qc
        .selectFrom('conversations as x')
        .where('x.user_id', '=', userId)
        .where('x.id', 'in', [...ids])
        .select(['x.id as id', sql<number>`0`.as('score')]),
    ).execute();
  }

  /** The user's completed, non-discarded conversations among the hits, with their folder name and score. */
  private keptConversations(userId: string, hits: (qc: QueryCreator<Database>) => Expression<SearchHit>) {
    return this.db
      .with('hit', hits)
      .selectFrom('hit')
      .innerJoin('conversations as c', 'c.id', 'hit.id')
      .leftJoin('folders as f', (join) => join.onRef('f.id', '=', 'c.folder_id').onRef('f.user_id', '=', 'c.user_id'))
      .selectAll('c')
      .select(['f.name as folder_name', 'hit.score'])
      .where('c.user_id', '=', userId)
      .where('c.status', '=', 'completed')
      .where('c.discarded', '=', 0);
  }

  /**
   * The integration search: completed conversations holding every term (all of them without terms), newest
   * first as the reference orders them, with the number of matches for its page count.
   */
  async integrationConversations(
    userId: string,
    terms: readonly string[],
    filter: IntegrationSearchFilter,
  ): Promise<{ rows: ConversationRow[]; total: number }> {
    let query = this.db
      .selectFrom('conversations as c')
      .where('c.user_id', '=', userId)
      .where('c.status', '=', 'completed');
    if (terms.length > 0) {
      const hits = this.db
        .with('hit', (qc) => this.backend.conversationHits(qc, userId, terms, 'all'))
        .selectFrom('hit')
        .select('hit.id');
      query = query.where('c.id', 'in', hits);
    }
    if (!filter.includeDiscarded) query = query.where('c.discarded', '=', 0);
    if (filter.startDate !== undefined) query = query.where('c.created_at', '>=', filter.startDate);
    if (filter.endDate !== undefined) query = query.where('c.created_at', '<=', filter.endDate);
    const counted = await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    const rows = await query
      .selectAll('c')
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    return { rows, total: Number(counted?.n ?? 0) };
  }

  /** Visible memories with no embedding for `model`, or one older than the memory's last change. */
  async memoriesNeedingEmbedding(
    userId: string,
    model: string,
    limit: number,
  ): Promise<Array<Pick<MemoryRow, 'id' | 'content' | 'updated_at'>>> {
    return this.db
      .selectFrom('memories as m')
      .leftJoin('memory_embeddings as e', (join) => join.onRef('e.memory_id', '=', 'm.id').on('e.model', '=', model))
      .select(['m.id', 'm.content', 'm.updated_at'])
      .where('m.user_id', '=', userId)
      .where((eb) => eb.or([eb('m.user_review', 'is', null), eb('m.user_review', '<>', 0)]))
      .where((eb) => eb.or([eb('e.memory_id', 'is', null), eb('e.created_at', '<', eb.ref('m.updated_at'))]))
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(limit)
      .execute();
  }

  async saveEmbeddings(rows: readonly MemoryEmbeddingsTable[]): Promise<void> {
    for (const row of rows) {
      await this.db
        .insertInto('memory_embeddings')
        .values(row)
        .onConflict((oc) => oc.column('memory_id').doUpdateSet(refreshedEmbedding(row)))
        .execute();
    }
  }

  /** All of the user's current embeddings for `model`, with the memory fields a result needs. */
  async embeddings(
    userId: string,
    model: string,
  ): Promise<Array<Pick<MemoryRow, 'id' | 'content' | 'category'> & { vector: Buffer; content_hash: string }>> {
    return this.db
      .selectFrom('memory_embeddings as e')
      .innerJoin('memories as m', 'm.id', 'e.memory_id')
      .select(['m.id', 'm.content', 'm.category', 'e.vector', 'e.content_hash'])
      .where('e.user_id', '=', userId)
      .where('m.user_id', '=', userId)
      .where('e.model', '=', model)
      .where((eb) => eb.or([eb('m.user_review', 'is', null), eb('m.user_review', '<>', 0)]))
      .execute();
  }
}
