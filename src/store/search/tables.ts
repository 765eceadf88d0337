/** Tables of the search feature (migrations 0010, 0011), added to the shared Database type. */

export interface MemorySearchMapTable {
  /** Stable integer rowid for FTS5 (memories have text ids; VACUUM may renumber implicit rowids). */
  doc_id: number;
  memory_id: string;
}

export interface MemoriesFtsTable {
  rowid: number;
  content: string;
}

export interface ConversationSearchDocsTable {
  doc_id: number;
  conversation_id: string;
  user_id: string;
  title: string;
  overview: string;
  transcript: string;
}

export interface ConversationsFtsTable {
  rowid: number;
  title: string;
  overview: string;
  transcript: string;
}

export interface ConversationSearchTable {
  conversation_id: string;
  user_id: string;
  /** tsvector; never selected as a value */
  document: string;
}

/** The columns every embedding table has beside its key (memories, conversations). */
export interface EmbeddingColumns {
  user_id: string;
  model: string;
  /** SHA-256 of the embedded content: changed content is re-embedded */
  content_hash: string;
  dims: number;
  /** float32 little-endian */
  vector: Buffer;
  created_at: number;
}

export interface MemoryEmbeddingsTable extends EmbeddingColumns {
  memory_id: string;
}

/** What an upsert of an embedding replaces when its row exists. */
export const refreshedEmbedding = (row: EmbeddingColumns) => ({
  model: row.model,
  content_hash: row.content_hash,
  dims: row.dims,
  vector: row.vector,
  created_at: row.created_at,
});

declare module '../schema.js' {
  interface Database {
    memory_search_map: MemorySearchMapTable;
    memories_fts: MemoriesFtsTable;
    conversation_search_docs: ConversationSearchDocsTable;
    conversations_fts: ConversationsFtsTable;
    conversation_search: ConversationSearchTable;
    memory_embeddings: MemoryEmbeddingsTable;
  }
}
