import { sql } from 'kysely';
import './tables.js';
import type { MatchMode, SearchBackend } from './types.js';

/**
 * PostgreSQL full-text search with tsvector + GIN, ranked by ts_rank_cd.
 *
 * - Memories: a stored generated `search_vector` column on `memories`.
 * - Conversations: one weighted document per completed conversation in `conversation_search`
 *   (title A, overview B, created text + transcript C), kept in sync by triggers.
 */

const CONFIG = `'english'`;

export const POSTGRES_SEARCH_DDL: readonly string[] = [
  `ALTER TABLE memories ADD COLUMN search_vector tsvector
     GENERATED ALWAYS AS (to_tsvector(${CONFIG}, content)) STORED`,
  `CREATE INDEX memories_search ON memories USING gin (search_vector)`,

  `CREATE TABLE conversation_search (
     conversation_id text PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
     user_id text NOT NULL,
     document tsvector NOT NULL
   )`,
  `CREATE INDEX conversation_search_document ON conversation_search USING gin (document)`,
  `CREATE FUNCTION keepsake_conversation_document(cid text) RETURNS tsvector LANGUAGE sql STABLE AS $$
     SELECT coalesce((
       SELECT setweight(to_tsvector(${CONFIG}, c.title), 'A')
         || setweight(to_tsvector(${CONFIG}, c.overview), 'B')
         || setweight(to_tsvector(${CONFIG}, coalesce(c.text, '') || ' ' || coalesce(
              (SELECT string_agg(s.text, ' ' ORDER BY s.seq) FROM transcript_segments s WHERE s.conversation_id = c.id), '')), 'C')
       FROM conversations c WHERE c.id = cid), ''::tsvector)
   $$`,
  // Only completed conversations are searchable (the list shows only those), so live streams cost nothing.
  `CREATE FUNCTION keepsake_conversation_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.status = 'completed' THEN
       INSERT INTO conversation_search (conversation_id, user_id, document)
         VALUES (NEW.id, NEW.user_id, keepsake_conversation_document(NEW.id))
         ON CONFLICT (conversation_id) DO UPDATE SET document = EXCLUDED.document;
     ELSE
       DELETE FROM conversation_search WHERE conversation_id = NEW.id;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER conversations_search_insert AFTER INSERT ON conversations
     FOR EACH ROW WHEN (NEW.status = 'completed') EXECUTE FUNCTION keepsake_conversation_search_sync()`,
  `CREATE TRIGGER conversations_search_update AFTER UPDATE OF status, title, overview, text ON conversations
     FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.title IS DISTINCT FROM NEW.title
       OR OLD.overview IS DISTINCT FROM NEW.overview OR OLD.text IS DISTINCT FROM NEW.text)
     EXECUTE FUNCTION keepsake_conversation_search_sync()`,
  // Drop the document before the cascade removes the segments, so their trigger finds nothing to rebuild.
  `CREATE FUNCTION keepsake_conversation_search_drop() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     DELETE FROM conversation_search WHERE conversation_id = OLD.id;
     RETURN OLD;
   END $$`,
  `CREATE TRIGGER conversations_search_delete BEFORE DELETE ON conversations
     FOR EACH ROW EXECUTE FUNCTION keepsake_conversation_search_drop()`,
  // Segments appended to a searchable conversation extend its document (one statement, one update each).
  `CREATE FUNCTION keepsake_segments_search_append() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE conversation_search cs
       SET document = cs.document || added.document
       FROM (SELECT n.conversation_id,
                    setweight(to_tsvector(${CONFIG}, string_agg(n.text, ' ' ORDER BY n.seq)), 'C') AS document
             FROM new_segments n
             WHERE EXISTS (SELECT 1 FROM conversation_search x WHERE x.conversation_id = n.conversation_id)
             GROUP BY n.conversation_id) added
       WHERE cs.conversation_id = added.conversation_id;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER segments_search_insert AFTER INSERT ON transcript_segments
     REFERENCING NEW TABLE AS new_segments FOR EACH STATEMENT EXECUTE FUNCTION keepsake_segments_search_append()`,
  `CREATE FUNCTION keepsake_segments_search_rebuild() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE conversation_search cs
       SET document = keepsake_conversation_document(cs.conversation_id)
       WHERE cs.conversation_id IN (SELECT DISTINCT conversation_id FROM changed_segments);
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER segments_search_update AFTER UPDATE ON transcript_segments
     REFERENCING NEW TABLE AS changed_segments FOR EACH STATEMENT EXECUTE FUNCTION keepsake_segments_search_rebuild()`,
  `CREATE TRIGGER segments_search_delete AFTER DELETE ON transcript_segments
     REFERENCING OLD TABLE AS changed_segments FOR EACH STATEMENT EXECUTE FUNCTION keepsake_segments_search_rebuild()`,
  `INSERT INTO conversation_search (conversation_id, user_id, document)
     SELECT c.id, c.user_id, keepsake_conversation_document(c.id) FROM conversations c WHERE c.status = 'completed'`,
];

/** tsquery from plain terms (letters, digits and marks only, so no tsquery syntax), joined by & or |. */
function tsquery(terms: readonly string[], mode: MatchMode) {
  return sql`to_tsquery(${sql.raw(CONFIG)}, ${terms.join(mode === 'all' ? ' & ' : ' | ')})`;
}

export const postgresSearch: SearchBackend = {
  name: 'postgres-tsvector',

  memoryHits(qc, userId, terms, mode) {
    return (
      qc
        .selectFrom('memories as hit_m')
        .where('hit_m.user_id', '=', userId)
        .where(sql<boolean>`hit_m.search_vector @@ ${tsquery(terms, mode)}`)
        // Normalization 32 maps the rank into (0, 1): rank / (rank + 1).
        .select([
          'hit_m.id as id',
          sql<number>`ts_rank_cd(hit_m.search_vector, ${tsquery(terms, mode)}, 32)`.as('score'),
        ])
    );
  },

  conversationHits(qc, userId, terms, mode) {
    return qc
      .selectFrom('conversation_search as doc')
      .where('doc.user_id', '=', userId)
      .where(sql<boolean>`doc.document @@ ${tsquery(terms, mode)}`)
      .select([
        'doc.conversation_id as id',
        sql<number>`ts_rank_cd(doc.document, ${tsquery(terms, mode)}, 32)`.as('score'),
      ]);
  },
};
