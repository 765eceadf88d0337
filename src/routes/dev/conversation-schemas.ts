import { Type } from 'typebox';
import { CONVERSATION_CATEGORIES } from '../../domain/categories.js';
import { DateTime, Nullable } from '../../http/schemas.js';

// The developer API's conversation shapes (SPEC §2.1), shared by the conversation, folder and search routes.

export const SOURCES = [
  'omi',
  'friend',
  'openglass',
  'phone',
  'desktop',
  'apple_watch',
  'bee',
  'plaud',
  'frame',
  'screenpipe',
  'workflow',
  'sdcard',
  'external_integration',
] as const;

export const GeolocationInput = Type.Object(
  {
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
    address: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    google_place_id: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    location_type: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  },
  // Stored as given: undeclared keys are dropped by the validator, so they never reach the row.
  { additionalProperties: false },
);

export const ActionItemView = Type.Object({
  id: Type.String(),
  description: Type.String(),
  completed: Type.Boolean(),
  completed_at: Nullable(DateTime()),
  conversation_id: Nullable(Type.String()),
  created_at: Nullable(DateTime()),
  updated_at: Nullable(DateTime()),
  due_at: Nullable(DateTime()),
});

export const SegmentView = Type.Object({
  id: Nullable(Type.String()),
  text: Type.String(),
  speaker: Type.String(),
  speaker_id: Nullable(Type.Integer()),
  speaker_name: Nullable(Type.String()),
  is_user: Type.Boolean(),
  person_id: Nullable(Type.String()),
  start: Type.Number(),
  end: Type.Number(),
});

/** A calendar event extracted from a conversation, as both the developer and integration reads show it. */
export const EventView = Type.Object({
  title: Type.String(),
  description: Type.String(),
  start: DateTime(),
  duration: Type.Integer(),
  created: Type.Boolean(),
});

export const GeolocationView = Type.Object({
  latitude: Type.Number(),
  longitude: Type.Number(),
  address: Type.Optional(Nullable(Type.String())),
  google_place_id: Type.Optional(Nullable(Type.String())),
  location_type: Type.Optional(Nullable(Type.String())),
});

export const DeveloperConversation = Type.Object(
  {
    id: Type.String(),
    created_at: DateTime(),
    started_at: Nullable(DateTime()),
    finished_at: Nullable(DateTime()),
    structured: Type.Object({
      title: Type.String(),
      overview: Type.String(),
      category: Type.Enum([...CONVERSATION_CATEGORIES]),
      emoji: Type.String(),
      action_items: Type.Array(ActionItemView),
      events: Type.Array(EventView),
    }),
    language: Nullable(Type.String()),
    source: Nullable(Type.String()),
    folder_id: Nullable(Type.String()),
    folder_name: Nullable(Type.String()),
    starred: Type.Boolean(),
    status: Type.String(),
    discarded: Type.Boolean(),
    geolocation: Nullable(GeolocationView),
    transcript_segments: Nullable(Type.Array(SegmentView)),
    apps_results: Type.Array(Type.Object({ app_id: Type.String(), content: Type.String() }), {
      description: "completed results of the user's summarization apps (docs/apps.md)",
    }),
  },
  { $id: 'DeveloperConversation' },
);
