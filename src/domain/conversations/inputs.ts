// What the conversation creates accept (SPEC §4.2, §4.3), after route validation.

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
  client_session_id?: string | null;
}

export interface CreateResult {
  id: string;
  status: string;
  discarded: boolean;
}
