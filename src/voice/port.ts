import { cosineSimilarity } from '../domain/vectors.js';

/**
 * The voice-embedding port (SPEC §6.1 "Speaker matching", DESIGN §6 Voices): 16 kHz mono audio in,
 * a 256-dimensional vector out. Vectors of different engines are never compared with each other.
 */

export const EMBEDDING_DIM = 256;
export const SAMPLE_RATE = 16_000;

export interface VoiceEmbedder {
  /** Stored with every vector: `spectral-v1`, or `sherpa:<model file name>`. */
  readonly engine: string;
  /** Seconds of voiced audio the embedder found in the input (silence is not speech). */
  speechSeconds(samples: Int16Array): number;
  /** A 256-d vector of the voiced part of `samples` (16 kHz PCM16); null when there is too little speech. */
  embed(samples: Int16Array): Float32Array | null;
  /**
   * The engine's distance on the contract's scale (SPEC §8: a match is below 0.45). A calibrated
   * engine maps its raw cosine distance here; an uncalibrated one returns it unchanged.
   */
  distance(a: Float32Array, b: Float32Array): number;
}

/** Cosine distance: 0 identical, 1 orthogonal, 2 opposite; different lengths or a zero vector → 2. */
export function cosineDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const similarity = cosineSimilarity(a, b);
  return similarity === null ? 2 : 1 - similarity;
}
