import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encodeArtifact, fingerprint, type PartRef, planArtifact } from '../../src/audio/artifact.js';
import { mp3Seconds, T0, tone } from './support.js';

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

  test('the MP3 decodes to the planned duration at 16 kHz', async () => {
    const parts = [part('a', 0, 4), part('b', 6, 3), part('c', 120, 2)];
    const pcm = new Map(parts.map((p) => [p.id, tone(p.bytes / 32000)]));
    const plan = planArtifact(parts);
    const mp3 = await encodeArtifact(plan, async (p) => pcm.get(p.id) ?? null);
    assert.ok(mp3);
    const decoded = await mp3Seconds(mp3);
    assert.equal(decoded.sampleRate, 16000);
    assert.equal(decoded.errors, 0);
    // 4 + 2 of silence + 3 + 2 (the 111 s gap collapsed) = 11 s; the encoder pads at most a few frames.
    assert.ok(Math.abs(decoded.seconds - 11) < 0.2, `decoded ${decoded.seconds} s`);
  });

  test('parts whose bytes are gone leave no hole, and none at all means no artifact', async () => {
    const parts = [part('a', 0, 2), part('b', 2, 2)];
    const plan = planArtifact(parts);
    const partial = await encodeArtifact(plan, async (p) => (p.id === 'a' ? tone(2) : null));
    assert.ok(partial);
    assert.ok(Math.abs((await mp3Seconds(partial)).seconds - 2) < 0.2);
    assert.equal(await encodeArtifact(plan, async () => null), null);
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
