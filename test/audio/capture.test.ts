import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { leadingCarriers } from '../../src/audio/mp3.js';
import { ManualClock } from '../../src/context-types.js';
import { dialects } from '../helpers/app.js';
import { ListenClient, type ListenServer, listenServer, listenUrl } from '../listen/support.js';
import { waitUntil } from '../voice/support.js';
import { tone } from './support.js';

/** Audio capture on the live stream (SPEC §8): 60 s parts per conversation, only when the user turned it on. */
for (const dialect of dialects()) {
  describe(`live audio capture (${dialect})`, () => {
    let server: ListenServer;
    beforeEach(async () => {
      server = await listenServer(dialect, { clock: new ManualClock() });
    });
    afterEach(() => server.close());

    /** Streams `seconds` of audio with one client segment, closes, and waits for the session's teardown. */
    const stream = async (seconds: number) => {
      const client = await ListenClient.connect(
        listenUrl(server.base, { custom_stt: 'enabled', codec: 'pcm16', sample_rate: 16000 }),
        server.user.session,
      );
      const [session] = await client.waitForEvent('conversation_session');
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      const audio = tone(seconds);
      for (let at = 0; at < audio.length; at += 3200) client.send(audio.subarray(at, at + 3200));
      client.send({ type: 'suggested_transcript', segments: [{ text: 'Testing the recorder.', start: 0, end: 2 }] });
      await client.waitFor(() => client.transcripts().length > 0);
      await client.close();
      await waitUntil(async () => server.t.ctx.listen.active.size === 0, 'session teardown');
      return String(session.conversation_id);
    };
    const parts = (conversationId: string) => server.t.ctx.audio.repo.parts(server.user.uid, conversationId);

    test('with audio capture off (the default) nothing is stored', async () => {
      const id = await stream(3);
      assert.deepEqual(await parts(id), []);
    });

    test('with audio capture on the stream is stored in 60 s parts of its conversation', async () => {
      const patched = await server.t.app.inject({
        method: 'PATCH',
        url: '/v1/users/me/settings',
        headers: server.user.session,
        payload: { audio_capture: true },
      });
      assert.equal(patched.statusCode, 200);
      const id = await stream(65);
      const stored = await parts(id);
      assert.deepEqual(
        stored.map((p) => Number(p.bytes)),
        [60 * 32000, 5 * 32000],
      );
      assert.equal(Number(stored[1].started_at) - Number(stored[0].started_at), 60_000);
      const bytes = await server.t.ctx.audio.store.get(stored[0].storage_key);
      assert.deepEqual(bytes?.subarray(0, 3200), tone(65).subarray(0, 3200));
    });

    test('each closed part is encoded in the background, so the artifact only joins frames', async () => {
      await server.t.app.inject({
        method: 'PATCH',
        url: '/v1/users/me/settings',
        headers: server.user.session,
        payload: { audio_capture: true },
      });
      const id = await stream(61);
      await server.t.ctx.runner.drain();
      const stored = await parts(id);
      assert.deepEqual(
        stored.map((p) => Number(p.encoded_bytes)),
        stored.map((p) => Number(p.bytes)),
      );
      const encoded = await server.t.ctx.audio.store.get(`${stored[0].storage_key}.${stored[0].bytes}.mp3`);
      assert.ok(encoded, 'encoded');
      assert.equal(encoded.length, (Math.round((60 * 16000) / 576) + leadingCarriers(encoded)) * 216);
    });
  });
}
