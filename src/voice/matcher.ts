import type { KnownVoice } from '../store/repositories/voice.js';
import type { VoiceEmbedder } from './port.js';

/** SPEC §8: a speaker matches a known voice below this distance, after this much speech. */
export const MATCH_THRESHOLD = 0.45;
export const MIN_MATCH_SPEECH_SECONDS = 2;

export interface VoiceDistance {
  /** null: the user's own profile */
  personId: string | null;
  personName: string | null;
  distance: number;
}

export interface MatchOutcome {
  /** the closest voice under the threshold, if any */
  match: VoiceDistance | null;
  /** the closest distance to each known voice (for logs, tests and the bench) */
  distances: VoiceDistance[];
}

/**
 * Compares a probe with every known voice (SPEC §6.1): a voice with several vectors counts with its
 * closest one; the closest voice wins when it is under MATCH_THRESHOLD.
 */
export function matchVoice(embedder: VoiceEmbedder, probe: Float32Array, known: readonly KnownVoice[]): MatchOutcome {
  const best = new Map<string, VoiceDistance>();
  for (const voice of known) {
    const key = voice.personId ?? '';
    const distance = embedder.distance(probe, voice.vector);
    const previous = best.get(key);
    if (!previous || distance < previous.distance)
      best.set(key, { personId: voice.personId, personName: voice.personName, distance });
  }
  const distances = [...best.values()].sort((a, b) => a.distance - b.distance);
  const closest = distances[0];
  return { match: closest && closest.distance < MATCH_THRESHOLD ? closest : null, distances };
}
