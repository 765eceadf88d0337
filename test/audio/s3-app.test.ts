import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { AudioS3Config } from '../../src/config.js';
import { ManualClock } from '../../src/context-types.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';
import { ListenClient, type ListenServer, listenServer, listenUrl } from '../listen/support.js';
import { waitUntil } from '../voice/support.js';
import { type FakeS3, startFakeS3 } from './fake-s3.js';
import { conversation, mp3Seconds, storePart, T0, tone } from './support.js';

/** The whole audio feature with AUDIO_STORE=s3: parts, the MP3, signed URLs, deletes and outages. */

const credentials = { bucket: 'keepsake-audio', region: 'us-east-1', accessKeyId: 'AKID', secretAccessKey: 's3cret' };
const s3Config = (s3: FakeS3): AudioS3Config => ({
  ...credentials,
  endpoint: s3.endpoint,
  forcePathStyle: true,
  prefix: 'audio',
});

interface Urls {
  audio_files: Array<{ signed_url: string; duration: number }>;
  conversation_audio: null | { status: string; signed_url: string | null; duration: number | null };
}

for (const dialect of dialects()) {
  describe(`conversation audio in an S3 bucket (${dialect})`, () => {
    let s3: FakeS3;
    let t: TestApp;
    let user: TestUser;
    beforeEach(async () => {
      s3 = await startFakeS3({ ...credentials, pageSize: 2 });
      t = await createTestApp(dialect, { clock: new ManualClock(), config: { audioS3: s3Config(s3) } });
      user = await createUser(t.ctx);
    });
    afterEach(async () => {
      await t.close();
      await s3.stop();
    });

    const urls = (id: string) =>
      t.app.inject({ method: 'GET', url: `/v1/sync/audio/${id}/urls`, headers: user.session });
    const fetch = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, ''), headers });
    const objects = (id: string) => [...s3.objects.keys()].filter((k) => k.startsWith(`audio/${user.uid}/${id}/`));

    test('parts and the MP3 live in the bucket and stream through the signed URLs, Range included', async () => {
      const id = await conversation(t, user);
      await storePart(t.ctx, user.uid, id, T0, tone(3));
      await storePart(t.ctx, user.uid, id, T0 + 4_000, tone(2));
      assert.equal((await urls(id)).json<Urls>().conversation_audio?.status, 'pending');
      await t.ctx.runner.drain();
      const ready = (await urls(id)).json<Urls>();
      assert.equal(ready.conversation_audio?.status, 'cached');
      const key = objects(id).find((k) => /conversation-[0-9a-f]{12}\.mp3$/.test(k));
      const stored = key ? s3.objects.get(key) : undefined;
      assert.ok(stored, `objects: ${objects(id).join(', ')}`);
      const whole = await fetch(String(ready.conversation_audio?.signed_url));
      assert.equal(whole.statusCode, 200);
      assert.deepEqual(whole.rawPayload, stored);
      assert.ok(
        Math.abs((await mp3Seconds(whole.rawPayload)).seconds - 6) < 0.15,
        'Math.abs((await mp3Seconds(whole.rawPayload)).seconds - 6) < 0.15',
      );
      const ranged = await fetch(String(ready.conversation_audio?.signed_url), { range: 'bytes=100-299' });
      assert.equal(ranged.statusCode, 206);
      assert.equal(ranged.headers['content-range'], `bytes 100-299/${stored.length}`);
      assert.deepEqual(ranged.rawPayload, stored.subarray(100, 300));
      const wav = await fetch(ready.audio_files[0].signed_url, { range: 'bytes=40-47' });
      assert.equal(wav.statusCode, 206);
      assert.deepEqual(wav.rawPayload.subarray(4), tone(3).subarray(0, 4)); // data size, then the first PCM bytes
      assert.equal(s3.rejected, 0);
    });

    test('deleting the conversation deletes its objects; with the bucket down the sweep finishes later', async () => {
      const gone = await conversation(t, user);
      await storePart(t.ctx, user.uid, gone, T0, tone(1));
      const del = (id: string) =>
        t.app.inject({ method: 'DELETE', url: `/v1/dev/user/conversations/${id}`, headers: user.auth });
      assert.equal((await del(gone)).statusCode, 200);
      assert.deepEqual(objects(gone), []);
      const later = await conversation(t, user);
      await storePart(t.ctx, user.uid, later, T0, tone(1));
      await s3.stop();
      assert.equal((await del(later)).statusCode, 200, 'the conversation goes even while its audio cannot');
      assert.equal((await t.ctx.audio.repo.parts(user.uid, later)).length, 1, 'rows kept for the retry');
      await s3.start();
      assert.equal(await t.ctx.audio.service.sweepOrphans(), 1);
      assert.deepEqual(objects(later), []);
      assert.deepEqual(await t.ctx.audio.repo.parts(user.uid, later), []);
    });

    test('while the bucket is unreachable the audio routes answer 503, and work again after', async () => {
      const id = await conversation(t, user);
      await storePart(t.ctx, user.uid, id, T0, tone(1));
      await urls(id);
      await t.ctx.runner.drain();
      const ready = (await urls(id)).json<Urls>();
      assert.equal(ready.conversation_audio?.status, 'cached');
      const part = ready.audio_files[0];
      await s3.stop();
      const down = await urls(id);
      assert.deepEqual(
        [down.statusCode, down.json()],
        [503, { detail: 'Audio storage is unavailable; try again later' }],
      );
      const file = await fetch(part.signed_url);
      assert.deepEqual(
        [file.statusCode, file.json()],
        [503, { detail: 'Audio storage is unavailable; try again later' }],
      );
      await s3.start();
      assert.equal((await fetch(part.signed_url)).statusCode, 200);
    });
  });

  describe(`live capture into an S3 bucket that goes away (${dialect})`, () => {
    let s3: FakeS3;
    let server: ListenServer;
    beforeEach(async () => {
      s3 = await startFakeS3({ ...credentials });
      server = await listenServer(dialect, { clock: new ManualClock(), config: { audioS3: s3Config(s3) } });
    });
    afterEach(async () => {
      await server.close();
      await s3.stop();
    });

    test('audio written while the bucket was down is kept and stored once it is back: nothing lost', async () => {
      const on = await server.t.app.inject({
        method: 'PATCH',
        url: '/v1/users/me/settings',
        headers: server.user.session,
        payload: { audio_capture: true },
      });
      assert.equal(on.statusCode, 200);
      const client = await ListenClient.connect(
        listenUrl(server.base, { custom_stt: 'enabled', codec: 'pcm16', sample_rate: 16000 }),
        server.user.session,
      );
      const [session] = await client.waitForEvent('conversation_session');
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      client.send({ type: 'suggested_transcript', segments: [{ text: 'Testing the recorder.', start: 0, end: 2 }] });
      await client.waitFor(() => client.transcripts().length > 0);
      const audio = tone(12);
      await s3.stop();
      for (let at = 0; at < 7 * 32000; at += 3200) client.send(audio.subarray(at, at + 3200));
      await new Promise((resolve) => setTimeout(resolve, 300)); // the 5 s flush fails meanwhile
      await s3.start();
      for (let at = 7 * 32000; at < audio.length; at += 3200) client.send(audio.subarray(at, at + 3200));
      await client.close();
      await waitUntil(async () => server.t.ctx.listen.active.size === 0, 'session teardown');
      const id = String(session.conversation_id);
      const parts = await server.t.ctx.audio.repo.parts(server.user.uid, id);
      assert.deepEqual(
        parts.map((p) => Number(p.bytes)),
        [audio.length],
      );
      assert.deepEqual(s3.objects.get(`audio/${parts[0].storage_key}`), audio);
    });
  });
}
