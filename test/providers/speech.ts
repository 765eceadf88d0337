import { spawnSync } from 'node:child_process';

/** Whether espeak-ng and sox are installed (speech fixtures are rendered, not stored). */
export const hasSpeechTools = ['espeak-ng', 'sox'].every(
  (bin) => spawnSync(bin, ['--version'], { stdio: 'ignore' }).error === undefined,
);

/** Renders a sentence with espeak-ng as 16 kHz mono PCM16 (sox resamples from 22.05 kHz). */
export function speak(sentence: string, voice = 'en-us'): Buffer {
  const wav = spawnSync('espeak-ng', ['-v', voice, '-s', '150', '--stdout', sentence], { maxBuffer: 1 << 24 }).stdout;
  return spawnSync('sox', ['-t', 'wav', '-', '-t', 'raw', '-r', '16000', '-e', 'signed', '-b', '16', '-c', '1', '-'], {
    input: wav,
    maxBuffer: 1 << 24,
  }).stdout;
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
