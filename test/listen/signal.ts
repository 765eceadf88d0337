/** Test signals for the codec tests: a sine tone and what survives of it after a codec. */

export function tone(ms: number, rate: number, hz = 440, amplitude = 9000): Int16Array {
  return Int16Array.from({ length: Math.round((ms * rate) / 1000) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)),
  );
}

/** Length, RMS and (over the loud 10 ms blocks only) the zero-crossing frequency of 16 kHz PCM16. */
export function stats(pcm: Buffer): { seconds: number; rms: number; hz: number } {
  const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
  let sum = 0;
  let crossings = 0;
  let loud = 0;
  for (let block = 0; block + 160 <= samples.length; block += 160) {
    let energy = 0;
    for (let i = block; i < block + 160; i++) energy += samples[i] * samples[i];
    sum += energy;
    if (Math.sqrt(energy / 160) < 1000) continue;
    loud += 160;
    for (let i = Math.max(1, block); i < block + 160; i++) if (samples[i - 1] < 0 && samples[i] >= 0) crossings++;
  }
  const n = samples.length;
  return { seconds: n / 16_000, rms: Math.sqrt(sum / Math.max(1, n)), hz: crossings / (Math.max(1, loud) / 16_000) };
}
