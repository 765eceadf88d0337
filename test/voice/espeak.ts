import { execFileSync } from 'node:child_process';
import { wavTo16kMono } from '../../src/audio/wav.js';

/** Real speech for voice tests: espeak-ng renders text in a given voice and pitch, as 16 kHz PCM16. */

export interface Voice {
  /** espeak-ng voice with variant, e.g. `en-us+m3` */
  voice: string;
  pitch: number;
  speed?: number;
}

let available: boolean | null = null;

export function espeakAvailable(): boolean {
  if (available === null) {
    try {
      execFileSync('espeak-ng', ['--version'], { stdio: 'ignore' });
      available = true;
    } catch {
      available = false;
    }
  }
  return available;
}

/** Why a suite is skipped when espeak-ng is missing (`.ci/run` installs it). */
export const SKIP_NO_ESPEAK = espeakAvailable() ? false : 'espeak-ng is not installed (apt-get install espeak-ng)';

const rendered = new Map<string, Int16Array>();

/** Renders (once per voice and text in a test process) and returns a copy. */
export function speak(voice: Voice, text: string): Int16Array {
  const key = JSON.stringify([voice, text]);
  let samples = rendered.get(key);
  if (!samples) {
    samples = render(voice, text);
    rendered.set(key, samples);
  }
  return samples.slice();
}

function render(voice: Voice, text: string): Int16Array {
  const wav = execFileSync(
    'espeak-ng',
    ['-v', voice.voice, '-p', String(voice.pitch), '-s', String(voice.speed ?? 165), '--stdout', text],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return wavTo16kMono(wav);
}

/** The voices the tests cast as people. */
export const VOICES = {
  user: { voice: 'en-us+m3', pitch: 35 },
  alice: { voice: 'en-us+f2', pitch: 75 },
  stranger: { voice: 'en-us+f5', pitch: 99 },
} satisfies Record<string, Voice>;

export const SENTENCES = [
  'I was thinking we could meet on Thursday afternoon to go over the budget for the next quarter.',
  'The weather has been strange lately, warm in the morning and freezing by the evening.',
  'Could you send me the notes from the meeting before you leave the office today?',
  'My sister moved to a small town by the sea, and she says the bakery there is wonderful.',
  'We should finish the report first and then decide which of the options makes more sense.',
];
