import type { Insertable } from 'kysely';
import { timeOrderedId } from '../domain/ids.js';
import type { SttSegment } from '../providers/stt/port.js';
import type { LiveConversationsRepository } from '../store/repositories/live-conversations.js';
import type { TranscriptSegmentsTable } from '../store/schema.js';
import type { SegmentFrame } from './events.js';
import type { SpeakerAssigned } from './receiver.js';

/** The conversation a session is writing to. */
export interface CurrentConversation {
  recordingSessionId: string;
  conversationId: string;
  /** epoch ms of the conversation start, fixed by its first segment */
  startedAt: number | null;
  hasSegments: boolean;
  nextSeq: number;
  /** epoch ms of the last transcript write (the silence clock of SPEC §3.1) */
  finishedAt: number;
}

export interface RawSegment extends SttSegment {
  sttProvider: string | null;
}

/**
 * Transcript assembly (research/omi-listen.md §1.10): a batch is sorted by start, its times moved
 * from stream time to conversation time, persisted, and only then returned for sending.
 */
export class TranscriptWriter {
  /** speaker_id → person assigned by the client (speaker_assigned), applied to later segments */
  readonly speakerPeople = new Map<number, string>();

  constructor(
    private readonly userId: string,
    private readonly live: LiveConversationsRepository,
  ) {}

  /** SPEC §4.11 speaker_assigned: later segments of that speaker and the named ones get the person. */
  async assignSpeaker(conversationId: string | null, message: SpeakerAssigned): Promise<void> {
    const isUser = message.personId === 'user';
    // A client names people by id: only the user's own people may be written onto segments.
    if (!isUser && !(await this.live.isUsersPerson(this.userId, message.personId))) return;
    this.speakerPeople.set(message.speakerId, message.personId);
    if (!conversationId) return;
    await this.live.assignSpeaker(
      this.userId,
      conversationId,
      message.segmentIds,
      isUser ? null : message.personId,
      isUser,
    );
  }

  /**
   * Persists a batch. `origin` is the epoch ms that stream time 0 stands for. Returns the frames to
   * send, or null when the conversation is no longer writable (fenced).
   */
  async write(
    conversation: CurrentConversation,
    batch: RawSegment[],
    origin: number,
    now: number,
  ): Promise<SegmentFrame[] | null> {
    const sorted = [...batch].sort((a, b) => a.start - b.start);
    const first = conversation.hasSegments ? undefined : Math.round(origin + sorted[0].start * 1000);
    const startedAt = first ?? conversation.startedAt ?? origin;
    const offset = (origin - startedAt) / 1000;
    const rows = sorted.map((segment, i) => this.row(conversation, segment, conversation.nextSeq + i, offset));
    const ok = await this.live.appendBatch(this.userId, conversation.conversationId, rows, {
      finishedAt: now,
      startedAt: first,
    });
    if (!ok) return null;
    conversation.nextSeq += rows.length;
    conversation.hasSegments = true;
    conversation.startedAt = startedAt;
    conversation.finishedAt = now;
    return rows.map((row, i) => toFrame(row, sorted[i].sttProvider));
  }

  private row(
    conversation: CurrentConversation,
    segment: RawSegment,
    seq: number,
    offset: number,
  ): Insertable<TranscriptSegmentsTable> & { id: string } {
    const speaker = segment.speaker ?? 'SPEAKER_00';
    const speakerId = Number(/_(\d+)$/.exec(speaker)?.[1] ?? 0);
    const person = this.speakerPeople.get(speakerId) ?? null;
    const start = round3(Math.max(0, segment.start + offset));
    return {
      id: timeOrderedId(),
      user_id: this.userId,
      conversation_id: conversation.conversationId,
      seq,
      text: segment.text,
      speaker,
      speaker_id: speakerId,
      is_user: segment.isUser === true || person === 'user' ? 1 : 0,
      person_id: person === 'user' ? null : person,
      start_sec: start,
      end_sec: round3(Math.max(start, segment.end + offset)),
    };
  }
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function toFrame(row: Insertable<TranscriptSegmentsTable> & { id: string }, sttProvider: string | null): SegmentFrame {
  return {
    id: row.id,
    text: row.text,
    speaker: row.speaker,
    speaker_id: row.speaker_id,
    is_user: row.is_user === 1,
    person_id: row.person_id ?? null,
    start: row.start_sec,
    end: row.end_sec,
    stt_provider: sttProvider,
  };
}
