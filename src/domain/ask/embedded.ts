import type { Clock } from '../../context-types.js';
import type {
  ConversationEmbeddingsRepository,
  EmbeddableConversation,
} from '../../store/repositories/conversation-embeddings.js';
import { bufferToVector, cosine, type Embedder, vectorToBuffer } from '../search/embeddings.js';
import { contentHash } from '../search/service.js';
import type { TimeWindow } from './dates.js';

// What of a conversation is embedded: its title, overview and the start of its created text.
const EMBED_CHARS = 2000;
// Conversations embedded per request to the provider, and per question at most (the rest on later ones).
const BATCH = 64;
const PER_QUESTION = 256;

export const embeddedText = (c: Pick<EmbeddableConversation, 'title' | 'overview' | 'text'>): string =>
  [c.title, c.overview, c.text ?? '']
    .filter((part) => part.trim() !== '')
    .join('\n')
    .slice(0, EMBED_CHARS);

/**
 * Cosine similarity to the question of every embedded conversation in the window, by id. New and
 * changed conversations are embedded first, newest first, at most PER_QUESTION per question.
 */
export async function similarities(
  deps: { embeddings: ConversationEmbeddingsRepository; embedder: Embedder; clock: Clock },
  userId: string,
  question: string,
  window: TimeWindow | null,
): Promise<Map<string, number>> {
  const { embeddings, embedder } = deps;
  const stale = await embeddings.stale(userId, embedder.model, PER_QUESTION);
  for (let at = 0; at < stale.length; at += BATCH) {
    const batch = stale.slice(at, at + BATCH);
    const texts = batch.map(embeddedText);
    const vectors = await embedder.embed(texts);
    const now = deps.clock.now();
    await embeddings.save(
      batch.map((c, i) => ({
        conversation_id: c.id,
        user_id: userId,
        model: embedder.model,
        content_hash: contentHash(texts[i]),
        dims: vectors[i].length,
        vector: vectorToBuffer(vectors[i]),
        // Never older than the version it embeds, so it is not picked up again.
        created_at: Math.max(now, c.updated_at),
      })),
    );
  }
  const [query] = await embedder.embed([question]);
  const stored = await embeddings.vectors(userId, embedder.model, window);
  const out = new Map<string, number>();
  for (const row of stored) {
    // An embedding of older content (changed within the same millisecond) is not trusted.
    if (row.content_hash === contentHash(embeddedText(row))) out.set(row.id, cosine(query, bufferToVector(row.vector)));
  }
  return out;
}
