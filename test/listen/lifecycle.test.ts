import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { dialects } from '../helpers/app.js';
import { ListenClient, type ListenServer, listenServer, listenUrl, segment, suggest } from './support.js';

const SPEECH = 'Remind me to call the dentist tomorrow at nine about moving my appointment to Friday.';

for (const dialect of dialects()) {
  describe(`listen lifecycle (${dialect})`, () => {
    let clock: ManualClock;
    let server: ListenServer;
    beforeEach(async () => {
      clock = new ManualClock();
      server = await listenServer(dialect, { clock });
    });
    afterEach(() => server.close());

    const connect = async (query: Record<string, string | number> = {}) => {
      const client = await ListenClient.connect(
        listenUrl(server.base, { custom_stt: 'enabled', ...query }),
        server.user.session,
      );
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      return client;
    };
    const speak = async (client: ListenClient, text = SPEECH) => {
      const before = client.transcripts().length;
      client.send(suggest(segment(text, 0, 4)));
      await client.waitFor(() => client.transcripts().length > before, 5000, 'transcript echo');
    };
    /** Silence: time passes while the client keeps sending keepalive frames (SPEC §4.11). */
    const silence = async (client: ListenClient, ms: number) => {
      for (let passed = 0; passed < ms; passed += 30_000) {
        clock.advance(Math.min(30_000, ms - passed));
        client.send(Buffer.alloc(320));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const conversation = (id: unknown) => server.t.ctx.listen.live.find(server.user.uid, String(id));

    test('silence past the timeout hands the conversation to processing and starts a new one', async () => {
      const client = await connect();
      const [first] = await client.waitForEvent('conversation_session');
      await speak(client);
      await silence(client, 120_000);
      const [started] = await client.waitForEvent('memory_processing_started');
      assert.equal(started.conversation_id, first.conversation_id);
      assert.equal(started.recording_session_id, first.recording_session_id);
      assert.equal(started.lifecycle_phase, 'processing');
      assert.equal(started.lifecycle_sequence, 1);
      assert.equal((started.memory as { id: string }).id, first.conversation_id);
      assertReferenceConversation(started.memory);
      const sessions = await client.waitForEvent('conversation_session', 2);
      assert.notEqual(sessions[1].conversation_id, first.conversation_id);
      assert.notEqual(sessions[1].recording_session_id, first.recording_session_id);
      assert.equal((await conversation(first.conversation_id))?.status, 'processing');
      const jobs = await server.t.ctx.listen.finalization.jobsFor(server.user.uid, String(first.conversation_id));
      assert.deepEqual(
        jobs.map((j) => [j.idempotency_key, j.status, JSON.parse(j.payload)]),
        [
          [
            `listen-finalization:${server.user.uid}:${first.conversation_id}:1`,
            'queued',
            { conversation_id: first.conversation_id, revision: 1 },
          ],
        ],
      );
      await client.close();
    });

    test('one second short of the timeout nothing is handed off', async () => {
      const client = await connect();
      await client.waitForEvent('conversation_session');
      await speak(client);
      await silence(client, 119_000);
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal(client.events('memory_processing_started').length, 0);
      await client.close();
    });

    test('finalization completes the conversation and sends memory_created to the recording session', async () => {
      const client = await connect();
      const [first] = await client.waitForEvent('conversation_session');
      await speak(client);
      await silence(client, 120_000);
      await client.waitForEvent('memory_processing_started');
      await server.t.ctx.listen.finalizationRunner.drain();
      const [created] = await client.waitForEvent('memory_created');
      assert.equal(created.conversation_id, first.conversation_id);
      assert.equal(created.lifecycle_phase, 'completed');
      assert.equal(created.lifecycle_sequence, 2);
      const memory = created.memory as { id: string; structured: { title: string }; transcript_segments: unknown[] };
      assert.equal(memory.id, first.conversation_id);
      assert.notEqual(memory.structured.title, '');
      assert.equal(memory.transcript_segments.length, 1);
      assertReferenceConversation(created.memory);
      assert.equal((await conversation(first.conversation_id))?.status, 'completed');
      const fanouts = await server.t.ctx.listen.finalization.fanoutsFor(server.user.uid, String(first.conversation_id));
      assert.deepEqual(
        fanouts.map((f) => [f.fanout_key, f.status, f.attempts]),
        [[`conversation:${first.conversation_id}:finalization:1`, 'completed', 1]],
      );
      await client.close();
    });

    test('a finalization job run again after its fanout completed does not fan out twice', async () => {
      const client = await connect();
      const [first] = await client.waitForEvent('conversation_session');
      await speak(client);
      await silence(client, 120_000);
      await client.waitForEvent('memory_processing_started');
      await server.t.ctx.listen.finalizationRunner.drain();
      await client.waitForEvent('memory_created');
      const [job] = await server.t.ctx.listen.finalization.jobsFor(server.user.uid, String(first.conversation_id));
      await server.t.ctx.listen.finalizer.run(job);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(client.events('memory_created').length, 1);
      const fanouts = await server.t.ctx.listen.finalization.fanoutsFor(server.user.uid, String(first.conversation_id));
      assert.equal(fanouts.length, 1);
      assert.equal(fanouts[0].attempts, 1);
      await client.close();
    });

    test('silence keepalives do not move finished_at, so the timeout still fires', async () => {
      const client = await connect();
      await client.waitForEvent('conversation_session');
      await speak(client);
      await silence(client, 120_000);
      await client.waitForEvent('memory_processing_started');
      await client.close();
    });

    test('an empty conversation is deleted on silence and its recording session discarded', async () => {
      const client = await connect();
      const [first] = await client.waitForEvent('conversation_session');
      await silence(client, 120_000);
      const sessions = await client.waitForEvent('conversation_session', 2);
      assert.notEqual(sessions[1].conversation_id, first.conversation_id);
      assert.equal(await conversation(first.conversation_id), undefined);
      assert.equal(client.events('memory_processing_started').length, 0);
      const row = await server.t.ctx.store.db
        .selectFrom('recording_sessions')
        .selectAll()
        .where('id', '=', String(first.recording_session_id))
        .executeTakeFirst();
      assert.equal(row?.lifecycle_phase, 'discarded');
      assert.equal(row?.lifecycle_sequence, 1);
      await client.close();
    });

    test('a single-channel disconnect leaves the conversation in progress', async () => {
      const client = await connect();
      const [first] = await client.waitForEvent('conversation_session');
      await speak(client);
      await client.close(1001);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal((await conversation(first.conversation_id))?.status, 'in_progress');
    });

    test('the next session of the user picks up a conversation left in progress', async () => {
      const client = await connect();
      const [first] = await client.waitForEvent('conversation_session');
      await speak(client);
      await client.close(1001);
      const next = await connect();
      // The hand-over runs when the next session opens; on a busy machine (CI shares two cores) it has
      // taken over 3 s on PostgreSQL, so the wait is bounded generously rather than tightly.
      const deadline = Date.now() + 30_000;
      while ((await conversation(first.conversation_id))?.status !== 'processing' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      assert.equal((await conversation(first.conversation_id))?.status, 'processing');
      await next.close();
    });

    test('a multi-channel disconnect hands the conversation to processing', async () => {
      const client = await connect({ channels: 2, source: 'phone_call' });
      const [first] = await client.waitForEvent('conversation_session');
      await speak(client);
      await client.close(1000);
      const deadline = Date.now() + 30_000; // bounded generously: CI shares two cores
      while ((await conversation(first.conversation_id))?.status !== 'processing' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      assert.equal((await conversation(first.conversation_id))?.status, 'processing');
    });

    test('a reconnect with the same client_conversation_id resumes the same conversation', async () => {
      const id = randomUUID();
      const client = await connect({ client_conversation_id: id });
      const [first] = await client.waitForEvent('conversation_session');
      assert.equal(first.recording_session_id, id);
      await speak(client, 'First half of the story.');
      await client.close(1001);
      const again = await connect({ client_conversation_id: id.toUpperCase() });
      const [resumed] = await again.waitForEvent('conversation_session');
      assert.equal(resumed.recording_session_id, id);
      assert.equal(resumed.conversation_id, first.conversation_id);
      assert.equal(resumed.lifecycle_sequence, 0);
      await speak(again, 'Second half of the story.');
      const segments = await server.t.ctx.repos.conversations.segmentsFor(server.user.uid, [
        String(first.conversation_id),
      ]);
      assert.deepEqual(
        segments.get(String(first.conversation_id))?.map((s) => [s.seq, s.text]),
        [
          [0, 'First half of the story.'],
          [1, 'Second half of the story.'],
        ],
      );
      await again.close();
    });

    test('after completion the same recording id returns its terminal envelope and is never rebound', async () => {
      const id = randomUUID();
      const client = await connect({ client_conversation_id: id });
      const [first] = await client.waitForEvent('conversation_session');
      await speak(client);
      await silence(client, 120_000);
      await client.waitForEvent('memory_processing_started');
      await server.t.ctx.listen.finalizationRunner.drain();
      await client.waitForEvent('memory_created');
      await client.close();
      const again = await connect({ client_conversation_id: id });
      const sessions = await again.waitForEvent('conversation_session', 2);
      assert.deepEqual(
        [
          sessions[0].recording_session_id,
          sessions[0].conversation_id,
          sessions[0].status,
          sessions[0].lifecycle_phase,
          sessions[0].lifecycle_sequence,
        ],
        [id, first.conversation_id, 'completed', 'completed', 2],
      );
      const [replayed] = await again.waitForEvent('memory_created');
      assert.equal(replayed.conversation_id, first.conversation_id);
      assert.notEqual(sessions[1].recording_session_id, id);
      assert.notEqual(sessions[1].conversation_id, first.conversation_id);
      assert.equal(sessions[1].status, 'in_progress');
      await again.close();
    });

    test("another user's client_conversation_id never reaches the first user's conversation", async () => {
      const id = randomUUID();
      const client = await connect({ client_conversation_id: id });
      const [first] = await client.waitForEvent('conversation_session');
      const { createUser } = await import('../helpers/app.js');
      const other = await createUser(server.t.ctx, { name: 'Other' });
      const intruder = await ListenClient.connect(
        listenUrl(server.base, { custom_stt: 'enabled', client_conversation_id: id }),
        other.session,
      );
      const [theirs] = await intruder.waitForEvent('conversation_session');
      assert.equal(theirs.recording_session_id, id);
      assert.notEqual(theirs.conversation_id, first.conversation_id);
      await speak(client);
      await silence(client, 120_000);
      await client.waitForEvent('memory_processing_started');
      await server.t.ctx.listen.finalizationRunner.drain();
      await client.waitForEvent('memory_created');
      assert.equal(intruder.events('memory_processing_started').length + intruder.events('memory_created').length, 0);
      assert.equal(intruder.transcripts().length, 0);
      await intruder.close();
      await client.close();
    });
  });
}

/**
 * The fields the app's conversation parser reads, with the reference Conversation model's defaults
 * (research/omi-listen.md §1.4): lists are lists, the flags are there, segments carry is_user.
 */
function assertReferenceConversation(value: unknown): void {
  const memory = value as Record<string, unknown>;
  for (const key of ['id', 'created_at', 'started_at', 'finished_at', 'structured', 'status', 'language', 'source'])
    assert.ok(key in memory, `memory.${key}`);
  for (const key of ['photos', 'audio_files', 'plugins_results', 'apps_results', 'suggested_summarization_apps'])
    assert.ok(Array.isArray(memory[key]), `memory.${key} is a list`);
  assert.deepEqual(memory.photos, []);
  assert.deepEqual(memory.plugins_results, []);
  assert.equal(memory.external_data, null);
  assert.equal(memory.deleted, false);
  assert.equal(memory.discarded, false);
  assert.equal(memory.visibility, 'private');
  assert.equal(memory.is_locked, false);
  assert.equal(memory.starred, false);
  assert.equal(memory.private_cloud_sync_enabled, false);
  assert.ok(Array.isArray(memory.transcript_segments), 'transcript_segments is a list, never null');
  for (const segment of memory.transcript_segments as Array<Record<string, unknown>>) {
    assert.equal(typeof segment.is_user, 'boolean');
    assert.equal(typeof segment.text, 'string');
    assert.equal(typeof segment.start, 'number');
    assert.equal(segment.speech_profile_processed, true);
  }
}
