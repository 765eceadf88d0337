import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../src/context.js';
import type { Database } from '../../src/store/schema.js';

/** Arranges a stored conversation directly (completed unless told), with optional transcript segments. */
export async function seedConversation(
  ctx: AppContext,
  userId: string,
  fields: {
    title?: string;
    overview?: string;
    text?: string | null;
    segments?: string[];
    status?: string;
    discarded?: boolean;
    starred?: boolean;
    folderId?: string | null;
    category?: string;
    createdAt?: number;
  } = {},
): Promise<string> {
  const id = randomUUID();
  const now = fields.createdAt ?? ctx.clock.now();
  await ctx.repos.conversations.insert(
    {
      id,
      user_id: userId,
      created_at: now,
      updated_at: now,
      started_at: now,
      finished_at: now + 60_000,
      status: fields.status ?? 'completed',
      discarded: fields.discarded ? 1 : 0,
      starred: fields.starred ? 1 : 0,
      folder_id: fields.folderId ?? null,
      title: fields.title ?? 'A conversation',
      overview: fields.overview ?? '',
      category: fields.category ?? 'other',
      emoji: '🧠',
      language: 'en',
      source: 'phone',
      text: fields.text ?? null,
      revision: 0,
    },
    (fields.segments ?? []).map((text, seq) => ({
      id: randomUUID(),
      user_id: userId,
      conversation_id: id,
      seq,
      text,
      speaker: 'SPEAKER_00',
      speaker_id: 0,
      is_user: 0,
      person_id: null,
      start_sec: seq,
      end_sec: seq + 1,
    })),
  );
  return id;
}

/** Arranges a memory as the pipeline or an app import would store it. */
export async function seedMemory(
  ctx: AppContext,
  userId: string,
  fields: {
    content: string;
    origin?: 'manual' | 'conversation' | 'app';
    conversationId?: string;
    appId?: string;
    category?: string;
    userReview?: number | null;
    createdAt?: number;
  },
): Promise<string> {
  const id = randomUUID();
  const now = fields.createdAt ?? ctx.clock.now();
  await ctx.repos.memories.insertMany([
    {
      id,
      user_id: userId,
      content: fields.content,
      category: fields.category ?? 'system',
      visibility: 'private',
      tags: '[]',
      origin: fields.origin ?? 'conversation',
      conversation_id: fields.conversationId ?? null,
      app_id: fields.appId ?? null,
      manually_added: 0,
      reviewed: 0,
      user_review: fields.userReview === undefined ? null : fields.userReview,
      edited: 0,
      created_at: now,
      updated_at: now,
    },
  ]);
  return id;
}

/** Arranges an action item extracted from a conversation. */
export async function seedActionItem(
  ctx: AppContext,
  userId: string,
  fields: {
    description: string;
    conversationId?: string | null;
    completed?: boolean;
    dueAt?: number | null;
    createdAt?: number;
  },
): Promise<string> {
  const id = randomUUID();
  const now = fields.createdAt ?? ctx.clock.now();
  await ctx.repos.actionItems.insertMany([
    {
      id,
      user_id: userId,
      conversation_id: fields.conversationId ?? null,
      description: fields.description,
      completed: fields.completed ? 1 : 0,
      completed_at: fields.completed ? now : null,
      due_at: fields.dueAt ?? null,
      created_at: now,
      updated_at: now,
    },
  ]);
  return id;
}

type UserTable = 'memories' | 'action_items' | 'goals' | 'folders' | 'goal_progress' | 'conversations';

/** Rows a user has in a table (to prove a rejected request wrote nothing). */
export async function countRows(ctx: AppContext, table: UserTable & keyof Database, userId: string): Promise<number> {
  const row = await ctx.store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
