import type { Clock } from '../../context-types.js';
import type { ActionItemsRepository } from '../../store/repositories/action-items.js';
import type { ConversationsRepository } from '../../store/repositories/conversations.js';
import type { FoldersRepository } from '../../store/repositories/folders.js';
import type { GoalsRepository } from '../../store/repositories/goals.js';
import type { MemoriesRepository } from '../../store/repositories/memories.js';
import type { UsersRepository } from '../../store/repositories/users.js';
import type { ConversationsService } from '../conversations/service.js';
import { toActionItemView } from '../conversations/views.js';
import { toFolderView } from '../folders/service.js';
import { toGoalView, toHistoryPoint } from '../goals/service.js';
import type { DevScope } from '../keys/dev-keys.js';
import { toMemoryView } from '../memories/views.js';

export const EXPORT_VERSION = 1;

export type ExportSection = 'folders' | 'conversations' | 'memories' | 'action_items' | 'goals';

/**
 * The export needs `conversations:read` and `memories:read` (checked by the route). Action items and
 * goals are included when the key also holds `action_items:read` / `goals:read`.
 */
export function exportSections(scopes: readonly DevScope[]): ExportSection[] {
  const sections: ExportSection[] = ['folders', 'conversations', 'memories'];
  if (scopes.includes('action_items:read')) sections.push('action_items');
  if (scopes.includes('goals:read')) sections.push('goals');
  return sections;
}

export interface ExportDeps {
  users: UsersRepository;
  folders: FoldersRepository;
  conversationRows: ConversationsRepository;
  conversations: ConversationsService;
  memories: MemoriesRepository;
  actionItems: ActionItemsRepository;
  goals: GoalsRepository;
  clock: Clock;
}

// Rows per query: conversations carry their transcripts, so their pages are small.
const CONVERSATION_PAGE = 25;
const PAGE = 500;

type Cursor = { createdAt: number; id: string } | null;
const cursorOf = (row: { created_at: number; id: string }): Cursor => ({ createdAt: row.created_at, id: row.id });
const line = (value: Record<string, unknown>): string => `${JSON.stringify(value)}\n`;

/**
 * The user's data as NDJSON lines: a header, then folders, conversations (with transcripts, action items
 * and events), memories, action items and goals (with history), then a trailer with the counts. Every
 * table is read page by page in (created_at, id) order, so memory use does not grow with the data.
 */
export class ExportService {
  constructor(private readonly deps: ExportDeps) {}

  async *lines(userId: string, sections: readonly ExportSection[]): AsyncGenerator<string> {
    const user = await this.deps.users.findById(userId);
    yield line({
      type: 'export',
      version: EXPORT_VERSION,
      user: { id: userId, name: user?.name ?? null, email: user?.email ?? null, timezone: user?.timezone ?? null },
      exported_at: new Date(this.deps.clock.now()).toISOString(),
      sections,
    });
    const counts: Record<string, number> = {};
    const sources: Record<ExportSection, () => AsyncGenerator<Record<string, unknown>>> = {
      folders: () => this.folders(userId),
      conversations: () => this.conversations(userId),
      memories: () => this.memories(userId),
      action_items: () => this.actionItems(userId),
      goals: () => this.goals(userId),
    };
    for (const section of sections) {
      counts[section] = 0;
      for await (const record of sources[section]()) {
        counts[section] += 1;
        yield line(record);
      }
    }
    // The trailer tells a reader the export is complete (a cut connection has none).
    yield line({ type: 'end', counts });
  }

  private async *folders(userId: string): AsyncGenerator<Record<string, unknown>> {
    for (const row of await this.deps.folders.listWithCounts(userId)) yield { type: 'folder', ...toFolderView(row) };
  }

  private async *conversations(userId: string): AsyncGenerator<Record<string, unknown>> {
    let cursor: Cursor = null;
    for (;;) {
      const rows = await this.deps.conversationRows.pageAfter(userId, cursor, CONVERSATION_PAGE);
      if (rows.length === 0) return;
      const source = new Map(rows.map((row) => [row.id, row]));
      for (const view of await this.deps.conversations.present(userId, rows, true)) {
        // A conversation created from text keeps that text outside the transcript (SPEC §4.2).
        const row = source.get(view.id);
        yield {
          type: 'conversation',
          ...view,
          text: row?.text ?? null,
          text_source: row?.text_source ?? null,
          text_source_spec: row?.text_source_spec ?? null,
          // Why it was kept or discarded ({verdict, decided_by, reason, engine}), null before it was decided.
          relevance: row?.relevance ? JSON.parse(row.relevance) : null,
        };
      }
      cursor = cursorOf(rows[rows.length - 1]);
    }
  }

  private async *memories(userId: string): AsyncGenerator<Record<string, unknown>> {
    let cursor: Cursor = null;
    for (;;) {
      const rows = await this.deps.memories.pageAfter(userId, cursor, PAGE);
      if (rows.length === 0) return;
      for (const row of rows) yield { type: 'memory', ...toMemoryView(row) };
      cursor = cursorOf(rows[rows.length - 1]);
    }
  }

  private async *actionItems(userId: string): AsyncGenerator<Record<string, unknown>> {
    let cursor: Cursor = null;
    for (;;) {
      const rows = await this.deps.actionItems.pageAfter(userId, cursor, PAGE);
      if (rows.length === 0) return;
      for (const row of rows) yield { type: 'action_item', ...toActionItemView(row) };
      cursor = cursorOf(rows[rows.length - 1]);
    }
  }

  private async *goals(userId: string): AsyncGenerator<Record<string, unknown>> {
    let cursor: Cursor = null;
    for (;;) {
      const rows = await this.deps.goals.pageAfter(userId, cursor, PAGE);
      if (rows.length === 0) return;
      const history = await this.deps.goals.historyFor(
        userId,
        rows.map((r) => r.id),
      );
      for (const row of rows) {
        yield { type: 'goal', ...toGoalView(row), history: (history.get(row.id) ?? []).map(toHistoryPoint) };
      }
      cursor = cursorOf(rows[rows.length - 1]);
    }
  }
}
