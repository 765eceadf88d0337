import type { ActionItemRow } from '../../store/repositories/action-items.js';
import type { ConversationRow, EventRow, SegmentRow } from '../../store/repositories/conversations.js';
import type { MemoryRow } from '../../store/repositories/memories.js';
import { asCategory, type GeolocationView } from '../conversations/views.js';

/** SPEC §2.3: the integration read shape of a conversation (datetimes in UTC with `Z`). */
export interface IntegrationConversation {
  id: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** The full transcript text. */
  text: string;
  /** Required by the reference's ConversationItem: `unknown` when the conversation has none. */
  source: string;
  language: string | null;
  status: string;
  discarded: boolean;
  app_id: string | null;
  structured: {
    title: string;
    overview: string;
    emoji: string;
    category: string;
    action_items: Array<{ description: string; completed: boolean; due_at: string | null }>;
    events: Array<{ title: string; description: string; start: string; duration: number; created: boolean }>;
  };
  transcript_segments: IntegrationSegment[];
  geolocation: GeolocationView | null;
}

/** SPEC §2.3 names the times `start_time`/`end_time`; `start`/`end` are kept for reference clients. */
export interface IntegrationSegment {
  text: string;
  speaker: string;
  speaker_id: number;
  is_user: boolean;
  person_id: string | null;
  start_time: number;
  end_time: number;
  start: number;
  end: number;
}

/** SPEC §2.4: the integration read shape of a memory, with the reference MemoryItem's required fields and flags. */
export interface IntegrationMemory {
  id: string;
  uid: string;
  content: string;
  category: string;
  tags: string[];
  app_id: string | null;
  conversation_id: string | null;
  created_at: string;
  updated_at: string;
  /** The reference's lifecycle layer: every stored memory here is long-term (there is no tiering). */
  layer: MemoryLayer;
  memory_tier: MemoryLayer;
  visibility: string;
  manually_added: boolean;
  reviewed: boolean;
  user_review: boolean | null;
  edited: boolean;
  is_locked: boolean;
  kg_extracted: boolean;
}

type MemoryLayer = 'short_term' | 'long_term' | 'archive';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function toIntegrationConversation(
  row: ConversationRow,
  parts: { segments: SegmentRow[]; items: ActionItemRow[]; events: EventRow[]; maxSegments: number },
): IntegrationConversation {
  const shown = parts.maxSegments < 0 ? parts.segments : parts.segments.slice(0, parts.maxSegments);
  return {
    id: row.id,
    created_at: iso(row.created_at),
    started_at: isoOrNull(row.started_at),
    finished_at: isoOrNull(row.finished_at),
    text: row.text ?? parts.segments.map((s) => s.text).join('\n'),
    source: row.source ?? 'unknown',
    language: row.language,
    status: row.status,
    discarded: row.discarded === 1,
    app_id: row.app_id,
    structured: {
      title: row.title,
      overview: row.overview,
      emoji: row.emoji,
      category: asCategory(row.category),
      action_items: parts.items.map((i) => ({
        description: i.description,
        completed: i.completed === 1,
        due_at: isoOrNull(i.due_at),
      })),
      events: parts.events.map((e) => ({
        title: e.title,
        description: e.description,
        start: iso(e.start_at),
        duration: e.duration,
        created: e.created === 1,
      })),
    },
    transcript_segments: shown.map(toIntegrationSegment),
    geolocation: row.geolocation ? (JSON.parse(row.geolocation) as GeolocationView) : null,
  };
}

function toIntegrationSegment(s: SegmentRow): IntegrationSegment {
  return {
    text: s.text,
    speaker: s.speaker,
    speaker_id: s.speaker_id,
    is_user: s.is_user === 1,
    person_id: s.person_id,
    start_time: s.start_sec,
    end_time: s.end_sec,
    start: s.start_sec,
    end: s.end_sec,
  };
}

export function toIntegrationMemory(row: MemoryRow): IntegrationMemory {
  const tags: unknown = JSON.parse(row.tags);
  return {
    id: row.id,
    uid: row.user_id,
    content: row.content,
    category: row.category,
    tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [],
    app_id: row.app_id,
    conversation_id: row.conversation_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    layer: 'long_term',
    memory_tier: 'long_term',
    visibility: row.visibility,
    manually_added: row.manually_added === 1,
    reviewed: row.reviewed === 1,
    user_review: row.user_review === null ? null : row.user_review === 1,
    edited: row.edited === 1,
    // Nothing here is locked or fed to a knowledge graph.
    is_locked: false,
    kg_extracted: false,
  };
}
