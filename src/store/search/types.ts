import type { Expression, QueryCreator } from 'kysely';
import type { Database } from '../schema.js';

/** One full-text match: the matched row's id and a relevance in (0, 1), higher is better. */
export interface SearchHit {
  id: string;
  score: number;
}

/** `all`: every term must occur (the search endpoints); `any`: one is enough (fallback ranking). */
export type MatchMode = 'all' | 'any';

/**
 * The dialect half of full-text search (SQLite FTS5 or PostgreSQL tsvector). Each backend answers matching
 * ids with a score; the repository joins them to the user's rows (the only scope that matters: SQLite's
 * memory hits span every user's index entries), filters and pages in shared SQL.
 */
export interface SearchBackend {
  readonly name: 'sqlite-fts5' | 'postgres-tsvector';
  memoryHits(
    qc: QueryCreator<Database>,
    userId: string,
    terms: readonly string[],
    mode: MatchMode,
  ): Expression<SearchHit>;
  conversationHits(
    qc: QueryCreator<Database>,
    userId: string,
    terms: readonly string[],
    mode: MatchMode,
  ): Expression<SearchHit>;
  /**
   * SQLite FTS5, whose whole memory match is one parameter and whose bm25 weighs terms by how rare they
   * are (see MemoryTermStats). The memory search can then be compiled once and run with `match(terms,
   * mode)`; `hits` is `memoryHits` for an already-built match; `rankedBy` scores matches of every term by
   * the `ranked` ones only; `newest` gives matches with score 0 and their `doc_id`, which grows with each
   * insert, for a newest-first page read backwards through the index.
   */
  readonly memoryMatch?: {
    match(terms: readonly string[], mode: MatchMode): string;
    hits(qc: QueryCreator<Database>, match: string): Expression<SearchHit>;
    rankedBy(qc: QueryCreator<Database>, ranked: readonly string[], all: readonly string[]): Expression<SearchHit>;
    newest(qc: QueryCreator<Database>, match: string): Expression<SearchHit & { doc_id: number }>;
  };
}

const MAX_TERMS = 32;
const MAX_TERM_LENGTH = 64;

/**
 * A user's query → plain search terms: runs of letters, digits and combining marks, lowercased. Every
 * other character (quotes, operators, column filters, `*`, `:`) is dropped, so no FTS5 or tsquery
 * syntax can reach the engine.
 */
export function searchTerms(query: string): string[] {
  const words =
    query
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  return [...new Set(words.map((w) => w.slice(0, MAX_TERM_LENGTH)))].slice(0, MAX_TERMS);
}
