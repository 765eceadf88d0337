// Silero VAD (sherpa-onnx) against the energy detector on the same espeak-ng conversation: CPU time
// per second of audio, the ratio between them, and how close each cut is to the real speech.
import { EnergyVad } from '../src/providers/vad/energy.js';
import type { Utterance, VoiceActivityDetector } from '../src/providers/vad/port.js';
import { loadSilero } from '../src/providers/vad/silero.js';
import { conversation } from '../test/providers/speech.js';

const RATE = 16_000;
const REPEAT = 20;

function measure(make: (on: (u: Utterance) => void) => VoiceActivityDetector, pcm: Buffer) {
  let cuts: Utterance[] = [];
  const started = process.cpuUsage();
  for (let r = 0; r < REPEAT; r++) {
    cuts = [];
    const vad = make((u) => cuts.push(u));
    for (let at = 0; at < pcm.length; at += 640) vad.push(pcm.subarray(at, at + 640));
    vad.flush();
    vad.close();
  }
  const used = process.cpuUsage(started);
  const audioSeconds = (REPEAT * pcm.length) / (RATE * 2);
  return { msPerAudioSecond: (used.user + used.system) / 1000 / audioSeconds, cuts };
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const name = `vad: Silero (sherpa-onnx) vs energy detector, espeak-ng conversation × ${REPEAT}`;
  const silero = loadSilero();
  if (!silero.ok) return { name, lines: [`skipped: ${silero.reason}`] };
  const { pcm } = conversation([
    1,
    'Remind me to call the dentist tomorrow morning.',
    2,
    'Also buy some bread and milk on the way home tonight.',
    2,
  ]);
  const energy = measure((on) => new EnergyVad(on), pcm);
  const neural = measure(silero.create, pcm);
  const cuts = (u: Utterance[]) => u.map((c) => `${c.start.toFixed(2)}–${c.end.toFixed(2)} s`).join(', ');
  return {
    name,
    lines: [
      `audio: ${(pcm.length / (RATE * 2)).toFixed(2)} s per pass, 20 ms frames`,
      `energy: ${energy.msPerAudioSecond.toFixed(3)} ms CPU per audio second; cuts ${cuts(energy.cuts)}`,
      `silero: ${neural.msPerAudioSecond.toFixed(3)} ms CPU per audio second; cuts ${cuts(neural.cuts)}`,
      `ratio silero / energy CPU: ${(neural.msPerAudioSecond / energy.msPerAudioSecond).toFixed(1)}×`,
    ],
  };
}
