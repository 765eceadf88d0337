import type { Insertable } from 'kysely';
import { Detail, invalidInput } from '../../errors.js';
import type { ConversationRow } from '../../store/repositories/conversations.js';
import type { ConversationsTable, TranscriptSegmentsTable } from '../../store/schema.js';
import { timeOrderedId } from '../ids.js';
import type { SegmentInput } from './inputs.js';

// Rows the conversations service writes, and the checks before it writes them.

/** research/omi-rest.md §2.1: per segment in order, first failure wins, 0-based index. */
export function validateSegments(segments: readonly SegmentInput[]): void {
  segments.forEach((segment, i) => {
    const at = (field: string) => ['body', 'transcript_segments', i, field];
    if (segment.end <= segment.start) throw invalidInput(at('end'), Detail.segmentEndBeforeStart(i));
    if (segment.start < 0) throw invalidInput(at('start'), Detail.segmentNegativeStart(i));
    if (segment.text.trim() === '') throw invalidInput(at('text'), Detail.segmentTextEmpty(i));
  });
}

export function toSegmentRow(
  userId: string,
  conversationId: string,
  seq: number,
  segment: SegmentInput,
): Insertable<TranscriptSegmentsTable> {
  const speaker = segment.speaker?.trim() || 'SPEAKER_00';
  const fromLabel = /_(\d+)$/.exec(speaker);
  return {
    id: timeOrderedId(),
    user_id: userId,
    conversation_id: conversationId,
    seq,
    text: segment.text.trim(),
    speaker,
    // SPEC §4.3: speaker_id is computed from the SPEAKER_<nn> label unless given.
    speaker_id: segment.speaker_id ?? (fromLabel ? Number(fromLabel[1]) : 0),
    is_user: segment.is_user ? 1 : 0,
    person_id: segment.person_id ?? null,
    start_sec: segment.start,
    end_sec: segment.end,
  };
}

/** Whether processing decided to keep the conversation (and so gave it its summary and extraction). */
export function keptByPipeline(row: ConversationRow): boolean {
  if (!row.relevance) return false;
  try {
    return (JSON.parse(row.relevance) as { verdict?: unknown }).verdict === 'keep';
  } catch {
    return false;
  }
}

/** The row as the database holds it after the insert (columns the insert left out are null). */
export function storedRow(row: Insertable<ConversationsTable> & { id: string }): ConversationRow {
  return { ...NULL_COLUMNS, ...row };
}

const NULL_COLUMNS = {
  started_at: null,
  finished_at: null,
  folder_id: null,
  language: null,
  source: null,
  text_source: null,
  text_source_spec: null,
  text: null,
  geolocation: null,
  relevance: null,
  processing: null,
  app_id: null,
  client_session_id: null,
} satisfies Partial<ConversationRow>;
