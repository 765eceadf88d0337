import type { ActionItemRow } from '../../store/repositories/action-items.js';
import type { ConversationView, EventRow, SegmentRow } from '../../store/repositories/conversations.js';
import { CONVERSATION_CATEGORIES, type ConversationCategory } from '../categories.js';

/** The developer API read shape (SPEC §2.1). */
export interface DeveloperConversation {
  id: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  structured: {
    title: string;
    overview: string;
    category: ConversationCategory;
    emoji: string;
    action_items: ConversationActionItemView[];
    events: Array<{ title: string; description: string; start: string; duration: number; created: boolean }>;
  };
  language: string | null;
  source: string | null;
  folder_id: string | null;
  folder_name: string | null;
  starred: boolean;
  status: string;
  discarded: boolean;
  geolocation: GeolocationView | null;
  transcript_segments: SegmentView[] | null;
  /** Completed results of the user's summarization apps for this conversation (docs/apps.md). */
  apps_results: AppResultView[];
}

export interface AppResultView {
  app_id: string;
  content: string;
}

export interface GeolocationView {
  latitude: number;
  longitude: number;
  address?: string | null;
  google_place_id?: string | null;
  location_type?: string | null;
}

export interface ConversationActionItemView {
  id: string;
  description: string;
  completed: boolean;
  completed_at: string | null;
  conversation_id: string | null;
  created_at: string;
  updated_at: string;
  due_at: string | null;
}

export interface SegmentView {
  id: string;
  text: string;
  speaker: string;
  speaker_id: number;
  speaker_name: string;
  is_user: boolean;
  person_id: string | null;
  start: number;
  end: number;
}

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const isoAlways = (ms: number): string => new Date(ms).toISOString();

export interface SpeakerNames {
  userName: string;
  people: Map<string, string>;
}

export function toActionItemView(row: ActionItemRow): ConversationActionItemView {
  return {
    id: row.id,
    description: row.description,
    completed: row.completed === 1,
    completed_at: iso(row.completed_at),
    conversation_id: row.conversation_id,
    created_at: isoAlways(row.created_at),
    updated_at: isoAlways(row.updated_at),
    due_at: iso(row.due_at),
  };
}

/** SPEC §2.1: the user's name for is_user, a known person's name, else `Speaker <n>`. */
export function toSegmentView(row: SegmentRow, names: SpeakerNames): SegmentView {
  const person = row.person_id ? names.people.get(row.person_id) : undefined;
  return {
    id: row.id,
    text: row.text,
    speaker: row.speaker,
    speaker_id: row.speaker_id,
    speaker_name: row.is_user === 1 ? names.userName : (person ?? `Speaker ${row.speaker_id}`),
    is_user: row.is_user === 1,
    person_id: row.person_id,
    start: row.start_sec,
    end: row.end_sec,
  };
}

export function toDeveloperConversation(
  row: ConversationView,
  parts: {
    items: ActionItemRow[];
    events: EventRow[];
    segments: SegmentRow[] | null;
    names: SpeakerNames;
    appResults?: AppResultView[];
  },
): DeveloperConversation {
  return {
    id: row.id,
    created_at: isoAlways(row.created_at),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    structured: {
      title: row.title,
      overview: row.overview,
      category: asCategory(row.category),
      emoji: row.emoji,
      action_items: parts.items.map(toActionItemView),
      events: parts.events.map((e) => ({
        title: e.title,
        description: e.description,
        start: isoAlways(e.start_at),
        duration: e.duration,
        created: e.created === 1,
      })),
    },
    language: row.language,
    source: row.source,
    folder_id: row.folder_id,
    folder_name: row.folder_id ? row.folder_name : null,
    starred: row.starred === 1,
    status: row.status,
    discarded: row.discarded === 1,
    geolocation: row.geolocation ? (JSON.parse(row.geolocation) as GeolocationView) : null,
    transcript_segments: parts.segments ? parts.segments.map((s) => toSegmentView(s, parts.names)) : null,
    apps_results: parts.appResults ?? [],
  };
}

export function asCategory(value: string): ConversationCategory {
  return (CONVERSATION_CATEGORIES as readonly string[]).includes(value) ? (value as ConversationCategory) : 'other';
}
