import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { conversation, mp3Seconds, storePart, T0, tone } from './support.js';

interface Urls {
  audio_files: Array<{ id: string; status: string; signed_url: string; content_type: string; duration: number }>;
  conversation_audio: null | {
    status: string;
    signed_url: string | null;
    url: string | null;
    content_type: string | null;
    duration: number | null;
    captured_duration: number | null;
    wall_duration: number | null;
    fingerprint: string;
    spans: unknown[];
  };
  poll_after_ms: number | null;
}

/** `GET /v1/sync/audio/{id}/urls` (SPEC §4.11), its signed files and audio deletion. */
for (const dialect of dialects()) {
  describe(`sync audio API (${dialect})`, () => {
    let t: TestApp;
    let user: TestUser;
    let clock: ManualClock;
    let dir: string;
    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'keepsake-audio-'));
      clock = new ManualClock();
      t = await createTestApp(dialect, { clock, config: { audioDir: dir } });
      user = await createUser(t.ctx);
    });
    afterEach(async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const urls = async (id: string, who = user) => {
      const response = await t.app.inject({ method: 'GET', url: `/v1/sync/audio/${id}/urls`, headers: who.session });
      assert.equal(response.statusCode, 200, response.body);
      return response.json<Urls>();
    };
    /** The URL's path and query, as the server sees a GET on it. */
    const fetch = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, ''), headers });
    /** Polls the URLs as a client does, running the job queue in between, until the MP3 is cached. */
    const built = async (id: string) => {
      const first = await urls(id);
      assert.equal(first.conversation_audio?.status, 'pending');
      assert.equal(first.poll_after_ms, 3000);
      await t.ctx.runner.drain();
      return urls(id);
    };

    test('a conversation without audio has no files and no artifact', async () => {
      const id = await conversation(t, user);
      assert.deepEqual(await urls(id), { audio_files: [], conversation_audio: null, poll_after_ms: null });
    });

    test('an unknown or another user’s conversation is a 404', async () => {
      const id = await conversation(t, user);
      const other = await createUser(t.ctx, { name: 'Other' });
      const response = await t.app.inject({ method: 'GET', url: `/v1/sync/audio/${id}/urls`, headers: other.session });
      assert.deepEqual([response.statusCode, response.json()], [404, { detail: 'Conversation not found' }]);
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/sync/audio/${id}/urls` })).statusCode, 401);
    });

    test('the artifact is built in the background, then served as one MP3 with gaps filled and collapsed', async () => {
      const id = await conversation(t, user);
      await storePart(t.ctx, user.uid, id, T0, tone(6));
      await storePart(t.ctx, user.uid, id, T0 + 8_000, tone(4)); // 2 s gap: silence
      await storePart(t.ctx, user.uid, id, T0 + 300_000, tone(3)); // 288 s gap: collapsed
      const ready = await built(id);
      const artifact = ready.conversation_audio;
      assert.equal(artifact?.status, 'cached');
      // In whole 36 ms MP3 frames: 6 + 2 (silence) + 4 + 3 (the 288 s gap collapsed); 303 s on the wall clock.
      // Each clip opens with a 36 ms carrier frame (mp3.ts); the 2 s of silence absorbs the second one.
      const near = (value: number | null | undefined, expected: number) => Math.abs((value ?? -1) - expected) < 0.05;
      assert.ok(near(artifact?.duration, 15.072) && near(artifact?.captured_duration, 13), JSON.stringify(artifact));
      assert.ok(near(artifact?.wall_duration, 303), JSON.stringify(artifact));
      assert.equal(artifact?.content_type, 'audio/mpeg');
      assert.equal(artifact?.url, artifact?.signed_url);
      assert.equal(ready.poll_after_ms, null);
      assert.deepEqual(
        ready.audio_files.map((f) => [f.status, f.content_type, f.duration]),
        [
          ['cached', 'audio/wav', 6],
          ['cached', 'audio/wav', 4],
          ['cached', 'audio/wav', 3],
        ],
      );
      const mp3 = await fetch(String(artifact?.signed_url));
      assert.equal(mp3.statusCode, 200);
      assert.equal(mp3.headers['content-type'], 'audio/mpeg');
      assert.ok(
        Math.abs((await mp3Seconds(mp3.rawPayload)).seconds - 15) < 0.2,
        'Math.abs((await mp3Seconds(mp3.rawPayload)).seconds - 15) < 0.2',
      );
    });

    test('the artifact is rebuilt when a part changes', async () => {
      const id = await conversation(t, user);
      const partId = await storePart(t.ctx, user.uid, id, T0, tone(5));
      const first = (await built(id)).conversation_audio;
      // The live capture grows its open part like this: more bytes in the store and on the row.
      const key = (await t.ctx.audio.repo.part(user.uid, id, partId))?.storage_key ?? '';
      await t.ctx.audio.store.writeAt(key, 5 * 32000, tone(3));
      clock.advance(1000);
      await t.ctx.audio.repo.growPart(user.uid, partId, 8 * 32000, clock.now());
      const second = (await built(id)).conversation_audio;
      assert.notEqual(second?.fingerprint, first?.fingerprint);
      assert.ok(Math.abs((second?.duration ?? 0) - 8) < 0.05, 'Math.abs((second?.duration ?? 0) - 8) < 0.05');
      const mp3 = await fetch(String(second?.signed_url));
      assert.ok(
        Math.abs((await mp3Seconds(mp3.rawPayload)).seconds - 8) < 0.2,
        'Math.abs((await mp3Seconds(mp3.rawPayload)).seconds - 8) < 0.2',
      );
      // The old artifact's URL no longer opens anything.
      assert.equal((await fetch(String(first?.signed_url))).statusCode, 404);
    });

    test('a Range request gets 206 with Content-Range and exactly those bytes', async () => {
      const id = await conversation(t, user);
      await storePart(t.ctx, user.uid, id, T0, tone(2));
      const [part] = (await urls(id)).audio_files;
      const whole = await fetch(part.signed_url);
      assert.equal(whole.statusCode, 200);
      assert.equal(whole.headers['content-type'], 'audio/wav');
      assert.equal(whole.headers['accept-ranges'], 'bytes');
      assert.equal(whole.rawPayload.length, 44 + 64_000);
      assert.equal(whole.rawPayload.toString('ascii', 0, 4), 'RIFF');
      const slice = await fetch(part.signed_url, { range: 'bytes=40-99' });
      assert.equal(slice.statusCode, 206);
      assert.equal(slice.headers['content-range'], `bytes 40-99/${44 + 64_000}`);
      assert.deepEqual(slice.rawPayload, whole.rawPayload.subarray(40, 100));
      const tail = await fetch(part.signed_url, { range: 'bytes=-10' });
      assert.deepEqual(tail.rawPayload, whole.rawPayload.subarray(-10));
      const beyond = await fetch(part.signed_url, { range: 'bytes=999999-' });
      assert.equal(beyond.statusCode, 416);
      assert.equal(beyond.headers['content-range'], `bytes */${44 + 64_000}`);
    });

    test('a tampered or expired signature is refused with 403', async () => {
      const id = await conversation(t, user);
      await storePart(t.ctx, user.uid, id, T0, tone(1));
      const [part] = (await urls(id)).audio_files;
      const other = await createUser(t.ctx, { name: 'Other' });
      const forged = part.signed_url.replace(`uid=${user.uid}`, `uid=${other.uid}`);
      assert.deepEqual((await fetch(forged)).json(), { detail: 'Invalid or expired audio URL' });
      const flipped = part.signed_url.replace(
        /signature=([0-9a-f])/,
        (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`,
      );
      assert.equal((await fetch(flipped)).statusCode, 403);
      clock.advance(60 * 60 * 1000 + 1000);
      assert.equal((await fetch(part.signed_url)).statusCode, 403);
    });

    test('deleting a conversation deletes its audio rows and files', async () => {
      const id = await conversation(t, user);
      await storePart(t.ctx, user.uid, id, T0, tone(1));
      await built(id);
      assert.ok(existsSync(join(dir, user.uid, id)), 'existsSync(join(dir, user.uid, id))');
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `/v1/dev/user/conversations/${id}`,
        headers: user.auth,
      });
      assert.equal(deleted.statusCode, 200);
      assert.equal(existsSync(join(dir, user.uid, id)), false);
      const rows = await t.ctx.store.db
        .selectFrom('audio_parts')
        .select('id')
        .where('conversation_id', '=', id)
        .execute();
      const stamp = await t.ctx.audio.repo.stamp(user.uid, id);
      assert.deepEqual([rows.length, stamp], [0, undefined]);
    });

    test('audio left behind by a conversation deleted elsewhere is swept away', async () => {
      const id = await conversation(t, user);
      await storePart(t.ctx, user.uid, id, T0, tone(1));
      const keep = await conversation(t, user);
      await storePart(t.ctx, user.uid, keep, T0, tone(1));
      // The live stream drops empty conversations straight in the repository, without the delete hook.
      await t.ctx.repos.conversations.delete(user.uid, id);
      assert.equal(await t.ctx.audio.service.sweepOrphans(), 1);
      assert.equal(existsSync(join(dir, user.uid, id)), false);
      assert.deepEqual(await t.ctx.audio.repo.parts(user.uid, id), []);
      assert.equal((await t.ctx.audio.repo.parts(user.uid, keep)).length, 1);
    });

    test('audio capture is off by default and can be turned on', async () => {
      const get = () => t.app.inject({ method: 'GET', url: '/v1/users/me/settings', headers: user.session });
      assert.deepEqual((await get()).json(), { audio_capture: false });
      const patched = await t.app.inject({
        method: 'PATCH',
        url: '/v1/users/me/settings',
        headers: user.session,
        payload: { audio_capture: true },
      });
      assert.deepEqual(patched.json(), { audio_capture: true });
      assert.deepEqual((await get()).json(), { audio_capture: true });
      const bad = await t.app.inject({
        method: 'PATCH',
        url: '/v1/users/me/settings',
        headers: user.session,
        payload: { audio_capture: 'yes' },
      });
      assert.equal(bad.statusCode, 422);
    });
  });
}
