import { textFault } from '../domain/text.js';
import type { SttSegment } from '../providers/stt/port.js';

/** Client → server control messages (research/omi-listen.md §1.5), validated into typed values. */

export interface SuggestedTranscript {
  type: 'suggested_transcript';
  segments: SttSegment[];
  sttProvider: string | null;
}

export interface SpeakerAssigned {
  type: 'speaker_assigned';
  speakerId: number;
  personId: string;
  personName: string | null;
  segmentIds: string[];
}

export type ControlMessage = SuggestedTranscript | SpeakerAssigned | { type: 'ignored' };

const MAX_SEGMENTS = 100;
const MAX_TEXT = 10_000;

/** Invalid JSON, unknown types and malformed fields are ignored, never fatal (as upstream). */
export function parseControlMessage(text: string): ControlMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { type: 'ignored' };
  }
  if (!isRecord(value)) return { type: 'ignored' };
  if (value.type === 'suggested_transcript') return suggestedTranscript(value);
  if (value.type === 'speaker_assigned') return speakerAssigned(value);
  return { type: 'ignored' };
}

function suggestedTranscript(value: Record<string, unknown>): ControlMessage {
  if (!Array.isArray(value.segments)) return { type: 'ignored' };
  const segments: SttSegment[] = [];
  for (const raw of value.segments.slice(0, MAX_SEGMENTS)) {
    const segment = clientSegment(raw);
    if (segment) segments.push(segment);
  }
  const provider = typeof value.stt_provider === 'string' ? value.stt_provider.slice(0, 64) : null;
  return { type: 'suggested_transcript', segments, sttProvider: provider };
}

function clientSegment(raw: unknown): SttSegment | null {
  if (!isRecord(raw)) return null;
  const { text, start, end, speaker, is_user: isUser } = raw;
  // Text a database cannot store (NUL, lone surrogates) is dropped like any other malformed segment.
  if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_TEXT || textFault(text)) return null;
  if (typeof start !== 'number' || typeof end !== 'number' || !Number.isFinite(start) || !Number.isFinite(end))
    return null;
  if (start < 0 || end < start) return null;
  const label = typeof speaker === 'string' && /^SPEAKER_\d{1,3}$/.test(speaker) ? speaker : undefined;
  return { text: text.trim(), start, end, speaker: label, isUser: isUser === true };
}

function speakerAssigned(value: Record<string, unknown>): ControlMessage {
  const { speaker_id: speakerId, person_id: personId, person_name: personName, segment_ids: segmentIds } = value;
  if (typeof speakerId !== 'number' || !Number.isInteger(speakerId) || typeof personId !== 'string')
    return { type: 'ignored' };
  if (textFault(personId) || (typeof personName === 'string' && textFault(personName))) return { type: 'ignored' };
  const ids = Array.isArray(segmentIds)
    ? segmentIds.filter((id): id is string => typeof id === 'string' && !textFault(id)).slice(0, 1000)
    : [];
  return {
    type: 'speaker_assigned',
    speakerId,
    personId: personId.slice(0, 128),
    personName: typeof personName === 'string' ? personName.slice(0, 200) : null,
    segmentIds: ids,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
