import { randomUUID } from 'node:crypto';
import type { Clock } from '../../context-types.js';
import { AppError, Detail, invalidInput } from '../../errors.js';
import type { MemoriesRepository, MemoryPatch } from '../../store/repositories/memories.js';
import type { MemoriesTable } from '../../store/schema.js';
import { MEMORY_CATEGORIES, type MemoryCategory } from '../categories.js';
import type { CreateReceipt } from '../ports.js';
import { createWithReceipt } from '../receipts.js';
import { type MemoryView, toMemoryView } from './views.js';

export interface CreateMemoryInput {
  content: string;
  category?: MemoryCategory | null;
  visibility?: 'public' | 'private';
  tags?: string[];
}

export interface UpdateMemoryInput {
  content?: string | null;
  category?: MemoryCategory | null;
  visibility?: 'public' | 'private' | null;
  tags?: string[] | null;
}

// A manually added memory without a category is filed as `manual` (the reference's category for them).
const DEFAULT_CATEGORY: MemoryCategory = 'manual';

/** CSV of memory categories (GET filter); an unknown one is a 400 with the reference's wording. */
export function parseMemoryCategories(csv: string | undefined): string[] | undefined {
  if (csv === undefined) return undefined;
  const values = csv
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const unknown = values.find((v) => !(MEMORY_CATEGORIES as readonly string[]).includes(v));
  if (unknown !== undefined) throw new AppError(400, Detail.invalidMemoryCategory(unknown));
  return values.length > 0 ? values : undefined;
}

/** Tags are trimmed, blank ones dropped, duplicates removed (order kept). */
export function cleanTags(tags: readonly string[] | undefined | null): string[] {
  return [...new Set((tags ?? []).map((t) => t.trim()).filter(Boolean))];
}

export class MemoriesService {
  constructor(
    private readonly memories: MemoriesRepository,
    private readonly clock: Clock,
  ) {}

  async list(userId: string, categoriesCsv: string | undefined, limit: number, offset: number): Promise<MemoryView[]> {
    const rows = await this.memories.list(userId, { categories: parseMemoryCategories(categoriesCsv), limit, offset });
    return rows.map(toMemoryView);
  }

  async create(userId: string, input: CreateMemoryInput, receipt?: CreateReceipt): Promise<MemoryView> {
    const content = input.content.trim();
    if (content === '') throw invalidInput(['body', 'content'], Detail.memoryContentEmpty);
    const row = this.newRow(userId, { ...input, content }, this.clock.now());
    return this.insert([row], toMemoryView(row), receipt);
  }

  /** Every content is checked before anything is written: a rejected batch stores nothing. */
  async createBatch(
    userId: string,
    inputs: readonly CreateMemoryInput[],
    receipt?: CreateReceipt,
  ): Promise<{ memories: MemoryView[]; created_count: number }> {
    if (inputs.some((m) => m.content.trim() === ''))
      throw invalidInput(['body', 'memories'], Detail.memoriesBatchContentEmpty);
    const now = this.clock.now();
    // Later entries get later timestamps, so the batch lists newest-last-in-request first.
    const rows = inputs.map((input, i) => this.newRow(userId, { ...input, content: input.content.trim() }, now + i));
    return this.insert(rows, { memories: rows.map(toMemoryView), created_count: rows.length }, receipt);
  }

  private insert<A>(rows: MemoriesTable[], answer: A, receipt: CreateReceipt | undefined): Promise<A> {
    return createWithReceipt(this.memories, (tx) => this.memories.insertMany(rows, tx), answer, receipt);
  }

  /** Validates the whole patch first, then writes it in one statement (no half-applied edits). */
  async update(userId: string, id: string, input: UpdateMemoryInput): Promise<MemoryView> {
    const existing = await this.memories.findById(userId, id);
    if (!existing) throw new AppError(404, Detail.memoryNotFound);
    const patch: MemoryPatch = {};
    if (input.content !== undefined && input.content !== null) {
      const content = input.content.trim();
      if (content === '') throw invalidInput(['body', 'content'], Detail.memoryContentEmpty);
      patch.content = content;
      patch.edited = 1;
    }
    if (input.category !== undefined && input.category !== null) patch.category = input.category;
    if (input.visibility !== undefined && input.visibility !== null) patch.visibility = input.visibility;
    if (input.tags !== undefined && input.tags !== null) patch.tags = JSON.stringify(cleanTags(input.tags));
    if (Object.keys(patch).length === 0) throw invalidInput(['body'], Detail.memoryPatchEmpty);
    // Strictly later than the old version, so embeddings of the old content count as stale.
    patch.updated_at = Math.max(this.clock.now(), existing.updated_at + 1);
    await this.memories.update(userId, id, patch);
    const updated = await this.memories.findById(userId, id);
    if (!updated) throw new AppError(404, Detail.memoryNotFound);
    return toMemoryView(updated);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.memories.delete(userId, id))) throw new AppError(404, Detail.memoryNotFound);
  }

  /** DESIGN §7: a fresh id per memory; identical content never overwrites an existing one. */
  private newRow(userId: string, input: CreateMemoryInput, now: number): MemoriesTable {
    return {
      id: randomUUID(),
      user_id: userId,
      content: input.content,
      category: input.category ?? DEFAULT_CATEGORY,
      visibility: input.visibility ?? 'private',
      tags: JSON.stringify(cleanTags(input.tags)),
      origin: 'manual',
      conversation_id: null,
      app_id: null,
      manually_added: 1,
      reviewed: 1,
      user_review: 1,
      edited: 0,
      created_at: now,
      updated_at: now,
    };
  }
}
