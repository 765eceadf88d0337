import type { Logger } from 'pino';
import type { Clock } from '../../context-types.js';
import type { ConversationEmbeddingsRepository } from '../../store/repositories/conversation-embeddings.js';
import type { ConversationWithFolder } from '../../store/repositories/conversations.js';
import type { Scored, SearchRepository } from '../../store/repositories/search.js';
import type { ConversationsService } from '../conversations/service.js';
import type { DeveloperConversation } from '../conversations/views.js';
import type { Embedder } from '../search/embeddings.js';
import type { TimeWindow } from './dates.js';
import { similarities } from './embedded.js';

/** A retrieved conversation: the developer view (with transcript) and its created text, if any. */
export interface Retrieved {
  view: DeveloperConversation;
  text: string | null;
}

export interface RetrievalDeps {
  search: Pick<SearchRepository, 'answerCandidates' | 'keptConversationsByIds'>;
  embeddings: ConversationEmbeddingsRepository;
  conversations: Pick<ConversationsService, 'present'>;
  embedder: Embedder | null;
  clock: Clock;
  log: Logger;
}

// How many full-text hits the ranking chooses from.
const POOL = 30;
// Below this cosine, a conversation no word of the question reached is not about it.
const MIN_SIMILARITY = 0.3;

type Row = Scored<ConversationWithFolder>;

/**
 * The conversations a question is about, most relevant first (at most `limit`): full-text hits of its
 * words in the window; with an embedding provider, those and every embedded conversation in the window
 * ranked by similarity to the question. A window without words gives its newest conversations.
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
  if (words.length === 0 && window) {
    rows = await deps.search.answerCandidates(userId, [], window, limit);
  } else if (deps.embedder) {
    try {
      const similar = await similarities({ ...deps, embedder: deps.embedder }, userId, question.text, window);
      rows = await rankBySimilarity(deps, userId, hits, similar, limit);
    } catch (err) {
      deps.log.warn({ err }, 'ask: embedding provider failed; answering from the full-text ranking');
    }
  }
  const views = await deps.conversations.present(userId, rows, true);
  return views.map((view, i) => ({ view, text: rows[i].text }));
}

/** Hits and similar conversations by cosine (plus the full-text score of a hit); hits stay in when not close. */
async function rankBySimilarity(
  deps: Pick<RetrievalDeps, 'search'>,
  userId: string,
  hits: Row[],
  similar: Map<string, number>,
  limit: number,
): Promise<Row[]> {
  const hitScores = new Map(hits.map((r) => [r.id, r.score]));
  const ranked = [...new Set([...hitScores.keys(), ...similar.keys()])]
    .map((id) => ({ id, score: (similar.get(id) ?? 0) + (hitScores.get(id) ?? 0) }))
    .filter((c) => hitScores.has(c.id) || c.score >= MIN_SIMILARITY)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
  const known = new Map(hits.map((r) => [r.id, r]));
  const missing = ranked.filter((c) => !known.has(c.id)).map((c) => c.id);
  for (const row of await deps.search.keptConversationsByIds(userId, missing)) known.set(row.id, row);
  return ranked.flatMap((c) => known.get(c.id) ?? []);
}
