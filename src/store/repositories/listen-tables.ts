/** Tables of the live listen stream (migration 0030), added to the shared Database interface. */

export interface RecordingSessionsTable {
  user_id: string;
  /** recording_session_id: the client's client_conversation_id or a server UUID (SPEC §2.5) */
  id: string;
  conversation_id: string;
  schema_version: number;
  lifecycle_version: number;
  /** in_progress | processing | completed | failed | discarded */
  lifecycle_phase: string;
  lifecycle_sequence: number;
  /** Renewed by the live socket; null or past means no socket holds the session. */
  lease_expires_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface FinalizationFanoutsTable {
  /** conversation:{conversation_id}:finalization:{revision} (research/omi-listen.md §2.6) */
  fanout_key: string;
  user_id: string;
  job_id: string;
  conversation_id: string;
  revision: number;
  /** leased | completed */
  status: string;
  attempts: number;
  claimed_at: number;
  completed_at: number | null;
}

declare module '../schema.js' {
  interface Database {
    recording_sessions: RecordingSessionsTable;
    finalization_fanouts: FinalizationFanoutsTable;
  }
}
