import { randomUUID } from 'node:crypto';
import type { Clock } from '../../context-types.js';
import { AppError, Detail, invalidInput } from '../../errors.js';
import type {
  ActionItemListFilter,
  ActionItemPatch,
  ActionItemsRepository,
} from '../../store/repositories/action-items.js';
import type { ActionItemsTable } from '../../store/schema.js';
import { type ConversationActionItemView, toActionItemView } from '../conversations/views.js';
import { parseInstant } from '../instant.js';
import type { CreateReceipt } from '../ports.js';
import { createWithReceipt } from '../receipts.js';

export type ActionItemView = ConversationActionItemView;

export interface CreateActionItemInput {
  description: string;
  completed?: boolean;
  due_at?: string | null;
}

/** `due_at` absent leaves the due date alone; `null` removes it (SPEC §4.7). */
export interface UpdateActionItemInput {
  description?: string | null;
  completed?: boolean | null;
  due_at?: string | null;
}

const parseTime = (value: string | null | undefined): number | null => (value ? parseInstant(value) : null);

/**
 * Action items of the developer API. Items extracted from conversations live in the same table, so the
 * conversation read (`structured.action_items`) always shows the state written here.
 */
export class ActionItemsService {
  constructor(
    private readonly items: ActionItemsRepository,
    private readonly clock: Clock,
  ) {}

  async list(userId: string, filter: ActionItemListFilter): Promise<ActionItemView[]> {
    return (await this.items.list(userId, filter)).map(toActionItemView);
  }

  async create(userId: string, input: CreateActionItemInput, receipt?: CreateReceipt): Promise<ActionItemView> {
    const description = input.description.trim();
    if (description === '') throw invalidInput(['body', 'description'], Detail.actionItemDescriptionEmpty);
    const row = this.newRow(userId, { ...input, description }, this.clock.now());
    return createWithReceipt(this.items, (tx) => this.items.insertMany([row], tx), toActionItemView(row), receipt);
  }

  /** All descriptions are checked before anything is written: a rejected batch stores nothing. */
  async createBatch(
    userId: string,
    inputs: readonly CreateActionItemInput[],
    receipt?: CreateReceipt,
  ): Promise<{ action_items: ActionItemView[]; created_count: number }> {
    if (inputs.some((i) => i.description.trim() === ''))
      throw invalidInput(['body', 'action_items'], Detail.actionItemsBatchDescriptionEmpty);
    const now = this.clock.now();
    const rows = inputs.map((input, i) =>
      this.newRow(userId, { ...input, description: input.description.trim() }, now + i),
    );
    const answer = { action_items: rows.map(toActionItemView), created_count: rows.length };
    return createWithReceipt(this.items, (tx) => this.items.insertMany(rows, tx), answer, receipt);
  }

  /** research/omi-rest.md §2.3 order: unknown or foreign id → 404, then no effective field → 422. */
  async update(userId: string, id: string, input: UpdateActionItemInput): Promise<ActionItemView> {
    const existing = await this.items.findById(userId, id);
    if (!existing) throw new AppError(404, Detail.actionItemNotFound);
    const now = this.clock.now();
    const patch: ActionItemPatch = {};
    if (input.description !== undefined && input.description !== null) {
      const description = input.description.trim();
      if (description === '') throw invalidInput(['body', 'description'], Detail.actionItemDescriptionEmpty);
      patch.description = description;
    }
    if (input.completed !== undefined && input.completed !== null) {
      // SPEC §4.7 / research §2.3: completing stamps completed_at with now; reopening clears it.
      patch.completed = input.completed ? 1 : 0;
      patch.completed_at = input.completed ? now : null;
    }
    if (input.due_at !== undefined) patch.due_at = parseTime(input.due_at);
    if (Object.keys(patch).length === 0) throw invalidInput(['body'], Detail.atLeastOneField);
    await this.items.update(userId, id, { ...patch, updated_at: now });
    const updated = await this.items.findById(userId, id);
    if (!updated) throw new AppError(404, Detail.actionItemNotFound);
    return toActionItemView(updated);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.items.delete(userId, id))) throw new AppError(404, Detail.actionItemNotFound);
  }

  private newRow(userId: string, input: CreateActionItemInput, now: number): ActionItemsTable {
    return {
      id: randomUUID(),
      user_id: userId,
      conversation_id: null,
      description: input.description,
      completed: input.completed ? 1 : 0,
      completed_at: input.completed ? now : null,
      due_at: parseTime(input.due_at),
      created_at: now,
      updated_at: now,
    };
  }
}
