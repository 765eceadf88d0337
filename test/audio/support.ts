import { randomUUID } from 'node:crypto';
import { MPEGDecoder } from 'mpg123-decoder';
import { audioKey } from '../../src/audio/store.js';
import type { AppContext } from '../../src/context.js';
import type { TestApp, TestUser } from '../helpers/app.js';

/** Helpers for audio tests: conversations with captured parts, and decoding the MP3 artifact. */

export const T0 = Date.parse('2026-11-20T09:00:00Z');

/** A conversation through the developer API (the audio routes need one to exist). */
export async function conversation(t: TestApp, user: TestUser): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/dev/user/conversations/from-segments',
    headers: user.auth,
    payload: { transcript_segments: [{ text: 'Remind me to water the plants tonight.', start: 0, end: 3 }] },
  });
  if (created.statusCode !== 200) throw new Error(`create conversation: ${created.body}`);
  return created.json<{ id: string }>().id;
}

/** `seconds` of a 220 Hz tone as PCM16 (audible, so a decoded artifact can be checked). */
export function tone(seconds: number): Buffer {
  const samples = Int16Array.from({ length: Math.round(seconds * 16000) }, (_, i) =>
    Math.round(6000 * Math.sin((2 * Math.PI * 220 * i) / 16000)),
  );
  return Buffer.from(samples.buffer);
}

/** Stores a captured part the way the live capture does: bytes in the store, a row in the database. */
export async function storePart(
  ctx: AppContext,
  userId: string,
  conversationId: string,
  startedAt: number,
  pcm: Buffer,
): Promise<string> {
  const id = randomUUID();
  const key = audioKey(userId, conversationId, 'parts', `${startedAt}-${id}.pcm`);
  await ctx.audio.store.put(key, pcm);
  await ctx.audio.repo.insertPart({
    id,
    user_id: userId,
    conversation_id: conversationId,
    started_at: startedAt,
    bytes: pcm.length,
    storage_key: key,
    encoded_bytes: null,
    created_at: ctx.clock.now(),
    updated_at: ctx.clock.now(),
  });
  return id;
}

/** Seconds of audio in an MP3 (decoded with mpg123). */
export async function mp3Seconds(mp3: Buffer): Promise<{ seconds: number; sampleRate: number; errors: number }> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const decoded = decoder.decode(new Uint8Array(mp3));
    return {
      seconds: decoded.samplesDecoded / decoded.sampleRate,
      sampleRate: decoded.sampleRate,
      errors: decoded.errors.length,
    };
  } finally {
    decoder.free();
  }
}

/** The decoded samples of an MP3, on the [-1, 1] scale. */
export async function mp3Samples(mp3: Buffer): Promise<Float32Array> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    return decoder.decode(new Uint8Array(mp3)).channelData[0];
  } finally {
    decoder.free();
  }
}
