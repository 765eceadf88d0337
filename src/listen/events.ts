import type { RecordingSessionMode } from '../config.js';
import type { DeveloperConversation } from '../domain/conversations/views.js';
import type { LifecycleRecord } from '../store/repositories/recording-sessions.js';
import { eventConversation } from './event-conversation.js';

/** Frames the server sends on the live stream (SPEC §6.1). Transcript batches are bare arrays. */

export interface Envelope {
  recording_session_id: string;
  conversation_id: string;
  lifecycle_version: number | null;
  lifecycle_phase: string | null;
  lifecycle_sequence: number | null;
}

/** The segment shape of a transcript frame (SPEC §6.1). */
export interface SegmentFrame {
  id: string;
  text: string;
  speaker: string;
  speaker_id: number;
  is_user: boolean;
  person_id: string | null;
  start: number;
  end: number;
  stt_provider: string | null;
}

/**
 * SPEC §9 / research/omi-listen.md §2.3: the durable envelope, or the legacy one (ids only, null
 * lifecycle fields) when the mode is shadow or the durable binding disagrees.
 */
export function envelopeOf(record: LifecycleRecord, trusted: boolean): Envelope {
  const legacy = !trusted || !record.accepted;
  return {
    recording_session_id: record.recordingSessionId,
    conversation_id: record.conversationId,
    lifecycle_version: legacy ? null : 1,
    lifecycle_phase: legacy ? null : record.phase,
    lifecycle_sequence: legacy ? null : record.sequence,
  };
}

export function legacyEnvelope(recordingSessionId: string, conversationId: string): Envelope {
  return {
    recording_session_id: recordingSessionId,
    conversation_id: conversationId,
    lifecycle_version: null,
    lifecycle_phase: null,
    lifecycle_sequence: null,
  };
}

export function trustsDurableStore(mode: RecordingSessionMode): boolean {
  return mode !== 'shadow';
}

export function conversationSessionEvent(envelope: Envelope, status: string) {
  return { type: 'conversation_session', ...envelope, status };
}

export function memoryEvent(
  type: 'memory_processing_started' | 'memory_created',
  envelope: Envelope,
  conversation: DeveloperConversation,
) {
  return {
    type,
    ...envelope,
    memory: eventConversation(conversation),
    messages: type === 'memory_created' ? [] : null,
  };
}

export interface ServiceStatus {
  status: string;
  status_text?: string;
  provider?: string | null;
  outcome?: string;
  retryable?: boolean;
  reason?: string;
}

export function serviceStatusEvent(status: ServiceStatus) {
  // Newer servers omit null fields (research/omi-listen.md §1.4).
  return Object.fromEntries(Object.entries({ type: 'service_status', ...status }).filter(([, v]) => v !== undefined));
}
