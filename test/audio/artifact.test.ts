import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assembleArtifact, fingerprint, type PartRef, planArtifact } from '../../src/audio/artifact.js';
import { encodeClip, FRAME_SAMPLES, leadingCarriers, splitFrames } from '../../src/audio/mp3.js';
import { bufferToSamples } from '../../src/audio/pcm.js';
import { mp3Samples, mp3Seconds, T0, tone } from './support.js';

/** The per-conversation MP3 (SPEC §8): gaps under 90 s become silence, longer gaps are collapsed. */

const part = (id: string, startSeconds: number, seconds: number, updatedAt = 1): PartRef => ({
  id,
  startedAt: T0 + startSeconds * 1000,
  bytes: seconds * 32000,
  updatedAt,
});

describe('conversation audio artifact', () => {
  test('a gap under 90 s is filled with silence and a longer one collapsed', () => {
    const plan = planArtifact([part('c', 200, 10), part('a', 0, 10), part('b', 15, 10)]);
    assert.equal(plan.durationMs, 35_000); // 10 + 5 silence + 10 + 10 (the 175 s gap collapsed)
    assert.equal(plan.capturedMs, 30_000);
    assert.equal(plan.wallMs, 210_000);
    assert.deepEqual(plan.spans, [
      { file_id: 'a', wall_offset: 0, artifact_offset: 0, len: 10 },
      { file_id: 'b', wall_offset: 15, artifact_offset: 15, len: 10 },
      { file_id: 'c', wall_offset: 200, artifact_offset: 25, len: 10 },
    ]);
  });

  test('a gap of exactly 90 s is still filled; 90.001 s is collapsed', () => {
    assert.equal(planArtifact([part('a', 0, 10), part('b', 100, 10)]).durationMs, 110_000);
    assert.equal(planArtifact([part('a', 0, 10), part('b', 100.001, 10)]).durationMs, 20_000);
  });

  test('the MP3 decodes to the planned duration at 16 kHz, as the reported duration says', async () => {
    const parts = [part('a', 0, 4), part('b', 6, 3), part('c', 120, 2)];
    const encoded = new Map<string, Buffer>();
    for (const p of parts) encoded.set(p.id, await encodeClip(bufferToSamples(tone(p.bytes / 32000))));
    const assembled = await assembleArtifact(planArtifact(parts), async (p) => encoded.get(p.id) ?? null);
    assert.ok(assembled, 'assembled');
    const decoded = await mp3Seconds(assembled.mp3);
    assert.equal(decoded.sampleRate, 16000);
    assert.equal(decoded.errors, 0);
    // 4 + 2 of silence + 3 + 2 (the 111 s gap collapsed) = 11 s, in whole 36 ms frames (a clip's
    // carrier frame plays as 36 ms of silence; before b it takes the place of some of the gap).
    assert.ok(Math.abs(decoded.seconds - 11) < 0.1, `decoded ${decoded.seconds} s`);
    assert.equal(Math.round(decoded.seconds * 1000), Math.round(assembled.durationMs));
    assert.deepEqual(
      assembled.spans.map((s) => [s.file_id, s.wall_offset]),
      [
        ['a', 0],
        ['b', 6],
        ['c', 120],
      ],
    );
    assert.ok(
      Math.abs(assembled.spans[2].artifact_offset - 9) < 0.1,
      'Math.abs(assembled.spans[2].artifact_offset - 9) < 0.1',
    );
  });

  test('an encoded clip lasts its length to the frame and starts within the decoder delay', async () => {
    const samples = bufferToSamples(tone(1));
    const clip = await encodeClip(samples);
    const carriers = leadingCarriers(clip);
    assert.ok(carriers <= 2, `${carriers} carrier frames`);
    const decoded = await mp3Seconds(clip);
    assert.equal(decoded.errors, 0);
    assert.equal(decoded.seconds * 16000, (Math.round(16000 / FRAME_SAMPLES) + carriers) * FRAME_SAMPLES);
    const pcm = await mp3Samples(clip);
    // An MP3 decoder outputs its first 529 samples late; the encoder's own lead-in is cut away and
    // the carrier frames play as silence.
    const first = pcm.findIndex((v) => Math.abs(v) > 0.05) - carriers * FRAME_SAMPLES;
    assert.ok(first >= 0 && first < 600, `first audible sample ${first}`);
  });

  test('a clip joined after another decodes exactly as it does on its own (bit reservoir carried)', async () => {
    const a = await encodeClip(bufferToSamples(tone(2)));
    const b = await encodeClip(Int16Array.from({ length: 32000 }, (_, i) => Math.round(7000 * Math.sin(i * 0.13))));
    assert.ok(leadingCarriers(b) >= 1, 'LAME starts the kept frames inside its reservoir');
    const alone = await mp3Samples(b);
    const joined = (await mp3Samples(Buffer.concat([a, b]))).subarray(splitFrames(a).length * FRAME_SAMPLES);
    let worst = 0;
    for (let i = 0; i < alone.length; i++) worst = Math.max(worst, Math.abs(alone[i] - joined[i]));
    assert.ok(worst < 1e-4, `largest difference ${worst}`);
    // Without the carrier, the first kept frame would read its data from the end of the clip before it.
    const bare = Buffer.concat(splitFrames(b).slice(leadingCarriers(b)));
    const broken = (await mp3Samples(Buffer.concat([a, bare]))).subarray(splitFrames(a).length * FRAME_SAMPLES);
    const skip = leadingCarriers(b) * FRAME_SAMPLES;
    let bad = 0;
    for (let i = 0; i < FRAME_SAMPLES * 2; i++) bad = Math.max(bad, Math.abs(alone[skip + i] - broken[i]));
    assert.ok(bad > 0.01, `a bare join differs by ${bad}`);
  });

  test('parts whose bytes are gone leave no hole, and none at all means no artifact', async () => {
    const parts = [part('a', 0, 2), part('b', 2, 2)];
    const plan = planArtifact(parts);
    const clip = await encodeClip(bufferToSamples(tone(2)));
    const partial = await assembleArtifact(plan, async (p) => (p.id === 'a' ? clip : null));
    assert.ok(partial, 'partial');
    assert.ok(
      Math.abs((await mp3Seconds(partial.mp3)).seconds - 2) < 0.1,
      'Math.abs((await mp3Seconds(partial.mp3)).seconds - 2) < 0.1',
    );
    assert.deepEqual(
      partial.spans.map((s) => s.file_id),
      ['a'],
    );
    assert.equal(await assembleArtifact(plan, async () => null), null);
  });

  test('the fingerprint changes when a part grows, is rewritten or is added, not when the order does', () => {
    const base = fingerprint([part('a', 0, 10), part('b', 15, 10)]);
    assert.match(base, /^[0-9a-f]{12}$/);
    assert.equal(fingerprint([part('b', 15, 10), part('a', 0, 10)]), base);
    assert.notEqual(fingerprint([part('a', 0, 10), part('b', 15, 11)]), base);
    assert.notEqual(fingerprint([part('a', 0, 10), part('b', 15, 10, 2)]), base);
    assert.notEqual(fingerprint([part('a', 0, 10), part('b', 15, 10), part('c', 30, 1)]), base);
  });
});
