import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EnergyVad } from '../../../src/providers/vad/energy.js';
import { chooseVad } from '../../../src/providers/vad/index.js';
import type { Utterance, VoiceActivityDetector } from '../../../src/providers/vad/port.js';
import { loadSilero } from '../../../src/providers/vad/silero.js';
import { conversation, hasSpeechTools } from '../speech.js';

/** Feeds `pcm` in frames of `frameBytes` (20 ms by default, as a device sends them). */
function run(make: (on: (u: Utterance) => void) => VoiceActivityDetector, pcm: Buffer, frameBytes = 640): Utterance[] {
  const found: Utterance[] = [];
  const vad = make((u) => found.push(u));
  for (let at = 0; at < pcm.length; at += frameBytes) vad.push(pcm.subarray(at, at + frameBytes));
  vad.flush();
  vad.close();
  return found;
}

describe('Silero VAD', { skip: hasSpeechTools ? false : 'espeak-ng is not installed' }, () => {
  const silero = loadSilero();

  test('sherpa-onnx-node and the model shipped in @ricky0123/vad-web load; auto picks Silero', () => {
    assert.equal(silero.ok, true, silero.ok ? '' : silero.reason);
    assert.equal(chooseVad('auto').engine, 'silero');
    assert.equal(chooseVad('energy').engine, 'energy');
  });

  test('utterances between silences are cut at the speech boundaries', () => {
    assert.ok(silero.ok, 'silero.ok');
    const { pcm, spans } = conversation([
      1.0,
      'Hello there, this is the first sentence of the test.',
      1.5,
      'And here comes the second one, after a pause.',
      1.2,
    ]);
    const found = run(silero.create, pcm);
    assert.equal(found.length, 2, JSON.stringify(found.map((u) => [u.start, u.end])));
    found.forEach((u, i) => {
      assert.ok(Math.abs(u.start - spans[i].start) <= 0.1, `start ${u.start} vs speech at ${spans[i].start}`);
      assert.ok(u.end >= spans[i].end - 0.1 && u.end <= spans[i].end + 0.3, `end ${u.end} vs ${spans[i].end}`);
      assert.equal(u.pcm.length, Math.round((u.end - u.start) * 16_000) * 2);
    });
    // The cut does not depend on how the audio is framed (one buffer, odd sizes).
    for (const frameBytes of [pcm.length, 1023, 3200])
      assert.deepEqual(
        run(silero.create, pcm, frameBytes).map((u) => [u.start, u.end]),
        found.map((u) => [u.start, u.end]),
      );
  });

  test('a loud steady tone is not speech to Silero (the energy detector takes it)', () => {
    assert.ok(silero.ok, 'silero.ok');
    const tone = Buffer.alloc(32_000 * 2);
    for (let i = 0; i < 16_000; i++)
      tone.writeInt16LE(Math.round(9000 * Math.sin((2 * Math.PI * 440 * i) / 16_000)), (i + 8000) * 2);
    assert.equal(run(silero.create, tone).length, 0);
    assert.equal(run((on) => new EnergyVad(on), tone).length, 1);
  });
});
