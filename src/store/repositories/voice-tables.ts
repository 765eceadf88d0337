/** Tables of voices and audio (migration 0040), added to the shared Database interface. */

export interface VoiceEmbeddingsTable {
  id: string;
  user_id: string;
  /** the person the voice belongs to; null is the user's own voice profile */
  person_id: string | null;
  /** `spectral-v1` or `sherpa:<model>`: vectors of different engines are never compared */
  engine: string;
  /** 256 float32 values, little-endian */
  vector: Buffer;
  speech_ms: number;
  /** upload | sample */
  source: string;
  created_at: number;
}

export interface SpeakerSamplesTable {
  id: string;
  user_id: string;
  /** null: a sample of the user's own voice */
  person_id: string | null;
  conversation_id: string;
  segment_id: string;
  /** the segment's span, ms from the conversation's started_at */
  start_ms: number;
  end_ms: number;
  /** 16 kHz PCM16 cut from the live stream; null → read from the conversation's stored audio parts */
  audio: Buffer | null;
  /** pending | done | skipped */
  status: string;
  reason: string | null;
  created_at: number;
  processed_at: number | null;
}

export interface AudioPartsTable {
  id: string;
  user_id: string;
  conversation_id: string;
  /** epoch ms (wall clock) of the part's first sample */
  started_at: number;
  /** 16 kHz mono PCM16: duration = bytes / 32000 s */
  bytes: number;
  storage_key: string;
  /** how many of the part's bytes its cached MP3 encoding (`<storage_key>.<n>.mp3`) covers */
  encoded_bytes: number | null;
  created_at: number;
  updated_at: number;
}

export interface ConversationAudioTable {
  user_id: string;
  conversation_id: string;
  /** over the parts the artifact was built from (research/omi-listen.md §5) */
  fingerprint: string;
  /** cached | unavailable */
  status: string;
  reason: string | null;
  /** wall-clock span of the audio, ms */
  duration_ms: number;
  /** audio in the artifact, ms */
  captured_ms: number;
  /** JSON [{file_id, wall_offset, artifact_offset, len}] */
  spans: string;
  storage_key: string | null;
  bytes: number;
  built_at: number;
}

declare module '../schema.js' {
  interface Database {
    voice_embeddings: VoiceEmbeddingsTable;
    speaker_samples: SpeakerSamplesTable;
    audio_parts: AudioPartsTable;
    conversation_audio: ConversationAudioTable;
  }
}
