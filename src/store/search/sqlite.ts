import { type QueryCreator, sql } from 'kysely';
import type { Database } from '../schema.js';
import './tables.js';
import type { MatchMode, SearchBackend } from './types.js';

/**
 * SQLite full-text search: FTS5 external-content tables kept in sync by triggers, ranked by bm25.
 *
 * - Memories: the FTS index reads its content through a view over `memories`; a small map table gives
 *   each memory a stable integer rowid (implicit rowids of text-keyed tables may change on VACUUM).
 * - Conversations: one document per completed conversation (title, overview, created text + transcript),
 *   kept in `conversation_search_docs`; segments appended later extend the document.
 */

const TOKENIZER = "tokenize = 'porter unicode61 remove_diacritics 2'";

const SEGMENT_TEXT = (conversationId: string) =>
  `coalesce((SELECT group_concat(s.text, ' ' ORDER BY s.seq) FROM transcript_segments s WHERE s.conversation_id = ${conversationId}), '')`;
const DOCUMENT_TRANSCRIPT = (row: string) => `trim(coalesce(${row}.text, '') || ' ' || ${SEGMENT_TEXT(`${row}.id`)})`;

export const SQLITE_SEARCH_DDL: readonly string[] = [
  // Memories
  `CREATE TABLE memory_search_map (
     doc_id INTEGER PRIMARY KEY,
     memory_id TEXT NOT NULL UNIQUE
   )`,
  `CREATE VIEW memory_search_source AS
     SELECT map.doc_id AS doc_id, m.content AS content
     FROM memory_search_map map JOIN memories m ON m.id = map.memory_id`,
  `CREATE VIRTUAL TABLE memories_fts USING fts5(content, content = 'memory_search_source', content_rowid = 'doc_id', ${TOKENIZER})`,
  `CREATE TRIGGER memories_search_insert AFTER INSERT ON memories BEGIN
     INSERT INTO memory_search_map (memory_id) VALUES (new.id);
     INSERT INTO memories_fts (rowid, content)
       SELECT doc_id, new.content FROM memory_search_map WHERE memory_id = new.id;
   END`,
  `CREATE TRIGGER memories_search_update AFTER UPDATE OF content ON memories WHEN old.content IS NOT new.content BEGIN
     INSERT INTO memories_fts (memories_fts, rowid, content)
       SELECT 'delete', doc_id, old.content FROM memory_search_map WHERE memory_id = old.id;
     INSERT INTO memories_fts (rowid, content)
       SELECT doc_id, new.content FROM memory_search_map WHERE memory_id = new.id;
   END`,
  `CREATE TRIGGER memories_search_delete AFTER DELETE ON memories BEGIN
     INSERT INTO memories_fts (memories_fts, rowid, content)
       SELECT 'delete', doc_id, old.content FROM memory_search_map WHERE memory_id = old.id;
     DELETE FROM memory_search_map WHERE memory_id = old.id;
   END`,
  `INSERT INTO memory_search_map (memory_id) SELECT id FROM memories ORDER BY created_at, id`,
  `INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')`,

  // Conversations
  `CREATE TABLE conversation_search_docs (
     doc_id INTEGER PRIMARY KEY,
     conversation_id TEXT NOT NULL UNIQUE REFERENCES conversations (id) ON DELETE CASCADE,
     user_id TEXT NOT NULL,
     title TEXT NOT NULL,
     overview TEXT NOT NULL,
     transcript TEXT NOT NULL
   )`,
  `CREATE VIRTUAL TABLE conversations_fts USING fts5(title, overview, transcript,
     content = 'conversation_search_docs', content_rowid = 'doc_id', ${TOKENIZER})`,
  // Title counts most, then the overview, then the transcript.
  `INSERT INTO conversations_fts (conversations_fts, rank) VALUES ('rank', 'bm25(10.0, 4.0, 1.0)')`,
  `CREATE TRIGGER conversation_docs_insert AFTER INSERT ON conversation_search_docs BEGIN
     INSERT INTO conversations_fts (rowid, title, overview, transcript)
       VALUES (new.doc_id, new.title, new.overview, new.transcript);
   END`,
  `CREATE TRIGGER conversation_docs_update AFTER UPDATE ON conversation_search_docs BEGIN
     INSERT INTO conversations_fts (conversations_fts, rowid, title, overview, transcript)
       VALUES ('delete', old.doc_id, old.title, old.overview, old.transcript);
     INSERT INTO conversations_fts (rowid, title, overview, transcript)
       VALUES (new.doc_id, new.title, new.overview, new.transcript);
   END`,
  `CREATE TRIGGER conversation_docs_delete AFTER DELETE ON conversation_search_docs BEGIN
     INSERT INTO conversations_fts (conversations_fts, rowid, title, overview, transcript)
       VALUES ('delete', old.doc_id, old.title, old.overview, old.transcript);
   END`,
  // Only completed conversations are searchable (the list shows only those), so live streams cost nothing.
  `CREATE TRIGGER conversations_search_insert AFTER INSERT ON conversations WHEN new.status = 'completed' BEGIN
     INSERT INTO conversation_search_docs (conversation_id, user_id, title, overview, transcript)
       VALUES (new.id, new.user_id, new.title, new.overview, ${DOCUMENT_TRANSCRIPT('new')});
   END`,
  `CREATE TRIGGER conversations_search_update AFTER UPDATE OF status, title, overview, text ON conversations
   WHEN old.status IS NOT new.status OR old.title IS NOT new.title OR old.overview IS NOT new.overview OR old.text IS NOT new.text
   BEGIN
     DELETE FROM conversation_search_docs WHERE conversation_id = new.id AND new.status <> 'completed';
     INSERT INTO conversation_search_docs (conversation_id, user_id, title, overview, transcript)
       SELECT new.id, new.user_id, new.title, new.overview, ${DOCUMENT_TRANSCRIPT('new')} WHERE new.status = 'completed'
       ON CONFLICT (conversation_id) DO UPDATE
         SET title = excluded.title, overview = excluded.overview, transcript = excluded.transcript;
   END`,
  // Drop the document before the cascade removes the segments, so their triggers find nothing to update.
  `CREATE TRIGGER conversations_search_delete BEFORE DELETE ON conversations BEGIN
     DELETE FROM conversation_search_docs WHERE conversation_id = old.id;
   END`,
  `CREATE TRIGGER segments_search_insert AFTER INSERT ON transcript_segments BEGIN
     UPDATE conversation_search_docs SET transcript = trim(transcript || ' ' || new.text)
       WHERE conversation_id = new.conversation_id;
   END`,
  `CREATE TRIGGER segments_search_update AFTER UPDATE OF text ON transcript_segments WHEN old.text IS NOT new.text BEGIN
     UPDATE conversation_search_docs
       SET transcript = (SELECT ${DOCUMENT_TRANSCRIPT('c')} FROM conversations c WHERE c.id = new.conversation_id)
       WHERE conversation_id = new.conversation_id;
   END`,
  `CREATE TRIGGER segments_search_delete AFTER DELETE ON transcript_segments BEGIN
     UPDATE conversation_search_docs
       SET transcript = (SELECT ${DOCUMENT_TRANSCRIPT('c')} FROM conversations c WHERE c.id = old.conversation_id)
       WHERE conversation_id = old.conversation_id;
   END`,
  `INSERT INTO conversation_search_docs (conversation_id, user_id, title, overview, transcript)
     SELECT c.id, c.user_id, c.title, c.overview, ${DOCUMENT_TRANSCRIPT('c')}
     FROM conversations c WHERE c.status = 'completed'`,
];

/** FTS5 query: every term quoted (they hold only letters, digits and marks), joined by AND or OR. */
function matchExpression(terms: readonly string[], mode: MatchMode): string {
  return terms.map((t) => `"${t}"`).join(mode === 'all' ? ' AND ' : ' OR ');
}

// `rank` is bm25 (weighted for conversations): negative, lower is better. Mapped into (0, 1), higher is better.
const SCORE = (table: string) => sql<number>`(-${sql.ref(`${table}.rank`)}) / (1.0 - ${sql.ref(`${table}.rank`)})`;

/**
 * Matches of every user: the caller joins them to `memories` and keeps the user's own. Joining here too
 * read each matching memory twice (14% of a topic search). bm25() costs less than `rank`.
 */
function memoryHitsMatching(qc: QueryCreator<Database>, match: string) {
  return qc
    .selectFrom('memories_fts')
    .innerJoin('memory_search_map as map', 'map.doc_id', 'memories_fts.rowid')
    .where(sql<boolean>`memories_fts MATCH ${match}`)
    .select(['map.memory_id as id', sql<number>`-bm25(memories_fts) / (1.0 - bm25(memories_fts))`.as('score')]);
}

/**
 * Matches of every term, scored by bm25 over `ranked` terms only (SearchRepository drops the terms bm25
 * gives no weight from the score). Both sets are materialized: left to itself, SQLite would push the
 * second into the first as one FTS5 lookup per rowid, re-running the match each time.
 */
function memoryHitsRankedBy(qc: QueryCreator<Database>, ranked: readonly string[], all: readonly string[]) {
  return qc
    .with(
      (cte) => cte('ranked').materialized(),
      (q) =>
        q
          .selectFrom('memories_fts')
          .where(sql<boolean>`memories_fts MATCH ${matchExpression(ranked, 'all')}`)
          .select([sql<number>`memories_fts.rowid`.as('doc_id'), sql<number>`bm25(memories_fts)`.as('r')]),
    )
    .with(
      (cte) => cte('everything').materialized(),
      (q) =>
        q
          .selectFrom('memories_fts')
          .where(sql<boolean>`memories_fts MATCH ${matchExpression(all, 'all')}`)
          .select(sql<number>`memories_fts.rowid`.as('doc_id')),
    )
    .selectFrom('ranked')
    .innerJoin('everything', 'everything.doc_id', 'ranked.doc_id')
    .innerJoin('memory_search_map as map', 'map.doc_id', 'ranked.doc_id')
    .select(['map.memory_id as id', sql<number>`-ranked.r / (1.0 - ranked.r)`.as('score')]);
}

/**
 * Matches with score 0 and their doc id, for a page in stored order (the caller orders by `doc_id`). The
 * id must be FTS5's own rowid, not the map's equal column: only an order on the rowid lets FTS5 walk its
 * index backwards and stop after one page (a word in 50,000 memories: 0.2 ms instead of 90).
 */
function memoryHitsNewest(qc: QueryCreator<Database>, match: string) {
  return qc
    .selectFrom('memories_fts')
    .innerJoin('memory_search_map as map', 'map.doc_id', 'memories_fts.rowid')
    .where(sql<boolean>`memories_fts MATCH ${match}`)
    .select(['map.memory_id as id', sql<number>`0`.as('score'), sql<number>`memories_fts.rowid`.as('doc_id')]);
}

export const sqliteSearch: SearchBackend = {
  name: 'sqlite-fts5',

  memoryHits(qc, _userId, terms, mode) {
    return memoryHitsMatching(qc, matchExpression(terms, mode));
  },

  memoryMatch: {
    match: matchExpression,
    hits: memoryHitsMatching,
    rankedBy: memoryHitsRankedBy,
    newest: memoryHitsNewest,
  },

  conversationHits(qc, userId, terms, mode) {
    return qc
      .selectFrom('conversations_fts')
      .innerJoin('conversation_search_docs as doc', 'doc.doc_id', 'conversations_fts.rowid')
      .where(sql<boolean>`conversations_fts MATCH ${matchExpression(terms, mode)}`)
      .where('doc.user_id', '=', userId)
      .select(['doc.conversation_id as id', SCORE('conversations_fts').as('score')]);
  },
};
