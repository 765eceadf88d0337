import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects } from '../helpers/app.js';
import { ListenClient, type ListenServer, listenServer, listenUrl, segment, suggest } from './support.js';

for (const dialect of dialects()) {
  describe(`listen stream (${dialect})`, () => {
    let server: ListenServer;
    before(async () => {
      server = await listenServer(dialect);
    });
    after(() => server.close());

    const connect = (query: Record<string, string | number> = {}, headers?: Record<string, string>) =>
      ListenClient.connect(listenUrl(server.base, { custom_stt: 'enabled', ...query }), headers ?? server.user.session);

    test('a connected stream gets conversation_session with lifecycle sequence 0, then ready', async () => {
      const client = await connect();
      const [session] = await client.waitForEvent('conversation_session');
      assert.equal(session.status, 'in_progress');
      assert.equal(session.lifecycle_version, 1);
      assert.equal(session.lifecycle_phase, 'in_progress');
      assert.equal(session.lifecycle_sequence, 0);
      assert.match(String(session.recording_session_id), /^[0-9a-f-]{36}$/);
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      await client.close();
    });

    test('client transcripts are stored and echoed as a segment array sorted by start', async () => {
      const client = await connect();
      const [session] = await client.waitForEvent('conversation_session');
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      client.send(suggest(segment('second part', 2, 3), segment('first part', 0.5, 1.5)));
      const segments = await client.waitFor(() => (client.transcripts().length >= 2 ? client.transcripts() : null));
      assert.deepEqual(
        segments.map((s) => s.text),
        ['first part', 'second part'],
      );
      assert.deepEqual(Object.keys(segments[0]).sort(), [
        'end',
        'id',
        'is_user',
        'person_id',
        'speaker',
        'speaker_id',
        'start',
        'stt_provider',
        'text',
      ]);
      // SPEC §6.1: times are relative to the conversation start, fixed by its first segment.
      assert.equal(segments[0].start, 0);
      assert.equal(segments[1].start, 1.5);
      const stored = await server.t.ctx.repos.conversations.segmentsFor(server.user.uid, [
        String(session.conversation_id),
      ]);
      assert.deepEqual(
        stored.get(String(session.conversation_id))?.map((s) => s.text),
        ['first part', 'second part'],
      );
      await client.close();
    });

    test('speaker_assigned labels the named segments and later segments of that speaker', async () => {
      const client = await connect();
      const [session] = await client.waitForEvent('conversation_session');
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      client.send(suggest(segment('who is speaking', 0, 1, { speaker: 'SPEAKER_02' })));
      const [first] = await client.waitFor(() => (client.transcripts().length > 0 ? client.transcripts() : null));
      client.send({ type: 'speaker_assigned', speaker_id: 2, person_id: 'user', segment_ids: [first.id] });
      client.send(suggest(segment('still me', 2, 3, { speaker: 'SPEAKER_02' })));
      const later = await client.waitFor(() => client.transcripts()[1]);
      assert.equal(later.is_user, true);
      const stored = await server.t.ctx.repos.conversations.segmentsFor(server.user.uid, [
        String(session.conversation_id),
      ]);
      assert.deepEqual(
        stored.get(String(session.conversation_id))?.map((s) => [s.text, s.speaker_id, s.is_user]),
        [
          ['who is speaking', 2, 1],
          ['still me', 2, 1],
        ],
      );
      await client.close();
    });

    test("speaker_assigned with another user's person writes nothing", async () => {
      const other = await server.t.ctx.users.create({ name: 'Mallory' });
      const now = Date.now();
      await server.t.ctx.store.db
        .insertInto('people')
        .values({ id: 'foreign-person', user_id: other.uid, name: 'Eve', created_at: now, updated_at: now })
        .execute();
      const client = await connect();
      const [session] = await client.waitForEvent('conversation_session');
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      client.send(suggest(segment('hello there', 0, 1, { speaker: 'SPEAKER_03' })));
      const [first] = await client.waitFor(() => (client.transcripts().length > 0 ? client.transcripts() : null));
      client.send({ type: 'speaker_assigned', speaker_id: 3, person_id: 'foreign-person', segment_ids: [first.id] });
      client.send(suggest(segment('more words', 2, 3, { speaker: 'SPEAKER_03' })));
      const later = await client.waitFor(() => client.transcripts()[1]);
      assert.equal(later.person_id, null);
      const stored = await server.t.ctx.repos.conversations.segmentsFor(server.user.uid, [
        String(session.conversation_id),
      ]);
      assert.deepEqual(
        stored.get(String(session.conversation_id))?.map((s) => s.person_id),
        [null, null],
      );
      await client.close();
    });
  });
}
