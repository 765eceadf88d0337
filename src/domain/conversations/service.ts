import type { Insertable, Transaction } from 'kysely';
import type { Clock } from '../../context-types.js';
import { AppError, Detail, invalidInput } from '../../errors.js';
import type { ActionItemsRepository } from '../../store/repositories/action-items.js';
import type { ConversationAppResultsRepository } from '../../store/repositories/conversation-app-results.js';
import type {
  ConversationListFilter,
  ConversationsRepository,
  ConversationView,
} from '../../store/repositories/conversations.js';
import type { PeopleRepository } from '../../store/repositories/people.js';
import type { UsersRepository } from '../../store/repositories/users.js';
import type { ConversationsTable, Database, TranscriptSegmentsTable } from '../../store/schema.js';
import { timeOrderedId } from '../ids.js';
import { parseInstant } from '../instant.js';
import type { ConversationProcessing, CreateReceipt } from '../ports.js';
import {
  type CreateFromSegmentsInput,
  type CreateFromTextInput,
  type CreateResult,
  type Geolocation,
  retryIdOf,
  type SegmentInput,
} from './inputs.js';
import { keptByPipeline, storedRow, toSegmentRow, validateSegments } from './rows.js';
import { type DeveloperConversation, toDeveloperConversation } from './views.js';

export type { CreateFromSegmentsInput, CreateFromTextInput, CreateResult, Geolocation, SegmentInput };

export interface ConversationsServiceDeps {
  conversations: ConversationsRepository;
  actionItems: ActionItemsRepository;
  people: PeopleRepository;
  users: UsersRepository;
  /** Queues and runs the processing pipeline (processing/ implements the port). */
  processing: ConversationProcessing;
  /** What else goes when a conversation is deleted (its audio: docs/voices-and-audio.md). */
  onDeleted?: (userId: string, conversationId: string) => Promise<void>;
  clock: Clock;
  /** Completed summarization-app results by conversation (one query per page); none when absent. */
  appResults?: Pick<ConversationAppResultsRepository, 'completedFor'>;
}

export interface CreateOptions {
  /** Process before answering (default) or answer `processing` and let the job runner finish it. */
  wait: boolean;
  /** The create's Idempotency-Key receipt, written with the conversation (http/idempotency.ts). */
  receipt?: CreateReceipt;
}
const WAIT: CreateOptions = { wait: true };

const FIVE_MINUTES_MS = 5 * 60 * 1000;

export class ConversationsService {
  constructor(private readonly deps: ConversationsServiceDeps) {}

  async createFromText(
    userId: string,
    input: CreateFromTextInput,
    options: CreateOptions = WAIT,
  ): Promise<CreateResult> {
    return this.storeAndProcess(this.textRow(userId, input), [], options);
  }

  /**
   * Integration create (SPEC §4.9, DESIGN §4): the conversation and its processing job are stored in one
   * transaction and the job runs in the background; the caller wakes the job runner.
   */
  async createFromTextAsync(
    userId: string,
    input: CreateFromTextInput,
    alsoInTransaction?: (tx: Transaction<Database>) => Promise<void>,
  ): Promise<{ id: string }> {
    const row = this.textRow(userId, input);
    await this.store(row, [], alsoInTransaction);
    return { id: row.id };
  }

  private textRow(userId: string, input: CreateFromTextInput): Insertable<ConversationsTable> & { id: string } {
    const text = input.text.trim();
    if (text === '') throw invalidInput(['body', 'text'], Detail.textEmpty);
    const startedAt = input.started_at ? parseInstant(input.started_at) : this.deps.clock.now();
    // SPEC §4.2: finished_at defaults to started_at + 5 minutes; equal is allowed for text.
    const finishedAt = input.finished_at ? parseInstant(input.finished_at) : startedAt + FIVE_MINUTES_MS;
    if (finishedAt < startedAt) throw invalidInput(['body', 'finished_at'], Detail.finishedBeforeStarted);
    return this.newRow(userId, {
      started_at: startedAt,
      finished_at: finishedAt,
      language: input.language?.trim() || 'en',
      source: input.source ?? 'external_integration',
      text_source: input.text_source ?? 'other_text',
      text_source_spec: input.text_source_spec ?? null,
      text,
      geolocation: input.geolocation ? JSON.stringify(input.geolocation) : null,
      app_id: input.app_id ?? null,
    });
  }

  async createFromSegments(
    userId: string,
    input: CreateFromSegmentsInput,
    options: CreateOptions = WAIT,
  ): Promise<CreateResult> {
    validateSegments(input.transcript_segments);
    const clientSessionId = retryIdOf(input);
    if (clientSessionId) {
      const existing = await this.deps.conversations.findByClientSession(userId, clientSessionId);
      if (existing) return { id: existing.id, status: existing.status, discarded: existing.discarded === 1 };
    }
    const segments = input.transcript_segments;
    const startedAt = input.started_at ? parseInstant(input.started_at) : this.deps.clock.now();
    const lastEnd = Math.max(...segments.map((s) => s.end));
    // DESIGN §7: finished_at defaults to started_at + the largest segment end.
    const finishedAt = input.finished_at ? parseInstant(input.finished_at) : startedAt + Math.round(lastEnd * 1000);
    if (finishedAt <= startedAt) throw invalidInput(['body', 'finished_at'], Detail.finishedBeforeStarted);
    const row = this.newRow(userId, {
      started_at: startedAt,
      finished_at: finishedAt,
      language: input.language?.trim() || 'en',
      source: input.source ?? 'external_integration',
      geolocation: input.geolocation ? JSON.stringify(input.geolocation) : null,
      client_session_id: clientSessionId,
    });
    const segmentRows = segments.map((segment, seq) => toSegmentRow(userId, row.id, seq, segment));
    try {
      return await this.storeAndProcess(row, segmentRows, options);
    } catch (err) {
      // A concurrent retry with the same client_session_id won the insert: answer with its conversation.
      const winner = clientSessionId
        ? await this.deps.conversations.findByClientSession(userId, clientSessionId)
        : undefined;
      if (winner) return { id: winner.id, status: winner.status, discarded: winner.discarded === 1 };
      throw err;
    }
  }

  async get(userId: string, id: string, includeTranscript: boolean): Promise<DeveloperConversation> {
    return (await this.getWithText(userId, id, includeTranscript)).conversation;
  }

  /**
   * The conversation and the text it was created from (text create only; SPEC §4.2 keeps it out of the
   * segments and the developer view), read in one query.
   */
  async getWithText(
    userId: string,
    id: string,
    includeTranscript: boolean,
  ): Promise<{ conversation: DeveloperConversation; text: string | null }> {
    const row = await this.deps.conversations.findById(userId, id);
    if (!row) throw new AppError(404, Detail.conversationNotFound);
    const [conversation] = await this.present(userId, [row], includeTranscript);
    return { conversation, text: row.text };
  }

  async list(
    userId: string,
    filter: ConversationListFilter,
    includeTranscript: boolean,
  ): Promise<DeveloperConversation[]> {
    const rows = await this.deps.conversations.listViews(userId, filter);
    return this.present(userId, rows, includeTranscript);
  }

  async update(
    userId: string,
    id: string,
    patch: { title?: string; discarded?: boolean },
  ): Promise<DeveloperConversation> {
    const row = await this.deps.conversations.findById(userId, id);
    if (!row) throw new AppError(404, Detail.conversationNotFound);
    if (patch.title === undefined && patch.discarded === undefined)
      throw invalidInput(['body'], Detail.conversationPatchEmpty);
    const title = patch.title?.trim();
    if (title === '') throw invalidInput(['body', 'title'], Detail.titleEmpty);
    const now = this.deps.clock.now();
    // Restoring a conversation the pipeline discarded processes it (it never got a summary, items or
    // memories); restoring one the user discarded only shows it again, with everything it had.
    const restoring = patch.discarded === false && row.discarded === 1 && !keptByPipeline(row);
    const changes = {
      ...(title !== undefined ? { title } : {}),
      ...(patch.discarded !== undefined ? { discarded: patch.discarded ? 1 : 0 } : {}),
      ...(restoring ? { status: 'processing', revision: row.revision + 1 } : {}),
      updated_at: now,
    };
    let jobId: string | null = null;
    await this.deps.conversations.transaction(async (tx) => {
      await this.deps.conversations.update(userId, id, changes, tx);
      // A restored conversation is reprocessed so it gets its summary, items and memories.
      if (restoring) jobId = await this.deps.processing.enqueue(tx, row, row.revision + 1, { forceKeep: true });
    });
    if (jobId) await this.deps.processing.runNow(jobId, { ...row, ...changes }, { forceKeep: true });
    if (title !== undefined && restoring) await this.deps.conversations.update(userId, id, { title });
    return this.get(userId, id, false);
  }

  async delete(userId: string, id: string): Promise<void> {
    const deleted = await this.deps.conversations.delete(userId, id);
    if (!deleted) throw new AppError(404, Detail.conversationNotFound);
    await this.deps.onDeleted?.(userId, id);
  }

  private newRow(
    userId: string,
    fields: Partial<Insertable<ConversationsTable>>,
  ): Insertable<ConversationsTable> & { id: string } {
    const now = this.deps.clock.now();
    return {
      id: timeOrderedId(),
      user_id: userId,
      created_at: now,
      updated_at: now,
      status: 'processing',
      discarded: 0,
      starred: 0,
      revision: 0,
      title: '',
      overview: '',
      category: 'other',
      emoji: '🧠',
      ...fields,
    };
  }

  /** Stores the conversation and its processing job in one transaction; returns the job's id. */
  private async store(
    row: Insertable<ConversationsTable> & { id: string },
    segments: Insertable<TranscriptSegmentsTable>[],
    alsoInTransaction?: (tx: Transaction<Database>) => Promise<void>,
  ): Promise<string> {
    return this.deps.conversations.ingestTransaction(async (tx) => {
      await this.deps.conversations.insert(row, segments, tx);
      const jobId = await this.deps.processing.enqueue(tx, { id: row.id, user_id: row.user_id }, 0);
      await alsoInTransaction?.(tx);
      return jobId;
    });
  }

  /**
   * Stores the conversation and its processing job in one transaction, then processes it in this
   * request (the reference's behaviour) or, with `wait: false`, hands it to the job runner and answers
   * `processing` at once (fast ingest; the durable job finishes it).
   */
  private async storeAndProcess(
    row: Insertable<ConversationsTable> & { id: string },
    segments: Insertable<TranscriptSegmentsTable>[],
    options: CreateOptions,
  ): Promise<CreateResult> {
    // Answered at once without waiting; after processing, the final status replaces this receipt.
    const queued = { id: row.id, status: 'processing', discarded: false };
    const { receipt } = options;
    const jobId = await this.store(row, segments, receipt && ((tx) => receipt(tx, queued, !options.wait)));
    if (!options.wait) {
      this.deps.processing.wake();
      return queued;
    }
    const outcome = await this.deps.processing.runNow(jobId, storedRow(row));
    return { id: row.id, ...outcome };
  }

  /**
   * Rows → developer views with action items, events, segments and names in a fixed number of queries.
   * Public for search results and the export, which load rows their own way.
   */
  async present(
    userId: string,
    rows: ConversationView[],
    includeTranscript: boolean,
  ): Promise<DeveloperConversation[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [items, events, segments, appResults] = await Promise.all([
      this.deps.actionItems.forConversations(userId, ids),
      this.deps.conversations.eventsFor(userId, ids),
      includeTranscript ? this.deps.conversations.segmentsFor(userId, ids) : Promise.resolve(null),
      this.deps.appResults?.completedFor(userId, ids),
    ]);
    let userName = 'User';
    let people = new Map<string, string>();
    if (segments) {
      const personIds = [...new Set([...segments.values()].flat().flatMap((s) => (s.person_id ? [s.person_id] : [])))];
      const [user, names] = await Promise.all([
        this.deps.users.findById(userId),
        this.deps.people.namesByIds(userId, personIds),
      ]);
      userName = user?.name ?? 'User';
      people = names;
    }
    return rows.map((row) =>
      toDeveloperConversation(row, {
        items: items.get(row.id) ?? [],
        events: events.get(row.id) ?? [],
        segments: segments ? (segments.get(row.id) ?? []) : null,
        names: { userName, people },
        appResults: appResults?.get(row.id) ?? [],
      }),
    );
  }
}
