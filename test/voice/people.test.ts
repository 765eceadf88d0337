import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { pcm16ToWav } from '../../src/providers/audio/wav.js';
import { createTestApp, createUser, dialects, type TestApp, type TestUser } from '../helpers/app.js';

/** People (known speakers) over REST with a session token, and person deletion's cascade (SPEC §6.1). */
for (const dialect of dialects()) {
  describe(`people API (${dialect})`, () => {
    let t: TestApp;
    let user: TestUser;
    beforeEach(async () => {
      t = await createTestApp(dialect);
      user = await createUser(t.ctx);
    });
    afterEach(() => t.close());

    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, who = user) =>
      t.app.inject({ method, url, headers: who.session, ...(payload ? { payload } : {}) });

    const segmentWithPerson = async (personId: string) => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/dev/user/conversations/from-segments',
        headers: user.auth,
        payload: {
          transcript_segments: [
            { text: 'We should book the venue for Friday.', start: 0, end: 3, person_id: personId },
          ],
        },
      });
      assert.equal(created.statusCode, 200, created.body);
      return t.ctx.store.db
        .selectFrom('transcript_segments')
        .select(['id', 'person_id'])
        .where('conversation_id', '=', created.json<{ id: string }>().id)
        .executeTakeFirstOrThrow();
    };

    test('a person is created, listed by name, renamed and deleted', async () => {
      const created = await call('POST', '/v1/people', { name: '  Bob ' });
      assert.equal(created.statusCode, 200);
      const bob = created.json<{ id: string; name: string; voice_vectors: number }>();
      assert.equal(bob.name, 'Bob');
      assert.equal(bob.voice_vectors, 0);
      await call('POST', '/v1/people', { name: 'Alice' });
      assert.deepEqual(
        (await call('GET', '/v1/people')).json<Array<{ name: string }>>().map((p) => p.name),
        ['Alice', 'Bob'],
      );
      const renamed = await call('PATCH', `/v1/people/${bob.id}`, { name: 'Robert' });
      assert.equal(renamed.statusCode, 200);
      assert.equal(renamed.json<{ name: string }>().name, 'Robert');
      assert.deepEqual((await call('DELETE', `/v1/people/${bob.id}`)).json(), { success: true });
      assert.equal((await call('GET', '/v1/people')).json<unknown[]>().length, 1);
    });

    test('a blank name is a 422 and an unknown person a 404', async () => {
      const blank = await call('POST', '/v1/people', { name: '   ' });
      assert.equal(blank.statusCode, 422);
      assert.deepEqual(blank.json(), {
        detail: [{ loc: ['body', 'name'], msg: 'name cannot be empty', type: 'value_error' }],
      });
      assert.equal((await call('POST', '/v1/people', {})).statusCode, 422);
      assert.deepEqual((await call('PATCH', '/v1/people/nope', { name: 'X' })).json(), { detail: 'Person not found' });
      assert.equal((await call('DELETE', '/v1/people/nope')).statusCode, 404);
    });

    test('the people routes need a session token', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/v1/people' });
      assert.equal(response.statusCode, 401);
    });

    test("one user cannot see, rename or delete another user's person", async () => {
      const other = await createUser(t.ctx, { name: 'Other' });
      const theirs = (await call('POST', '/v1/people', { name: 'Secret' }, other)).json<{ id: string }>();
      assert.deepEqual((await call('GET', '/v1/people')).json(), []);
      assert.equal((await call('PATCH', `/v1/people/${theirs.id}`, { name: 'Mine' })).statusCode, 404);
      assert.equal((await call('DELETE', `/v1/people/${theirs.id}`)).statusCode, 404);
      assert.equal(
        (await call('GET', '/v1/people', undefined, other)).json<Array<{ name: string }>>()[0].name,
        'Secret',
      );
    });

    test('deleting a person drops their voice vectors and samples and unlinks their segments', async () => {
      const person = (await call('POST', '/v1/people', { name: 'Carol' })).json<{ id: string }>();
      const segment = await segmentWithPerson(person.id);
      assert.equal(segment.person_id, person.id);
      const assigned = await call('POST', '/assign_speaker', { segment_id: segment.id, person_id: person.id });
      assert.equal(assigned.statusCode, 200);
      await t.ctx.voice.repo.addEmbedding({
        id: 'v1',
        user_id: user.uid,
        person_id: person.id,
        engine: 'spectral-v1',
        vector: Buffer.alloc(1024),
        speech_ms: 3000,
        source: 'sample',
        created_at: 1,
      });
      assert.equal((await call('DELETE', `/v1/people/${person.id}`)).statusCode, 200);
      const db = t.ctx.store.db;
      const [vectors, samples, stored] = await Promise.all([
        db.selectFrom('voice_embeddings').select('id').where('user_id', '=', user.uid).execute(),
        db.selectFrom('speaker_samples').select('id').where('user_id', '=', user.uid).execute(),
        db.selectFrom('transcript_segments').select('person_id').where('id', '=', segment.id).executeTakeFirstOrThrow(),
      ]);
      assert.deepEqual([vectors.length, samples.length, stored.person_id], [0, 0, null]);
    });
  });

  describe(`voice profile API (${dialect})`, () => {
    let t: TestApp;
    let user: TestUser;
    beforeEach(async () => {
      t = await createTestApp(dialect);
      user = await createUser(t.ctx);
    });
    afterEach(() => t.close());

    const upload = (body: Buffer, contentType: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/users/me/voice-profile',
        headers: { ...user.session, 'content-type': contentType },
        payload: body,
      });

    /** 3 s of a voiced harmonic tone: speech enough for the energy gate (the real-voice tests use espeak). */
    const tone = (seconds: number) => {
      const samples = Int16Array.from({ length: seconds * 16000 }, (_, i) =>
        Math.round(
          5000 * (Math.sin((2 * Math.PI * 150 * i) / 16000) + 0.4 * Math.sin((2 * Math.PI * 450 * i) / 16000)),
        ),
      );
      return Buffer.from(samples.buffer);
    };

    test('no profile at first; a WAV upload sets it; deleting removes it', async () => {
      const before = await t.app.inject({ method: 'GET', url: '/v1/users/me/voice-profile', headers: user.session });
      assert.equal(before.json<{ has_profile: boolean }>().has_profile, false);
      const set = await upload(pcm16ToWav(tone(3), 16000), 'audio/wav');
      assert.equal(set.statusCode, 200, set.body);
      const profile = set.json<{ has_profile: boolean; engine: string; vectors: number; speech_seconds: number }>();
      assert.deepEqual([profile.has_profile, profile.engine, profile.vectors], [true, 'spectral-v1', 1]);
      assert.ok(profile.speech_seconds > 2.5, 'profile.speech_seconds > 2.5');
      const removed = await t.app.inject({
        method: 'DELETE',
        url: '/v1/users/me/voice-profile',
        headers: user.session,
      });
      assert.deepEqual(removed.json(), { success: true });
      const again = await t.app.inject({ method: 'DELETE', url: '/v1/users/me/voice-profile', headers: user.session });
      assert.deepEqual([again.statusCode, again.json()], [404, { detail: 'Voice profile not found' }]);
    });

    test('raw 16 kHz PCM16 is accepted as application/octet-stream', async () => {
      const set = await upload(tone(3), 'application/octet-stream');
      assert.equal(set.statusCode, 200, set.body);
      assert.equal(set.json<{ vectors: number }>().vectors, 1);
    });

    test('silence is refused with the speech it found', async () => {
      const response = await upload(pcm16ToWav(Buffer.alloc(3 * 32000), 16000), 'audio/wav');
      assert.equal(response.statusCode, 422);
      assert.match(
        response.json<{ detail: Array<{ msg: string }> }>().detail[0].msg,
        /^Not enough speech in the audio \(0\.0 s; at least 2 s needed\)$/,
      );
    });

    test('a body that is not WAV is a 422 naming the problem', async () => {
      const response = await upload(Buffer.from('definitely not audio'), 'audio/wav');
      assert.deepEqual(
        [response.statusCode, response.json()],
        [
          422,
          { detail: [{ loc: ['body'], msg: 'Audio could not be read: not a RIFF/WAVE file', type: 'value_error' }] },
        ],
      );
    });
  });
}
