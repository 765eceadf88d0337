// What the conversation creates accept (SPEC §4.2, §4.3), after route validation.

import { invalidInput } from '../../errors.js';

export interface Geolocation {
  latitude: number;
  longitude: number;
  address?: string | null;
  google_place_id?: string | null;
  location_type?: string | null;
}

export interface CreateFromTextInput {
  text: string;
  text_source?: string;
  text_source_spec?: string | null;
  started_at?: string | null;
  finished_at?: string | null;
  language?: string | null;
  geolocation?: Geolocation | null;
  source?: string;
  app_id?: string | null;
}

export interface SegmentInput {
  text: string;
  start: number;
  end: number;
  speaker?: string | null;
  speaker_id?: number | null;
  is_user?: boolean;
  person_id?: string | null;
}

export interface CreateFromSegmentsInput {
  transcript_segments: SegmentInput[];
  source?: string | null;
  started_at?: string | null;
  finished_at?: string | null;
  language?: string | null;
  geolocation?: Geolocation | null;
  /** The retry id: a second create with the same one returns the first conversation. */
  client_session_id?: string | null;
  /** The same retry id under the names the reference's newer clients send it. */
  client_conversation_id?: string | null;
  session_id?: string | null;
  client_id?: string | null;
}

const RETRY_ID_FIELDS = ['client_session_id', 'client_conversation_id', 'session_id', 'client_id'] as const;

/** The first retry id given under any of its names (trimmed); a blank one is a 422 naming its field. */
export function retryIdOf(input: CreateFromSegmentsInput): string | null {
  for (const field of RETRY_ID_FIELDS) {
    const value = input[field];
    if (value === undefined || value === null) continue;
    const trimmed = value.trim();
    if (trimmed === '') throw invalidInput(['body', field], `${field} cannot be empty`);
    return trimmed;
  }
  return null;
}

export interface CreateResult {
  id: string;
  status: string;
  discarded: boolean;
}
