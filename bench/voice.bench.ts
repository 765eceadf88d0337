import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { Mp3Encoder } from '@breezystack/lamejs';
import { type ArtifactPlan, assembleArtifact, fingerprint, type PartRef, planArtifact } from '../src/audio/artifact.js';
import { type ClipEncoder, EncoderPool } from '../src/audio/encoder-pool.js';
import { encodeClip } from '../src/audio/mp3.js';
import { wavTo16kMono } from '../src/audio/wav.js';
import type { KnownVoice } from '../src/store/repositories/voice.js';
import { matchVoice } from '../src/voice/matcher.js';
import { SpectralSignature } from '../src/voice/spectral.js';

/**
 * Voices and audio. Budgets: embedding plus matching adds under 20 ms per segment on one
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

/** One 60 s part of distinct, speech-like audio: a gliding voiced tone with noise (seeded). */
function partAudio(index: number, seconds: number): Int16Array {
  let seed = 1 + index * 7919;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  const f0 = 110 + (index % 12) * 15;
  return Int16Array.from({ length: seconds * 16000 }, (_, i) => {
    const f = f0 * (1 + 0.1 * Math.sin((2 * Math.PI * 3 * i) / 16000));
    const envelope = 0.5 + 0.5 * Math.sin((2 * Math.PI * 2 * i) / 16000);
    const voiced = Math.sin((2 * Math.PI * f * i) / 16000) + 0.4 * Math.sin((6 * Math.PI * f * i) / 16000);
    return Math.round(envelope * 5000 * voiced + 1200 * noise());
  });
}

/** The previous encoder, as the baseline: pure-JS LAME port, same settings, whole frames. */
function lamejsEncode(samples: Int16Array): number {
  const encoder = new Mp3Encoder(1, 16000, 48);
  let bytes = 0;
  for (let at = 0; at < samples.length; at += 576 * 64)
    bytes += encoder.encodeBuffer(samples.subarray(at, at + 576 * 64)).length;
  return bytes + encoder.flush().length;
}

const since = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;
const ratio = (seconds: number, audio: number) => `${(seconds / audio).toFixed(5)} × the audio duration`;
const budget = (seconds: number) => `budget 10 s: ${seconds < 10 ? 'met' : 'MISSED'}`;

interface Conversation {
  audio: Int16Array[];
  parts: PartRef[];
  plan: ArtifactPlan;
  seconds: number;
}

/** 60 parts of 60 s with small gaps (filled) and one 10-minute pause (collapsed). */
function conversation(minutes: number, partSeconds: number): Conversation {
  const audio = Array.from({ length: minutes }, (_, i) => partAudio(i, partSeconds));
  const parts: PartRef[] = [];
  let at = 0;
  for (let i = 0; i < minutes; i++) {
    parts.push({ id: `p${i}`, startedAt: at, bytes: partSeconds * 32000, updatedAt: 0 });
    at += partSeconds * 1000 + (i === 30 ? 600_000 : 500);
  }
  const plan = planArtifact(parts);
  return { audio, parts, plan, seconds: plan.durationMs / 1000 };
}

/** A build as the job runs it: parts encoded `lanes` at a time with `encode`, then joined. */
async function build(c: Conversation, encode: ClipEncoder, lanes: number) {
  const started = process.hrtime.bigint();
  const clips = new Map<string, Buffer>();
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < c.parts.length; i = next++) clips.set(c.parts[i].id, await encode(c.audio[i]));
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  const encoded = since(started);
  const joinStarted = process.hrtime.bigint();
  const built = await assembleArtifact(c.plan, async (p) => clips.get(p.id) ?? null);
  fingerprint(c.parts);
  return { encoded, joined: since(joinStarted), total: since(started), bytes: built?.mp3.length ?? 0 };
}

/**
 * A 60-minute conversation. Warm: live capture encoded each part as it closed; the build joins
 * frames, adds silence and fingerprints. Cold: no part encoded yet; the build encodes all 60 on
 * the encoder threads first. Baseline: the pure-JS lamejs encoder, measured in this run.
 */
async function artifactBench(): Promise<string[]> {
  const [minutes, partSeconds] = [60, 60];
  const c = conversation(minutes, partSeconds);
  await encodeClip(c.audio[0]); // loads the WASM module
  const cpuBefore = process.cpuUsage();
  const inline = await build(c, encodeClip, 1);
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6; // what the build costs on a core of its own
  const perPart = inline.encoded / minutes;
  const pool = new EncoderPool();
  await Promise.all([pool.encode(c.audio[0]), pool.encode(c.audio[1])]); // starts the threads
  const cold = await build(c, pool.encode, 4);
  await pool.close();
  const sample = 6;
  lamejsEncode(c.audio[0].subarray(0, 16000 * 5)); // JIT warm-up
  const baseStarted = process.hrtime.bigint();
  for (let i = 0; i < sample; i++) lamejsEncode(c.audio[i]);
  const basePerPart = since(baseStarted) / sample;
  const baseCold = basePerPart * minutes + inline.joined;
  return [
    `60-minute conversation (${(c.seconds / 60).toFixed(1)} min of MP3 after gap filling, ${(cold.bytes / 1e6).toFixed(1)} MB, ${minutes} parts of ${partSeconds} s; ${availableParallelism()} cores, load ${loadavg()[0].toFixed(2)}):`,
    `  encoding one ${partSeconds} s part as it closes (LAME WASM, one thread): ${perPart.toFixed(3)} s, ${ratio(perPart, partSeconds)}`,
    `  warm build (every part encoded: join frames + silence + fingerprint): ${inline.joined.toFixed(3)} s, ${ratio(inline.joined, c.seconds)} (${budget(inline.joined)})`,
    `  cold build on the encoder threads (encode all ${minutes}, then join): ${cold.total.toFixed(2)} s, ${ratio(cold.total, c.seconds)} (${budget(cold.total)})`,
    `  cold build on one thread: ${inline.total.toFixed(2)} s, ${ratio(inline.total, c.seconds)}; its CPU time ${cpuSeconds.toFixed(2)} s ` +
      `(${ratio(cpuSeconds, c.seconds)}: the wall time on an idle core; ~${(cpuSeconds / availableParallelism()).toFixed(1)} s on ${availableParallelism()} idle cores)`,
    `  baseline, pure-JS lamejs: ${basePerPart.toFixed(3)} s per part (${ratio(basePerPart, partSeconds)}); a cold build ~${baseCold.toFixed(1)} s on one thread ` +
      `(${ratio(baseCold, c.seconds)}, from ${sample} parts). LAME WASM encodes ${(basePerPart / perPart).toFixed(1)}× faster; the threaded cold build is ${(baseCold / cold.total).toFixed(1)}× faster`,
  ];
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  return { name: 'voices and audio', lines: [...embeddingBench(), ...(await artifactBench())] };
}
