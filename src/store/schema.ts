import type { Generated } from 'kysely';

/**
 * The database schema, as Kysely sees it. Conventions (both dialects): text ids, times as epoch
 * milliseconds (bigint), booleans as 0/1 integers, JSON as text.
 */

export interface UsersTable {
  id: string;
  name: string;
  email: string | null;
  timezone: string;
  /** JSON object of per-user settings (e.g. audio capture). */
  settings: string;
  created_at: number;
  updated_at: number;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  hashed_key: string;
  key_prefix: string;
  /** JSON array of scopes; null means the read-only default (research/omi-rest.md §1.4). */
  scopes: string | null;
  created_at: number;
  last_used_at: number | null;
}

export interface FoldersTable {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  color: string;
  icon: string;
  position: number;
  created_at: number;
  updated_at: number;
}

export interface PeopleTable {
  id: string;
  user_id: string;
  name: string;
  created_at: number;
  updated_at: number;
}

export interface ConversationsTable {
  id: string;
  user_id: string;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** in_progress | processing | completed | failed */
  status: string;
  discarded: number;
  starred: number;
  folder_id: string | null;
  title: string;
  overview: string;
  category: string;
  emoji: string;
  language: string | null;
  source: string | null;
  text_source: string | null;
  text_source_spec: string | null;
  /** The created text (text create only); segment conversations keep their text in transcript_segments. */
  text: string | null;
  geolocation: string | null;
  /** JSON {verdict, decided_by, reason, engine} */
  relevance: string | null;
  /** JSON {structure, extraction, fallback?} describing which engine produced the results. */
  processing: string | null;
  app_id: string | null;
  client_session_id: string | null;
  /** Incremented on every reprocess; finalization jobs are keyed by it. */
  revision: number;
}

export interface TranscriptSegmentsTable {
  id: string;
  user_id: string;
  conversation_id: string;
  seq: number;
  text: string;
  speaker: string;
  speaker_id: number;
  is_user: number;
  person_id: string | null;
  start_sec: number;
  end_sec: number;
}

export interface ActionItemsTable {
  id: string;
  user_id: string;
  conversation_id: string | null;
  description: string;
  completed: number;
  completed_at: number | null;
  due_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface ConversationEventsTable {
  id: string;
  user_id: string;
  conversation_id: string;
  seq: number;
  title: string;
  description: string;
  start_at: number;
  duration: number;
  created: number;
}

export interface MemoriesTable {
  id: string;
  user_id: string;
  content: string;
  category: string;
  visibility: string;
  tags: string;
  /** manual | conversation | app */
  origin: string;
  conversation_id: string | null;
  app_id: string | null;
  manually_added: number;
  reviewed: number;
  user_review: number | null;
  edited: number;
  created_at: number;
  updated_at: number;
}

export interface GoalsTable {
  id: string;
  user_id: string;
  title: string;
  goal_type: string;
  target_value: number;
  current_value: number;
  min_value: number;
  max_value: number;
  unit: string | null;
  is_active: number;
  created_at: number;
  updated_at: number;
  ended_at: number | null;
  /** the client's id of the goal (its own id unless the create named one); unique per user */
  goal_id: string | null;
  /** active, paused, completed or archived (deactivated by a newer goal) */
  status: string;
  source: string;
  desired_outcome: string | null;
  why_it_matters: string | null;
  /** JSON array of strings */
  success_criteria: string;
  horizon_at: number | null;
}

export interface GoalProgressTable {
  goal_id: string;
  user_id: string;
  /** UTC day, YYYY-MM-DD */
  day: string;
  value: number;
  recorded_at: number;
}

export interface JobsTable {
  id: string;
  kind: string;
  user_id: string;
  /** JSON of ids only: never transcript text, keys or raw errors (SPEC §3.2). */
  payload: string;
  /** queued | leased | completed | dead_letter | blocked_byok */
  status: string;
  attempts: number;
  max_attempts: number;
  run_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  last_error: string | null;
  idempotency_key: string;
  dispatch_generation: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  folders: FoldersTable;
  people: PeopleTable;
  conversations: ConversationsTable;
  transcript_segments: TranscriptSegmentsTable;
  action_items: ActionItemsTable;
  conversation_events: ConversationEventsTable;
  memories: MemoriesTable;
  goals: GoalsTable;
  goal_progress: GoalProgressTable;
  jobs: JobsTable;
}

/** One unit of durable background work (SPEC §3.2: the payload holds ids only). */
export interface NewJob {
  id: string;
  kind: string;
  userId: string;
  payload: Record<string, string | number | boolean | null>;
  idempotencyKey: string;
  maxAttempts: number;
  runAt: number;
  status?: 'queued' | 'blocked_byok';
}
