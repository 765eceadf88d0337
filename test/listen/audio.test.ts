import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createDecoder, Resampler, validateAudioFormat } from '../../src/providers/audio/codecs.js';
import { EnergyVad, type Utterance } from '../../src/providers/vad/energy.js';

const tone = (ms: number, rate = 16_000, amplitude = 8000) => {
  const samples = Int16Array.from({ length: (ms * rate) / 1000 }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * 220 * i) / rate)),
  );
  return Buffer.from(samples.buffer);
};

describe('audio formats', () => {
  test('pcm16 and pcm8 are accepted at 8, 16, 44.1 and 48 kHz; other rates are refused with the rate named', () => {
    for (const rate of [8000, 16000, 44100, 48000])
      assert.deepEqual(validateAudioFormat('pcm16', rate), { codec: 'pcm16', sampleRate: rate });
    assert.deepEqual(validateAudioFormat('pcm', 16000), { codec: 'pcm16', sampleRate: 16000 });
    assert.deepEqual(validateAudioFormat('linear16', 16000), { codec: 'pcm16', sampleRate: 16000 });
    for (const rate of [0, -16000, 16001, 96000, 30_000_000]) {
      const result = validateAudioFormat('pcm16', rate);
      assert.ok(
        'reason' in result && result.reason.includes(String(rate)) && Buffer.byteLength(result.reason) <= 123,
        "'reason' in result && result.reason.includes(String(rate)) && Buffer.byteLength(result.reason) <=...",
      );
    }
  });

  test('opus, aac and lc3_fs1030 are accepted at their rates; bare lc3 is refused for want of a frame duration', () => {
    assert.deepEqual(validateAudioFormat('opus_fs320', 24000), { codec: 'opus', sampleRate: 24000 });
    assert.ok('reason' in validateAudioFormat('opus', 44100), "'reason' in validateAudioFormat('opus', 44100)");
    assert.deepEqual(validateAudioFormat('aac', 16000), { codec: 'aac', sampleRate: 16000 });
    assert.deepEqual(validateAudioFormat('lc3_fs1030', 16000), { codec: 'lc3', sampleRate: 16000 });
    assert.ok(
      'reason' in validateAudioFormat('lc3_fs1030', 44100),
      "'reason' in validateAudioFormat('lc3_fs1030', 44100)",
    );
    const bare = validateAudioFormat('lc3', 16000);
    assert.ok('reason' in bare && /lc3_fs1030/.test(bare.reason), "'reason' in bare && /lc3_fs1030/.test(bare.reason)");
  });

  test('pcm8 is unsigned 8-bit: 128 is silence and 255 is near full scale', () => {
    const out = createDecoder({ codec: 'pcm8', sampleRate: 16000 }).decode(Buffer.from([128, 255, 0]));
    assert.deepEqual([out.readInt16LE(0), out.readInt16LE(2), out.readInt16LE(4)], [0, 127 << 8, -128 << 8]);
  });

  test('an odd byte at a frame boundary is carried into the next pcm16 frame', () => {
    const decoder = createDecoder({ codec: 'pcm16', sampleRate: 16000 });
    const a = decoder.decode(Buffer.from([0x34]));
    const b = decoder.decode(Buffer.from([0x12, 0x78, 0x56]));
    assert.equal(a.length, 0);
    assert.deepEqual([b.readInt16LE(0), b.readInt16LE(2)], [0x1234, 0x5678]);
  });

  test('resampling keeps the duration: one second in is one second of 16 kHz out, across frames', () => {
    for (const rate of [8000, 44100, 48000]) {
      const resampler = new Resampler(rate, 16000);
      let total = 0;
      for (let i = 0; i < 10; i++) total += resampler.process(new Int16Array(rate / 10)).length;
      assert.ok(Math.abs(total - 16000) <= 2, `${rate}: ${total}`);
    }
  });
});

describe('energy VAD', () => {
  test('a burst of speech between silences becomes one utterance with its times', () => {
    const utterances: Utterance[] = [];
    const vad = new EnergyVad((u) => utterances.push(u));
    vad.push(Buffer.alloc(32_000)); // 1 s silence
    vad.push(tone(600));
    vad.push(Buffer.alloc(32_000));
    assert.equal(utterances.length, 1);
    assert.ok(utterances[0].start >= 0.7 && utterances[0].start <= 1.0, `start ${utterances[0].start}`);
    assert.ok(utterances[0].end - utterances[0].start >= 0.6, 'utterances[0].end - utterances[0].start >= 0.6');
  });

  test('silence alone and a click shorter than the minimum yield nothing', () => {
    const utterances: Utterance[] = [];
    const vad = new EnergyVad((u) => utterances.push(u));
    vad.push(Buffer.alloc(64_000));
    vad.push(tone(30));
    vad.push(Buffer.alloc(64_000));
    vad.flush();
    assert.equal(utterances.length, 0);
  });

  test('flush emits an utterance still in progress', () => {
    const utterances: Utterance[] = [];
    const vad = new EnergyVad((u) => utterances.push(u));
    vad.push(tone(500));
    assert.equal(utterances.length, 0);
    vad.flush();
    assert.equal(utterances.length, 1);
  });
});
