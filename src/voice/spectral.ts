import { PowerSpectrum } from './fft.js';
import { cosineDistance, EMBEDDING_DIM, SAMPLE_RATE, type VoiceEmbedder } from './port.js';
import { FRAME, HOP, voicedFrames, voicedSeconds } from './voicing.js';

/**
 * The offline fallback voice signature (DESIGN §6 Voices): a long-term spectrum, not a learned
 * speaker model. 128 log-mel band means over the voiced frames (their straight-line trend across
 * bands removed, so loudness and the tilt all speech shares do not count) and 128 band standard
 * deviations = 256 values. It separates voices whose
 * pitch and timbre differ clearly (a man and a woman); it does not separate similar voices.
 * docs/voices-and-audio.md states the measured accuracy.
 */

const BANDS = EMBEDDING_DIM / 2;
const FFT_SIZE = 512;
const MIN_HZ = 50;
const MAX_HZ = 7800;
/** Below this much voiced audio a signature is noise (SPEC §8 asks 2 s before a match anyway). */
const MIN_VOICED_SECONDS = 0.5;

const STD_WEIGHT = 0.5;

interface BandStats {
  sum: Float64Array;
  squares: Float64Array;
  n: number;
}

interface Filter {
  start: number;
  weights: Float64Array;
}

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hzOf = (m: number) => 700 * (10 ** (m / 2595) - 1);

/** Triangular mel filters over the FFT bins, each normalised to sum 1 (a band's mean power). */
function melFilters(): Filter[] {
  const binHz = SAMPLE_RATE / FFT_SIZE;
  const lo = mel(MIN_HZ);
  const step = (mel(MAX_HZ) - lo) / (BANDS + 1);
  const filters: Filter[] = [];
  for (let b = 0; b < BANDS; b++) {
    const [left, center, right] = [0, 1, 2].map((i) => hzOf(lo + (b + i) * step) / binHz);
    const start = Math.ceil(left);
    const end = Math.max(start, Math.floor(right));
    const weights = new Float64Array(end - start + 1);
    for (let k = start; k <= end; k++) {
      const w = k <= center ? (k - left) / (center - left) : (right - k) / (right - center);
      weights[k - start] = Math.max(0, w);
    }
    const sum = weights.reduce((a, w) => a + w, 0);
    if (sum === 0) {
      // A low band narrower than one bin: use the bin nearest its centre.
      filters.push({ start: Math.round(center), weights: Float64Array.of(1) });
      continue;
    }
    for (let i = 0; i < weights.length; i++) weights[i] /= sum;
    filters.push({ start, weights });
  }
  return filters;
}

const FILTERS = melFilters();
const WINDOW = Float64Array.from({ length: FRAME }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (FRAME - 1)));

export class SpectralSignature implements VoiceEmbedder {
  readonly engine = 'spectral-v1';
  private readonly spectrum = new PowerSpectrum(FFT_SIZE);
  private readonly frame = new Float64Array(FRAME);
  private readonly power = new Float64Array(FFT_SIZE / 2 + 1);

  speechSeconds(samples: Int16Array): number {
    return voicedSeconds(samples);
  }

  embed(samples: Int16Array): Float32Array | null {
    const stats = this.stats(samples);
    return stats ? this.vector(stats) : null;
  }

  private stats(samples: Int16Array): BandStats | null {
    const voiced = voicedFrames(samples);
    if ((voiced.length * HOP) / SAMPLE_RATE < MIN_VOICED_SECONDS) return null;
    const sum = new Float64Array(BANDS);
    const squares = new Float64Array(BANDS);
    for (const f of voiced) {
      this.logMel(samples, f * HOP, (b, value) => {
        sum[b] += value;
        squares[b] += value * value;
      });
    }
    return { sum, squares, n: voiced.length };
  }

  distance(a: Float32Array, b: Float32Array): number {
    return calibrate(cosineDistance(a, b));
  }

  private logMel(samples: Int16Array, at: number, sink: (band: number, value: number) => void): void {
    for (let i = 0; i < FRAME; i++) this.frame[i] = (samples[at + i] / 32768) * WINDOW[i];
    this.spectrum.compute(this.frame, this.power);
    for (let b = 0; b < BANDS; b++) {
      const { start, weights } = FILTERS[b];
      let energy = 0;
      for (let i = 0; i < weights.length; i++) energy += weights[i] * this.power[start + i];
      sink(b, Math.log(energy + 1e-10));
    }
  }

  /**
   * The band means minus their straight-line fit across bands (this removes loudness and the
   * spectral tilt every voice shares, keeping formants and pitch), then the band deviations,
   * centred and weighted half (they vary with what is said more than with who says it).
   */
  private vector(stats: BandStats): Float32Array {
    const { sum, squares, n } = stats;
    const means = sum.map((v) => v / n);
    const stds = squares.map((v, b) => Math.sqrt(Math.max(0, v / n - means[b] * means[b])));
    const out = new Float32Array(EMBEDDING_DIM);
    out.set(detrend(means), 0);
    const meanOfStds = stds.reduce((a, v) => a + v, 0) / BANDS;
    for (let b = 0; b < BANDS; b++) out[BANDS + b] = STD_WEIGHT * (stds[b] - meanOfStds);
    return out;
  }
}

/** Subtracts the least-squares line over the band index. */
function detrend(values: Float64Array): Float64Array {
  const n = values.length;
  const xMean = (n - 1) / 2;
  const yMean = values.reduce((a, v) => a + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (i - xMean) * (values[i] - yMean);
    sxx += (i - xMean) ** 2;
  }
  const slope = sxy / sxx;
  return values.map((v, i) => v - yMean - slope * (i - xMean));
}

/**
 * Raw cosine distance → the contract's scale (SPEC §8: a match is below 0.45). Measured on espeak-ng
 * voices (docs/voices-and-audio.md, test/voice/embedder.test.ts): on 2.5 s probes the same voice
 * stays under 0.17 raw and a voice of the other sex is above 0.45 raw; a raw 0.25 is put at 0.45.
 */
export const CALIBRATION = 0.45 / 0.25;

function calibrate(raw: number): number {
  return Math.min(2, raw * CALIBRATION);
}
