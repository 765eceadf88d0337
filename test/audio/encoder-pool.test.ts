import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EncoderPool } from '../../src/audio/encoder-pool.js';
import { encodeClip } from '../../src/audio/mp3.js';
import { bufferToSamples } from '../../src/audio/pcm.js';
import { mp3Seconds, tone } from './support.js';

/** MP3 encoding on worker threads: the same clips as in-process, several at once, and a clean close. */
describe('MP3 encoder pool', () => {
  test('clips encoded on the threads are byte for byte the in-process encoding, and decode', async () => {
    const pool = new EncoderPool(2);
    try {
      const inputs = [1, 2, 3].map((seconds) => bufferToSamples(tone(seconds)));
      const clips = await Promise.all(inputs.map((samples) => pool.encode(samples)));
      for (const [i, clip] of clips.entries()) {
        assert.deepEqual(clip, await encodeClip(inputs[i]));
        const decoded = await mp3Seconds(clip);
        assert.equal(decoded.errors, 0);
        assert.ok(Math.abs(decoded.seconds - (i + 1)) < 0.1, `clip ${i}: ${decoded.seconds} s`);
      }
    } finally {
      await pool.close();
    }
  });

  test('a closed pool refuses new clips', async () => {
    const pool = new EncoderPool(1);
    await pool.encode(bufferToSamples(tone(0.5)));
    await pool.close();
    await assert.rejects(pool.encode(bufferToSamples(tone(0.5))), /closed/);
  });
});
