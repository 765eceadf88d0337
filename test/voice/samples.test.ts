import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createUser, dialects } from '../helpers/app.js';
import { ListenClient, listenUrl, segment, suggest } from '../listen/support.js';
import { SENTENCES, SKIP_NO_ESPEAK, VOICES } from './espeak.js';
import { createPerson, pendingSamples, streamSpeech, type VoiceServer, voiceServer, waitUntil } from './support.js';

/** POST /assign_speaker and the speaker-sample queue (SPEC §4.11, §6.1, §8: 120 s / 15 s). */
for (const dialect of dialects()) {
  describe(`assign_speaker and speaker samples (${dialect})`, () => {
    let server: VoiceServer;
    beforeEach(async () => {
      server = await voiceServer(dialect);
    });
    afterEach(() => server.close());

    const assign = (body: object, who = server.user) =>
      server.t.app.inject({ method: 'POST', url: '/assign_speaker', headers: who.session, payload: body });

    const sample = (id: string) =>
      server.t.ctx.store.db
        .selectFrom('speaker_samples')
        .select(['status', 'reason', 'person_id'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    const storedSegment = async (text = 'Could you send me the notes?') => {
      const created = await server.t.app.inject({
        method: 'POST',
        url: '/v1/dev/user/conversations/from-segments',
        headers: server.user.auth,
        payload: { transcript_segments: [{ text, start: 0, end: 3 }] },
      });
      return server.t.ctx.store.db
        .selectFrom('transcript_segments')
        .select('id')
        .where('conversation_id', '=', created.json<{ id: string }>().id)
        .executeTakeFirstOrThrow();
    };

    test('an unknown segment or person is a 404, a bad body a 422', async () => {
      const person = await createPerson(server, 'Alice');
      const segment = await storedSegment();
      assert.deepEqual((await assign({ segment_id: 'nope', person_id: person })).json(), {
        detail: 'Segment not found',
      });
      assert.deepEqual((await assign({ segment_id: segment.id, person_id: 'nope' })).json(), {
        detail: 'Person not found',
      });
      assert.equal((await assign({ segment_id: segment.id })).statusCode, 422);
    });

    test("another user's segment or person is a 404", async () => {
      const other = await createUser(server.t.ctx, { name: 'Other' });
      const mine = await createPerson(server, 'Alice');
      const theirs = await createPerson({ ...server, user: other }, 'Eve');
      const segment = await storedSegment();
      assert.equal((await assign({ segment_id: segment.id, person_id: mine }, other)).statusCode, 404);
      assert.equal((await assign({ segment_id: segment.id, person_id: theirs })).statusCode, 404);
    });

    test('assigning labels the segment and queues a sample that waits 120 s', async () => {
      const person = await createPerson(server, 'Alice');
      const segment = await storedSegment();
      const response = await assign({ segment_id: segment.id, person_id: person });
      assert.equal(response.statusCode, 200);
      const { sample_id: sampleId } = response.json<{ sample_id: string }>();
      const labelled = await server.t.ctx.store.db
        .selectFrom('transcript_segments')
        .select('person_id')
        .where('id', '=', segment.id)
        .executeTakeFirstOrThrow();
      assert.equal(labelled.person_id, person);
      server.clock.advance(119_000);
      assert.equal(await server.t.ctx.voice.samples.processDue(), 0);
      assert.equal((await sample(sampleId)).status, 'pending');
      server.clock.advance(1_000);
      assert.equal(await server.t.ctx.voice.samples.processDue(), 1);
    });

    test('a sample without any stored or live audio is skipped with the reason', async () => {
      const person = await createPerson(server, 'Alice');
      const segment = await storedSegment();
      const { sample_id: sampleId } = (await assign({ segment_id: segment.id, person_id: person })).json<{
        sample_id: string;
      }>();
      server.clock.advance(120_000);
      await server.t.ctx.voice.samples.processDue();
      assert.deepEqual(await sample(sampleId), { status: 'skipped', reason: 'no_audio', person_id: person });
    });

    test('person_id `user` marks the segment as the user and teaches the profile', async () => {
      const segment = await storedSegment();
      const response = await assign({ segment_id: segment.id, person_id: 'user' });
      assert.equal(response.statusCode, 200);
      const row = await server.t.ctx.store.db
        .selectFrom('transcript_segments')
        .select(['is_user', 'person_id'])
        .where('id', '=', segment.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual([Number(row.is_user), row.person_id], [1, null]);
      assert.equal((await sample(response.json<{ sample_id: string }>().sample_id)).person_id, null);
    });

    test('speaker_assigned on the socket labels the segments, queues a sample and names the speaker', async () => {
      const alice = await createPerson(server, 'Alice');
      const client = await ListenClient.connect(listenUrl(server.base, { custom_stt: 'enabled' }), server.user.session);
      const [session] = await client.waitForEvent('conversation_session');
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      client.send(suggest(segment('Let us book the venue for Friday.', 0, 2, { speaker: 'SPEAKER_02' })));
      const [frame] = await client.waitFor(() => (client.transcripts().length > 0 ? client.transcripts() : null));
      client.send({ type: 'speaker_assigned', speaker_id: 2, person_id: alice, segment_ids: [frame.id] });
      await waitUntil(async () => (await pendingSamples(server)) > 0, 'the sample');
      const rows = await server.t.ctx.store.db.selectFrom('speaker_samples').select('person_id').execute();
      assert.deepEqual(rows, [{ person_id: alice }]);
      // The sample is queued as the message arrives; the label is written in the session's write order,
      // so it is waited for rather than read at once.
      const labelled = async () => {
        const read = await server.t.app.inject({
          method: 'GET',
          url: `/v1/dev/user/conversations/${session.conversation_id}?include_transcript=true`,
          headers: server.user.auth,
        });
        assert.equal(read.statusCode, 200, read.body);
        const segments = read.json<{ transcript_segments: Array<{ speaker_name: string; person_id: string }> }>();
        return segments.transcript_segments.map((s) => [s.person_id, s.speaker_name]);
      };
      await waitUntil(async () => (await labelled())[0]?.[0] === alice, 'the label');
      assert.deepEqual(await labelled(), [[alice, 'Alice']]);
      await client.close();
    });

    test("speaker_assigned on the socket naming another user's person queues nothing", async () => {
      const other = await createUser(server.t.ctx, { name: 'Other' });
      const theirs = await createPerson({ ...server, user: other }, 'Eve');
      const client = await ListenClient.connect(listenUrl(server.base, { custom_stt: 'enabled' }), server.user.session);
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      client.send(suggest(segment('Hello there, nice to meet you.', 0, 2, { speaker: 'SPEAKER_01' })));
      const [frame] = await client.waitFor(() => (client.transcripts().length > 0 ? client.transcripts() : null));
      client.send({ type: 'speaker_assigned', speaker_id: 1, person_id: theirs, segment_ids: [frame.id] });
      client.send({ type: 'speaker_assigned', speaker_id: 1, person_id: 'user', segment_ids: [frame.id] });
      // The second assignment is processed after the first: once its sample exists, the first was refused.
      await waitUntil(async () => (await pendingSamples(server)) > 0, 'the user sample');
      const rows = await server.t.ctx.store.db.selectFrom('speaker_samples').select('person_id').execute();
      assert.deepEqual(rows, [{ person_id: null }]);
      await client.close();
    });

    describe('with real speech', { skip: SKIP_NO_ESPEAK }, () => {
      test('a segment of a live session is learned from the audio the session still holds', async () => {
        const person = await createPerson(server, 'Alice');
        const streamed = await streamSpeech(server, [{ voice: VOICES.alice, text: SENTENCES[0], speaker: 1 }]);
        const response = await assign({ segment_id: streamed.segmentIds[0], person_id: person });
        await streamed.client.close();
        server.clock.advance(120_000);
        await server.t.ctx.voice.samples.processDue();
        assert.deepEqual(await sample(response.json<{ sample_id: string }>().sample_id), {
          status: 'done',
          reason: null,
          person_id: person,
        });
        const people = await server.t.app.inject({ method: 'GET', url: '/v1/people', headers: server.user.session });
        assert.equal(people.json<Array<{ voice_vectors: number }>>()[0].voice_vectors, 1);
      });

      test('after the session, a sample is cut from the captured audio parts', async () => {
        const settings = await server.t.app.inject({
          method: 'PATCH',
          url: '/v1/users/me/settings',
          headers: server.user.session,
          payload: { audio_capture: true },
        });
        assert.equal(settings.statusCode, 200);
        const person = await createPerson(server, 'Alice');
        const streamed = await streamSpeech(server, [
          { voice: VOICES.user, text: SENTENCES[1], speaker: 0 },
          { voice: VOICES.alice, text: SENTENCES[2], speaker: 1 },
        ]);
        await streamed.client.close();
        // The session is gone (its ring with it): only the stored parts hold the audio now.
        await waitUntil(async () => server.t.ctx.listen.active.size === 0, 'session teardown');
        assert.ok(
          (await server.t.ctx.audio.repo.parts(server.user.uid, streamed.conversationId)).length > 0,
          '(await server.t.ctx.audio.repo.parts(server.user.uid, streamed.conversationId)).length > 0',
        );
        const response = await assign({ segment_id: streamed.segmentIds[1], person_id: person });
        server.clock.advance(120_000);
        await server.t.ctx.voice.samples.processDue();
        assert.equal((await sample(response.json<{ sample_id: string }>().sample_id)).status, 'done');
      });
    });
  });
}
