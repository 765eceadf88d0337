import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
import type { ProcessingOutcome } from '../domain/ports.js';
import { PermanentJobError } from '../jobs/runner.js';
import type { JobTable } from '../jobs/table-queue.js';
import type { ActionItemsRepository } from '../store/repositories/action-items.js';
import type { ConversationRow, ConversationsRepository } from '../store/repositories/conversations.js';
import type { MemoriesRepository } from '../store/repositories/memories.js';
import type { UsersRepository } from '../store/repositories/users.js';
import type { TextEngine, TranscriptInput } from './engine.js';

export const PROCESS_JOB = 'conversation.process';

/**
 * Steps that fell back to the local engine while one conversation was processed: the LLM engine
 * reports into the store of the job that called it, so concurrent jobs never mix their records.
 */
export const fallbackRecorder = new AsyncLocalStorage<string[]>();

export function recordFallback(step: string, reason: string): void {
  fallbackRecorder.getStore()?.push(`${step}:${reason}`);
}
export const EXTRACT_JOB = 'conversation.extract';

// SPEC §8: action items are de-duplicated against the past 2 days; at most 4 memories per conversation.
const DEDUP_WINDOW_MS = 2 * 24 * 3600 * 1000;
const MAX_MEMORIES = 4;

/** Runs after a conversation's extraction is stored: how apps' triggers and webhooks hear of it. */
export type AfterProcessingHook = (userId: string, conversationId: string) => Promise<void>;

export interface PipelineDeps {
  conversations: ConversationsRepository;
  actionItems: ActionItemsRepository;
  memories: MemoriesRepository;
  users: UsersRepository;
  jobs: JobTable;
  engine: TextEngine;
  clock: Clock;
  log: Logger;
  wakeWorkers: () => void;
  /** Runs once a conversation's extraction is stored: app triggers and webhooks (integrations/). */
  afterProcessing: AfterProcessingHook;
}

/**
 * The processing pipeline of SPEC §1 (DESIGN §4): keep/discard → structure, then, in a durable
 * extraction job, action items → memories → after-processing hooks. Both steps are jobs keyed by
 * conversation and revision, so a crash at any point is resumed by the next worker.
 */
export class ProcessingPipeline {
  constructor(private readonly deps: PipelineDeps) {}

  /** The job that processes a conversation's current revision; enqueue it in the transaction that stores it. */
  processJob(userId: string, conversationId: string, revision: number, forceKeep = false) {
    return {
      id: randomUUID(),
      kind: PROCESS_JOB,
      userId,
      payload: { conversation_id: conversationId, revision, force_keep: forceKeep },
      idempotencyKey: `${PROCESS_JOB}:${userId}:${conversationId}:${revision}`,
      maxAttempts: 5,
      runAt: this.deps.clock.now(),
    };
  }

  /** Job handler: decide keep/discard, structure, store, and queue the extraction. */
  async runProcessJob(userId: string, conversationId: string, revision: number, forceKeep: boolean): Promise<void> {
    const conversation = await this.currentRevision(userId, conversationId, revision);
    if (conversation) await this.process(conversation, forceKeep);
  }

  /** Decides keep/discard and the structure of this revision of the row, stores them and queues the extraction. */
  async process(conversation: ConversationRow, forceKeep: boolean): Promise<ProcessingOutcome> {
    const { user_id: userId, id: conversationId, revision } = conversation;
    const input = await this.transcriptInput(conversation);
    // A conversation the user restored is kept (research/omi-listen.md §3.2, tier 3).
    const fallbacks: string[] = [];
    const { decision, structure } = await fallbackRecorder.run(fallbacks, async () => {
      const decided = forceKeep
        ? { verdict: 'keep' as const, decidedBy: 'user', reason: 'restored' }
        : await this.deps.engine.decideRelevance(input);
      return {
        decision: decided,
        structure: decided.verdict === 'discard' ? null : await this.deps.engine.structure(input),
      };
    });
    const now = this.deps.clock.now();
    await this.deps.conversations.transaction(async (tx) => {
      await this.deps.conversations.update(
        userId,
        conversationId,
        {
          status: 'completed',
          discarded: decision.verdict === 'discard' ? 1 : 0,
          relevance: JSON.stringify({
            verdict: decision.verdict,
            decided_by: decision.decidedBy,
            reason: decision.reason,
            engine: this.deps.engine.name,
          }),
          processing: JSON.stringify({ engine: this.deps.engine.name, revision, fallbacks }),
          ...(structure
            ? {
                title: structure.title,
                overview: structure.overview,
                category: structure.category,
                emoji: structure.emoji,
              }
            : {}),
          updated_at: now,
        },
        tx,
      );
      await this.deps.conversations.replaceEvents(
        userId,
        conversationId,
        (structure?.events ?? []).map((event, seq) => ({
          id: randomUUID(),
          user_id: userId,
          conversation_id: conversationId,
          seq,
          title: event.title,
          description: event.description,
          start_at: event.start.getTime(),
          duration: event.duration,
          created: 0,
        })),
        tx,
      );
      if (decision.verdict === 'keep') {
        await this.deps.jobs.enqueue(
          {
            id: randomUUID(),
            kind: EXTRACT_JOB,
            userId,
            payload: { conversation_id: conversationId, revision },
            idempotencyKey: `${EXTRACT_JOB}:${userId}:${conversationId}:${revision}`,
            maxAttempts: 5,
            runAt: now,
          },
          now,
          tx,
        );
      }
    });
    if (decision.verdict === 'keep') this.deps.wakeWorkers();
    return { status: 'completed', discarded: decision.verdict === 'discard' };
  }

  /**
   * Job handler: action items and memories replace the previous extraction of this conversation, except
   * those the user completed, edited or reviewed, which stay and count as already known.
   */
  async runExtractJob(userId: string, conversationId: string, revision: number): Promise<void> {
    const conversation = await this.currentRevision(userId, conversationId, revision);
    if (!conversation || conversation.discarded === 1) return;
    const input = await this.transcriptInput(conversation);
    const now = this.deps.clock.now();
    const recent = await this.deps.actionItems.dedupCandidates(userId, now - DEDUP_WINDOW_MS, conversationId);
    const existingMemories = await this.deps.memories.recentContents(userId, 500, conversationId);
    const fallbacks: string[] = [];
    const { items, memories } = await fallbackRecorder.run(fallbacks, async () => ({
      items: await this.deps.engine.extractActionItems(
        input,
        recent.map((r) => ({
          id: r.id,
          description: r.description,
          dueAt: r.due_at === null ? null : new Date(r.due_at),
          createdAt: new Date(r.created_at),
        })),
      ),
      memories: (await this.deps.engine.extractMemories(input, existingMemories)).slice(0, MAX_MEMORIES),
    }));
    await this.deps.conversations.transaction(async (tx) => {
      if (fallbacks.length > 0) {
        const record = JSON.parse(conversation.processing ?? '{}') as { fallbacks?: string[] };
        const processing = JSON.stringify({ ...record, fallbacks: [...(record.fallbacks ?? []), ...fallbacks] });
        await this.deps.conversations.update(userId, conversationId, { processing }, tx);
      }
      await this.deps.actionItems.deleteUntouchedForConversation(userId, conversationId, tx);
      await this.deps.actionItems.insertMany(
        items.map((item, i) => ({
          id: randomUUID(),
          user_id: userId,
          conversation_id: conversationId,
          description: item.description,
          completed: 0,
          completed_at: null,
          due_at: item.dueAt ? item.dueAt.getTime() : null,
          created_at: now + i,
          updated_at: now + i,
        })),
        tx,
      );
      await this.deps.memories.deleteUntouchedForConversation(userId, conversationId, tx);
      await this.deps.memories.insertMany(
        memories.map((memory, i) => ({
          id: randomUUID(),
          user_id: userId,
          content: memory.content,
          category: memory.category,
          visibility: 'private',
          tags: JSON.stringify(memory.tags),
          origin: 'conversation',
          conversation_id: conversationId,
          app_id: null,
          manually_added: 0,
          reviewed: 0,
          user_review: null,
          edited: 0,
          created_at: now + i,
          updated_at: now + i,
        })),
        tx,
      );
    });
    await this.deps.afterProcessing(userId, conversationId);
  }

  /** The conversation if it still exists at this revision (a newer reprocess supersedes older jobs). */
  private async currentRevision(
    userId: string,
    conversationId: string,
    revision: number,
  ): Promise<ConversationRow | undefined> {
    const conversation = await this.deps.conversations.findById(userId, conversationId);
    if (!conversation || conversation.revision !== revision) return undefined;
    return conversation;
  }

  private async transcriptInput(conversation: ConversationRow): Promise<TranscriptInput> {
    const user = await this.deps.users.findById(conversation.user_id);
    if (!user) throw new PermanentJobError('user no longer exists');
    const segments =
      (await this.deps.conversations.segmentsFor(conversation.user_id, [conversation.id])).get(conversation.id) ?? [];
    const text = conversation.text ?? segments.map((s) => s.text).join('\n');
    return {
      text,
      segments: segments.map((s) => ({
        text: s.text,
        speaker: s.speaker,
        isUser: s.is_user === 1,
        start: s.start_sec,
        end: s.end_sec,
      })),
      startedAt: new Date(conversation.started_at ?? conversation.created_at),
      timezone: user.timezone,
      language: conversation.language ?? 'en',
      userName: user.name,
    };
  }
}

/** Parses a job payload written by this pipeline. */
export function conversationJobPayload(payload: string): {
  conversationId: string;
  revision: number;
  forceKeep: boolean;
} {
  const parsed: unknown = JSON.parse(payload);
  if (typeof parsed === 'object' && parsed !== null) {
    const { conversation_id: conversationId, revision, force_keep: forceKeep } = parsed as Record<string, unknown>;
    if (typeof conversationId === 'string' && typeof revision === 'number') {
      return { conversationId, revision, forceKeep: forceKeep === true };
    }
  }
  throw new PermanentJobError('malformed conversation job payload');
}
