import { SAMPLE_RATE } from './port.js';

/** Which 25 ms frames of a clip carry voice: an energy gate shared by every embedder. */

export const FRAME = 400; // 25 ms at 16 kHz
export const HOP = 160; // 10 ms
/** Frames more than 35 dB below the loudest frame, or below an absolute floor, are silence. */
const RELATIVE_FLOOR = 10 ** -3.5;
const ABSOLUTE_FLOOR = 1e-6;

/** Mean square of each frame, on the [-1, 1] scale. */
function frameEnergies(samples: Int16Array): Float64Array {
  const count = samples.length < FRAME ? 0 : Math.floor((samples.length - FRAME) / HOP) + 1;
  const energies = new Float64Array(count);
  for (let f = 0; f < count; f++) {
    let sum = 0;
    for (let i = 0, at = f * HOP; i < FRAME; i++, at++) {
      const v = samples[at] / 32768;
      sum += v * v;
    }
    energies[f] = sum / FRAME;
  }
  return energies;
}

/** Indexes of the voiced frames (frame f starts at sample f × HOP). */
export function voicedFrames(samples: Int16Array): number[] {
  const energies = frameEnergies(samples);
  let peak = 0;
  for (const e of energies) peak = Math.max(peak, e);
  const floor = Math.max(ABSOLUTE_FLOOR, peak * RELATIVE_FLOOR);
  const voiced: number[] = [];
  for (let f = 0; f < energies.length; f++) if (energies[f] >= floor) voiced.push(f);
  return voiced;
}

export function voicedSeconds(samples: Int16Array): number {
  return (voicedFrames(samples).length * HOP) / SAMPLE_RATE;
}
