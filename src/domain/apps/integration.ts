import { randomUUID } from 'node:crypto';
import type { Clock } from '../../context-types.js';
import { AppError, Detail, invalidInput } from '../../errors.js';
import type { ActionItemListFilter, ActionItemsRepository } from '../../store/repositories/action-items.js';
import type { AppImportsRepository } from '../../store/repositories/app-imports.js';
import type { ConversationRow, ConversationsRepository } from '../../store/repositories/conversations.js';
import type { MemoriesRepository } from '../../store/repositories/memories.js';
import type { SearchRepository } from '../../store/repositories/search.js';
import type { ActionItemView } from '../action-items/service.js';
import type { ConversationsService, Geolocation } from '../conversations/service.js';
import { toActionItemView } from '../conversations/views.js';
import { parseInstant } from '../instant.js';
import { cleanTags } from '../memories/service.js';
import type { CreateReceipt, WorkQueue } from '../ports.js';
import {
  type IntegrationConversation,
  type IntegrationMemory,
  toIntegrationConversation,
  toIntegrationMemory,
} from './integration-views.js';

export const APP_MEMORIES_JOB = 'app.memories.extract';

export interface IntegrationDeps {
  conversationsService: ConversationsService;
  conversations: ConversationsRepository;
  actionItems: ActionItemsRepository;
  memories: MemoriesRepository;
  search: SearchRepository;
  imports: AppImportsRepository;
  jobs: WorkQueue;
  clock: Clock;
  wakeWorkers: () => void;
}

export interface ImportConversationInput {
  text: string;
  text_source?: 'audio_transcript' | 'message' | 'other_text';
  text_source_spec?: string | null;
  started_at?: string | null;
  finished_at?: string | null;
  language?: string | null;
  geolocation?: Geolocation | null;
}

export interface ImportMemoriesInput {
  text?: string | null;
  text_source?: string;
  text_source_spec?: string | null;
  memories?: Array<{ content: string; tags?: string[] | null }> | null;
}

export interface IntegrationConversationFilter {
  limit: number;
  offset: number;
  includeDiscarded: boolean;
  statuses: string[];
  startDate?: number;
  endDate?: number;
  maxSegments: number;
}

/** The reference's search request (defaults: every conversation, discarded ones too, page 1 of 10). */
export interface IntegrationSearchInput {
  query: string;
  page: number;
  perPage: number;
  includeDiscarded: boolean;
  startDate?: number;
  endDate?: number;
  maxSegments: number;
}

export interface IntegrationSearchPage {
  conversations: IntegrationConversation[];
  total_pages: number;
  current_page: number;
  per_page: number;
}

/** The reference's task filters are the action item list's. */
export type IntegrationTaskFilter = ActionItemListFilter;

/** What an enabled app does with a user's data (SPEC §4.9); the gates have already admitted it. */
export class IntegrationService {
  constructor(private readonly deps: IntegrationDeps) {}

  /**
   * SPEC §4.9: stored with its processing job in one transaction; processed in the background. The
   * route answers `{}`, which is what an Idempotency-Key receipt records.
   */
  async createConversation(
    appId: string,
    userId: string,
    input: ImportConversationInput,
    receipt?: CreateReceipt,
  ): Promise<void> {
    await this.deps.conversationsService.createFromTextAsync(
      userId,
      { ...input, text_source: input.text_source ?? 'audio_transcript', source: 'external_integration', app_id: appId },
      receipt && ((tx) => receipt(tx, {})),
    );
    this.deps.wakeWorkers();
  }

  /** Explicit memories are saved now; `text` is kept with a job that extracts memories from it. */
  async importMemories(
    appId: string,
    userId: string,
    input: ImportMemoriesInput,
    receipt?: CreateReceipt,
  ): Promise<void> {
    const text = input.text?.trim() ?? '';
    const explicit = input.memories ?? [];
    if (text === '' && explicit.length === 0) throw invalidInput(['body'], Detail.memoriesImportEmpty);
    if (explicit.some((m) => m.content.trim() === ''))
      throw invalidInput(['body', 'memories'], Detail.memoryContentEmpty);
    const now = this.deps.clock.now();
    const importId = randomUUID();
    await this.deps.imports.transaction(async (tx) => {
      await this.deps.memories.insertMany(
        explicit.map((m, i) => appMemoryRow(userId, appId, m.content.trim(), 'system', m.tags ?? [], now + i)),
        tx,
      );
      await receipt?.(tx, {});
      if (text === '') return;
      await this.deps.imports.insert(
        {
          id: importId,
          user_id: userId,
          app_id: appId,
          text,
          text_source: input.text_source ?? 'other',
          text_source_spec: input.text_source_spec ?? null,
          status: 'pending',
          created_at: now,
          updated_at: now,
        },
        tx,
      );
      const job = {
        id: randomUUID(),
        kind: APP_MEMORIES_JOB,
        userId,
        payload: { import_id: importId },
        idempotencyKey: `${APP_MEMORIES_JOB}:${importId}`,
        maxAttempts: 5,
        runAt: now,
      };
      await this.deps.jobs.enqueue(job, now, tx);
    });
    if (text !== '') this.deps.wakeWorkers();
  }

  async listConversations(userId: string, filter: IntegrationConversationFilter): Promise<IntegrationConversation[]> {
    const rows = await this.deps.conversations.list(userId, {
      statuses: filter.statuses,
      includeDiscarded: filter.includeDiscarded,
      startDate: filter.startDate,
      endDate: filter.endDate,
      limit: filter.limit,
      offset: filter.offset,
    });
    return this.present(userId, rows, filter.maxSegments);
  }

  /** Full-text search (every term must occur; an empty query matches all), newest first, in pages. */
  async searchConversations(userId: string, input: IntegrationSearchInput): Promise<IntegrationSearchPage> {
    const terms = this.deps.search.terms(input.query);
    const { rows, total } = await this.deps.search.integrationConversations(userId, terms, {
      includeDiscarded: input.includeDiscarded,
      startDate: input.startDate,
      endDate: input.endDate,
      limit: input.perPage,
      offset: (input.page - 1) * input.perPage,
    });
    return {
      conversations: await this.present(userId, rows, input.maxSegments),
      total_pages: Math.ceil(total / input.perPage),
      current_page: input.page,
      per_page: input.perPage,
    };
  }

  /** The user's action items (the reference calls them tasks), with its filters. */
  async listTasks(userId: string, filter: IntegrationTaskFilter): Promise<ActionItemView[]> {
    return (await this.deps.actionItems.list(userId, filter)).map(toActionItemView);
  }

  private async present(
    userId: string,
    rows: readonly ConversationRow[],
    maxSegments: number,
  ): Promise<IntegrationConversation[]> {
    const ids = rows.map((r) => r.id);
    const [segments, items, events] = await Promise.all([
      this.deps.conversations.segmentsFor(userId, ids),
      this.deps.actionItems.forConversations(userId, ids),
      this.deps.conversations.eventsFor(userId, ids),
    ]);
    return rows.map((row) =>
      toIntegrationConversation(row, {
        segments: segments.get(row.id) ?? [],
        items: items.get(row.id) ?? [],
        events: events.get(row.id) ?? [],
        maxSegments,
      }),
    );
  }

  async listMemories(userId: string, limit: number, offset: number): Promise<IntegrationMemory[]> {
    return (await this.deps.memories.list(userId, { limit, offset })).map(toIntegrationMemory);
  }
}

/** A memory an app contributed: origin `app`, not manually added (research/omi-rest.md §3.3). */
export function appMemoryRow(
  userId: string,
  appId: string,
  content: string,
  category: string,
  tags: readonly string[],
  at: number,
) {
  return {
    id: randomUUID(),
    user_id: userId,
    content,
    category,
    visibility: 'private',
    tags: JSON.stringify(cleanTags(tags)),
    origin: 'app',
    conversation_id: null,
    app_id: appId,
    manually_added: 0,
    reviewed: 0,
    user_review: null,
    edited: 0,
    created_at: at,
    updated_at: at,
  };
}

/** research/omi-rest.md §3.5: ISO 8601 (with `Z`) or a bare date, which means the whole UTC day. */
export function parseDateParam(
  name: 'start_date' | 'end_date' | 'due_start_date' | 'due_end_date',
  value: string | undefined,
): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = parseInstant(value.trim(), name.endsWith('start_date') ? 'start' : 'end');
  if (Number.isNaN(parsed)) throw new AppError(400, Detail.invalidDateParam(name));
  return parsed;
}
