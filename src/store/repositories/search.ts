import type { Kysely } from 'kysely';
import type { DialectName } from '../db.js';
import type { Database } from '../schema.js';
import { type MatchMode, type SearchBackend, searchBackend } from '../search/index.js';
import type { MemoryEmbeddingsTable } from '../search/tables.js';
import type { ConversationWithFolder } from './conversations.js';
import type { MemoryRow } from './memories.js';

export interface MemorySearchFilter {
  /** default `all`: every term must occur */
  mode?: MatchMode;
  categories?: readonly string[];
  limit: number;
  offset: number;
}

export interface ConversationSearchFilter {
  startDate?: number;
  endDate?: number;
  categories?: readonly string[];
  folderId?: string;
  starred?: boolean;
  limit: number;
  offset: number;
}

export type Scored<T> = T & { score: number };

/** Ranked full-text search and stored embeddings; the dialect's backend is chosen once, here. */
export class SearchRepository {
  private readonly backend: SearchBackend;

  constructor(
    private readonly db: Kysely<Database>,
    dialect: DialectName,
  ) {
    this.backend = searchBackend(dialect);
  }

  /** The user's visible memories matching the terms, best first. */
  async memories(userId: string, terms: readonly string[], filter: MemorySearchFilter): Promise<Scored<MemoryRow>[]> {
    let query = this.db
      .with('hit', (qc) => this.backend.memoryHits(qc, userId, terms, filter.mode ?? 'all'))
      .selectFrom('hit')
      .innerJoin('memories as m', 'm.id', 'hit.id')
      .selectAll('m')
      .select('hit.score')
      .where('m.user_id', '=', userId)
      .where((eb) => eb.or([eb('m.user_review', 'is', null), eb('m.user_review', '<>', 0)]));
    if (filter.categories && filter.categories.length > 0)
      query = query.where('m.category', 'in', [...filter.categories]);
    return query
      .orderBy('hit.score', 'desc')
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
  }

  /** Completed, non-discarded conversations holding every term (title, overview, transcript), best first. */
  async conversations(
    userId: string,
    terms: readonly string[],
    filter: ConversationSearchFilter,
  ): Promise<Scored<ConversationWithFolder>[]> {
    let query = this.db
      .with('hit', (qc) => this.backend.conversationHits(qc, userId, terms, 'all'))
      .selectFrom('hit')
      .innerJoin('conversations as c', 'c.id', 'hit.id')
      .leftJoin('folders as f', (join) => join.onRef('f.id', '=', 'c.folder_id').onRef('f.user_id', '=', 'c.user_id'))
      .selectAll('c')
      .select(['f.name as folder_name', 'hit.score'])
      .where('c.user_id', '=', userId)
      .where('c.status', '=', 'completed')
      .where('c.discarded', '=', 0);
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
        .onConflict((oc) =>
          oc.column('memory_id').doUpdateSet({
            model: row.model,
            content_hash: row.content_hash,
            dims: row.dims,
            vector: row.vector,
            created_at: row.created_at,
          }),
        )
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
