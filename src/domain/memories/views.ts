import type { MemoryRow } from '../../store/repositories/memories.js';
import { MEMORY_CATEGORIES, type MemoryCategory } from '../categories.js';

export type MemorySource = 'manual' | 'conversation' | 'app';

/** The developer API memory (research/omi-rest.md §2.2), plus where it came from. */
export interface MemoryView {
  id: string;
  content: string;
  category: MemoryCategory;
  visibility: 'public' | 'private';
  tags: string[];
  created_at: string;
  updated_at: string;
  manually_added: boolean;
  scoring: string;
  reviewed: boolean;
  user_review: boolean | null;
  edited: boolean;
  source: MemorySource;
  conversation_id: string | null;
  app_id: string | null;
}

/** `{priority:03}_{unix seconds:010}`: manual 100, interesting 60, others 50 (the reference's newer scheme). */
export function scoring(row: Pick<MemoryRow, 'manually_added' | 'category' | 'created_at'>): string {
  const priority = row.manually_added === 1 ? 100 : row.category === 'interesting' ? 60 : 50;
  const seconds = Math.floor(row.created_at / 1000);
  return `${String(priority).padStart(3, '0')}_${String(seconds).padStart(10, '0')}`;
}

export function parseTags(stored: string): string[] {
  // Most memories have no tags: skip the parser for the stored empty list.
  if (stored === '[]') return [];
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
}

const KNOWN_CATEGORIES: ReadonlySet<string> = new Set(MEMORY_CATEGORIES);

export function toMemoryView(row: MemoryRow): MemoryView {
  // Lists map 25+ rows per request; an unedited memory's two times are one string.
  const createdAt = new Date(row.created_at).toISOString();
  return {
    id: row.id,
    content: row.content,
    category: KNOWN_CATEGORIES.has(row.category) ? (row.category as MemoryCategory) : 'interesting',
    visibility: row.visibility === 'public' ? 'public' : 'private',
    tags: parseTags(row.tags),
    created_at: createdAt,
    updated_at: row.updated_at === row.created_at ? createdAt : new Date(row.updated_at).toISOString(),
    manually_added: row.manually_added === 1,
    scoring: scoring(row),
    reviewed: row.reviewed === 1,
    user_review: row.user_review === null ? null : row.user_review === 1,
    edited: row.edited === 1,
    source: row.origin === 'conversation' || row.origin === 'app' ? row.origin : 'manual',
    conversation_id: row.conversation_id,
    app_id: row.app_id,
  };
}
