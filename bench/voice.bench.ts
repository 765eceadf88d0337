import { execFileSync } from 'node:child_process';
import { assembleArtifact, type PartRef, planArtifact } from '../src/audio/artifact.js';
import { encodeClip } from '../src/audio/mp3.js';
import { wavTo16kMono } from '../src/audio/wav.js';
import type { KnownVoice } from '../src/store/repositories/voice.js';
import { matchVoice } from '../src/voice/matcher.js';
import { SpectralSignature } from '../src/voice/spectral.js';

/**
 * Voices and audio (issue 7). Budgets: embedding plus matching adds under 20 ms per segment on one
 * core; a 60-minute conversation MP3 builds in under 10 s. Both are reported as ratios to the audio
 * duration they process, measured in this run (a real-time factor: 0.01 means 100× faster than
 * real time).
 */

const SEGMENT_SECONDS = 2;
const KNOWN_PEOPLE = 20;
const VECTORS_PER_PERSON = 10;

/** 2 s of speech: espeak-ng when installed, else a voiced tone with vibrato. */
function segmentAudio(): { samples: Int16Array; source: string } {
  try {
    const wav = execFileSync('espeak-ng', [
      '-v',
      'en-us+f2',
      '-p',
      '70',
      '--stdout',
      'We should meet on Thursday to go over the numbers.',
    ]);
    return { samples: wavTo16kMono(wav).subarray(0, SEGMENT_SECONDS * 16000), source: 'espeak-ng speech' };
  } catch {
    const samples = Int16Array.from({ length: SEGMENT_SECONDS * 16000 }, (_, i) => {
      const f0 = 140 + 15 * Math.sin((2 * Math.PI * 4 * i) / 16000);
      return Math.round(
        5000 * (Math.sin((2 * Math.PI * f0 * i) / 16000) + 0.5 * Math.sin((4 * Math.PI * f0 * i) / 16000)),
      );
    });
    return { samples, source: 'a synthetic voiced tone (espeak-ng not installed)' };
  }
}

function knownVoices(dim: number): KnownVoice[] {
  const voices: KnownVoice[] = [];
  for (let p = 0; p < KNOWN_PEOPLE; p++) {
    for (let v = 0; v < VECTORS_PER_PERSON; v++) {
      const vector = Float32Array.from({ length: dim }, (_, i) => Math.sin(p * 31 + v * 7 + i));
      voices.push({ personId: p === 0 ? null : `person-${p}`, personName: p === 0 ? null : `P${p}`, vector });
    }
  }
  return voices;
}

function embeddingBench(): string[] {
  const signature = new SpectralSignature();
  const { samples, source } = segmentAudio();
  const first = signature.embed(samples);
  if (!first) throw new Error('no embedding for the bench segment');
  const known = knownVoices(first.length);
  for (let i = 0; i < 20; i++) matchVoice(signature, signature.embed(samples) ?? first, known); // warm-up
  const rounds = 200;
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) {
    const vector = signature.embed(samples);
    if (vector) matchVoice(signature, vector, known);
  }
  const msPerSegment = Number(process.hrtime.bigint() - started) / 1e6 / rounds;
  return [
    `embedding + matching one ${SEGMENT_SECONDS} s segment (${source}) against ${KNOWN_PEOPLE} voices × ${VECTORS_PER_PERSON} vectors:`,
    `  ${msPerSegment.toFixed(2)} ms per segment (budget 20 ms: ${msPerSegment < 20 ? 'met' : 'MISSED'}), ` +
      `${(msPerSegment / (SEGMENT_SECONDS * 1000)).toFixed(4)} × the audio duration`,
  ];
}

/**
 * A 60-minute conversation: 60 parts of 60 s with small gaps (filled) and one long pause
 * (collapsed). Live capture encodes each part when it closes; the artifact build joins frames.
 */
async function artifactBench(): Promise<string[]> {
  const minutes = 60;
  const partSeconds = 60;
  const samples = Int16Array.from({ length: partSeconds * 16000 }, (_, i) =>
    Math.round(4000 * Math.sin((2 * Math.PI * 220 * i) / 16000) + 800 * Math.sin(i * 0.37)),
  );
  const parts: PartRef[] = [];
  let at = 0;
  for (let i = 0; i < minutes; i++) {
    parts.push({ id: `p${i}`, startedAt: at, bytes: samples.length * 2, updatedAt: 0 });
    at += partSeconds * 1000 + (i === 30 ? 600_000 : 500);
  }
  const encodeStarted = process.hrtime.bigint();
  const encoded = encodeClip(samples);
  const encodeSeconds = Number(process.hrtime.bigint() - encodeStarted) / 1e9;
  const plan = planArtifact(parts);
  const started = process.hrtime.bigint();
  const assembled = await assembleArtifact(plan, async () => encoded);
  const buildSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const audioSeconds = plan.durationMs / 1000;
  const coldSeconds = encodeSeconds * minutes + buildSeconds;
  return [
    `encoding one ${partSeconds} s part to MP3 (lamejs, once per part as it closes): ${encodeSeconds.toFixed(2)} s, ` +
      `${(encodeSeconds / partSeconds).toFixed(4)} × the audio duration`,
    `building the ${(audioSeconds / 60).toFixed(1)}-minute MP3 from encoded parts (${((assembled?.mp3.length ?? 0) / 1e6).toFixed(1)} MB): ` +
      `${buildSeconds.toFixed(3)} s (budget 10 s: ${buildSeconds < 10 ? 'met' : 'MISSED'}), ${(buildSeconds / audioSeconds).toFixed(5)} × the audio duration`,
    `the same build with no part encoded yet (all 60 encoded in the job): ~${coldSeconds.toFixed(1)} s, ` +
      `${(coldSeconds / audioSeconds).toFixed(4)} × the audio duration (budget 10 s: ${coldSeconds < 10 ? 'met' : 'MISSED'})`,
  ];
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  return { name: 'voices and audio', lines: [...embeddingBench(), ...(await artifactBench())] };
}
