import { espeakAvailable, speak as speakVoice } from '../voice/espeak.js';

/** Whether espeak-ng is installed (speech fixtures are rendered, not stored). */
export const hasSpeechTools = espeakAvailable();

/** Renders a sentence with espeak-ng's default pitch as 16 kHz mono PCM16 bytes. */
export function speak(sentence: string, speed = 150): Buffer {
  const samples = speakVoice({ voice: 'en-us', pitch: 50, speed }, sentence);
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
}

export const silence = (seconds: number): Buffer => Buffer.alloc(Math.round(seconds * 16_000) * 2);

/** First and last sample (in seconds) louder than `floor`: where the rendered speech really is. */
export function loudSpan(pcm: Buffer, floor = 500): { start: number; end: number } {
  let first = -1;
  let last = -1;
  for (let i = 0; i < pcm.length >> 1; i++) {
    if (Math.abs(pcm.readInt16LE(i * 2)) < floor) continue;
    if (first < 0) first = i;
    last = i;
  }
  return { start: first / 16_000, end: last / 16_000 };
}

/** A "conversation": speech at known places between silences, with the true speech spans. */
export function conversation(parts: Array<string | number>): {
  pcm: Buffer;
  spans: Array<{ start: number; end: number }>;
} {
  const chunks: Buffer[] = [];
  const spans: Array<{ start: number; end: number }> = [];
  let at = 0;
  for (const part of parts) {
    const chunk = typeof part === 'number' ? silence(part) : speak(part);
    if (typeof part === 'string') {
      const span = loudSpan(chunk);
      spans.push({ start: at + span.start, end: at + span.end });
    }
    chunks.push(chunk);
    at += chunk.length / 32_000;
  }
  return { pcm: Buffer.concat(chunks), spans };
}
