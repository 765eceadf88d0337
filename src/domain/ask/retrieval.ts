import type { Logger } from 'pino';
import type { ConversationWithFolder } from '../../store/repositories/conversations.js';
import type { Scored, SearchRepository } from '../../store/repositories/search.js';
import type { ConversationsService } from '../conversations/service.js';
import type { DeveloperConversation } from '../conversations/views.js';
import { cosine, type Embedder } from '../search/embeddings.js';
import type { TimeWindow } from './dates.js';

/** A retrieved conversation: the developer view (with transcript) and its created text, if any. */
export interface Retrieved {
  view: DeveloperConversation;
  text: string | null;
}

export interface RetrievalDeps {
  search: Pick<SearchRepository, 'answerCandidates'>;
  conversations: Pick<ConversationsService, 'present'>;
  embedder: Embedder | null;
  log: Logger;
}

// How many full-text hits and recent conversations the embedding ranking chooses from.
const POOL = 30;
// Below this cosine, a conversation no word of the question reached is not about it.
const MIN_SIMILARITY = 0.3;
// What of a conversation is embedded: its title, overview and the start of its words.
const EMBED_CHARS = 2000;

type Row = Scored<ConversationWithFolder>;

const embeddedText = (row: Row): string =>
  [row.title, row.overview, row.text ?? '']
    .filter((part) => part.trim() !== '')
    .join('\n')
    .slice(0, EMBED_CHARS);

/**
 * The conversations a question is about, most relevant first (at most `limit`): full-text hits of its
 * words in the window; with an embedding provider, those and the window's newest conversations ranked
 * by similarity to the question. A window without words gives its newest conversations.
 */
export async function retrieveConversations(
  deps: RetrievalDeps,
  userId: string,
  question: { text: string; words: string[]; window: TimeWindow | null },
  limit: number,
): Promise<Retrieved[]> {
  const { words, window } = question;
  const hits = words.length > 0 ? await deps.search.answerCandidates(userId, words, window, POOL) : [];
  let rows: Row[] = hits.slice(0, limit);
  if (deps.embedder && (words.length > 0 || window === null)) {
    const recent = await deps.search.answerCandidates(userId, [], window, POOL);
    try {
      rows = await rankBySimilarity(deps.embedder, question.text, hits, recent, limit);
    } catch (err) {
      deps.log.warn({ err }, 'ask: embedding provider failed; answering from the full-text ranking');
    }
  } else if (words.length === 0 && window) {
    rows = await deps.search.answerCandidates(userId, [], window, limit);
  }
  const views = await deps.conversations.present(userId, rows, true);
  return views.map((view, i) => ({ view, text: rows[i].text }));
}

/** Full-text hits and recent conversations by cosine to the question; hits stay in even when not close. */
async function rankBySimilarity(
  embedder: Embedder,
  question: string,
  hits: Row[],
  recent: Row[],
  limit: number,
): Promise<Row[]> {
  const hitIds = new Set(hits.map((r) => r.id));
  const pool = [...hits, ...recent.filter((r) => !hitIds.has(r.id))];
  if (pool.length === 0) return [];
  const [query, ...vectors] = await embedder.embed([question, ...pool.map(embeddedText)]);
  return pool
    .map((row, i) => ({ row, similarity: cosine(query, vectors[i]) + (hitIds.has(row.id) ? row.score : 0) }))
    .filter((r) => hitIds.has(r.row.id) || r.similarity >= MIN_SIMILARITY)
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, limit)
    .map((r) => r.row);
}
