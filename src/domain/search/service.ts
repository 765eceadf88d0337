import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../context-types.js';
import { Detail, invalidInput } from '../../errors.js';
import type { ConversationSearchFilter, SearchRepository } from '../../store/repositories/search.js';
import { contentWords } from '../ask/words.js';
import type { ConversationsService } from '../conversations/service.js';
import type { DeveloperConversation } from '../conversations/views.js';
import { parseMemoryCategories } from '../memories/service.js';
import { type MemoryView, toMemoryView } from '../memories/views.js';
import { bufferToVector, cosine, type Embedder, vectorToBuffer } from './embeddings.js';

export interface VectorSearchItem {
  id: string;
  content: string;
  category: string;
  relevance_score: number;
}

export interface VectorSearchResult {
  items: VectorSearchItem[];
  returned_count: number;
  /** which ranking answered: embeddings, or full text when no provider is configured or it failed */
  ranking: 'embeddings' | 'full_text';
}

// Memories embedded per request to the provider.
const EMBED_BATCH = 128;

/** Terms of a query, or 422 when nothing searchable is left (an empty or punctuation-only q). */
function requireTerms(search: Pick<SearchRepository, 'terms'>, query: string): string[] {
  const terms = search.terms(query);
  if (terms.length === 0) throw invalidInput(['query', 'q'], Detail.searchQueryEmpty);
  return terms;
}

export const contentHash = (content: string): string => createHash('sha256').update(content).digest('hex');

/** Ranked search over the user's conversations and memories: full text, and embeddings when configured. */
export class SearchService {
  constructor(
    private readonly search: SearchRepository,
    private readonly conversations: ConversationsService,
    private readonly embedder: Embedder | null,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  async conversationsMatching(
    userId: string,
    query: string,
    filter: ConversationSearchFilter,
    includeTranscript: boolean,
  ): Promise<DeveloperConversation[]> {
    const rows = await this.search.conversations(userId, requireTerms(this.search, query), filter);
    return this.conversations.present(userId, rows, includeTranscript);
  }

  async memoriesMatching(
    userId: string,
    query: string,
    categoriesCsv: string | undefined,
    limit: number,
    offset: number,
  ): Promise<MemoryView[]> {
    const categories = parseMemoryCategories(categoriesCsv);
    const rows = await this.search.memories(userId, requireTerms(this.search, query), { categories, limit, offset });
    return rows.map(toMemoryView);
  }

  /** Cosine ranking over memory embeddings; full-text ranking without a provider or when it fails. */
  async vector(userId: string, query: string, limit: number): Promise<VectorSearchResult> {
    if (query.trim() === '') throw invalidInput(['query', 'q'], Detail.searchQueryEmpty);
    if (this.embedder) {
      try {
        return await this.embeddingRanking(this.embedder, userId, query, limit);
      } catch (err) {
        this.log.warn({ err }, 'vector search: embedding provider failed; answering with full-text ranking');
      }
    }
    // A question's own words ("what do I drink in the morning") would match any memory with "in" or
    // "the": only its content words search, and a query of none matches nothing (as PostgreSQL's
    // full-text dictionary, which drops such words, already answered).
    const terms = contentWords(this.search.terms(query));
    if (terms.length === 0) return { items: [], returned_count: 0, ranking: 'full_text' };
    // A stand-in for semantic search: memories with every word first; failing that, with any of them.
    let rows = await this.search.memories(userId, terms, { limit, offset: 0, mode: 'all' });
    if (rows.length === 0 && terms.length > 1)
      rows = await this.search.memories(userId, terms, { limit, offset: 0, mode: 'any' });
    // bm25's own numbers weigh words by how common they are across every user's memories: a user could
    // watch them move as others write. The score gives the order only: 1/2, 1/3, … (0 when unranked).
    const items = rows.map((r, i) => ({
      id: r.id,
      content: r.content,
      category: r.category,
      relevance_score: r.score === 0 ? 0 : 1 / (i + 2),
    }));
    return { items, returned_count: items.length, ranking: 'full_text' };
  }

  private async embeddingRanking(
    embedder: Embedder,
    userId: string,
    query: string,
    limit: number,
  ): Promise<VectorSearchResult> {
    await this.embedStale(embedder, userId);
    const [queryVector] = await embedder.embed([query]);
    const stored = await this.search.embeddings(userId, embedder.model);
    const items = stored
      // An embedding of older content (changed within the same millisecond) is not trusted.
      .filter((row) => row.content_hash === contentHash(row.content))
      .map((row) => ({
        id: row.id,
        content: row.content,
        category: row.category,
        relevance_score: cosine(queryVector, bufferToVector(row.vector)),
      }))
      .sort((a, b) => b.relevance_score - a.relevance_score)
      .slice(0, limit);
    return { items, returned_count: items.length, ranking: 'embeddings' };
  }

  /** Embeds memories that have no current embedding (computed lazily, on the first search after a change). */
  private async embedStale(embedder: Embedder, userId: string): Promise<void> {
    const done = new Set<string>();
    for (;;) {
      const stale = (await this.search.memoriesNeedingEmbedding(userId, embedder.model, EMBED_BATCH)).filter(
        (m) => !done.has(m.id),
      );
      if (stale.length === 0) return;
      const vectors = await embedder.embed(stale.map((m) => m.content));
      const now = this.clock.now();
      await this.search.saveEmbeddings(
        stale.map((m, i) => ({
          memory_id: m.id,
          user_id: userId,
          model: embedder.model,
          content_hash: contentHash(m.content),
          dims: vectors[i].length,
          vector: vectorToBuffer(vectors[i]),
          // Never older than the memory version it embeds, so it is not picked up again.
          created_at: Math.max(now, m.updated_at),
        })),
      );
      for (const m of stale) done.add(m.id);
      if (stale.length < EMBED_BATCH) return;
    }
  }
}
