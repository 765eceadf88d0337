import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, test } from 'node:test';
import type { RecordingSessionMode } from '../../src/config.js';
import { ManualClock } from '../../src/context-types.js';
import type { TextEngine } from '../../src/processing/engine.js';
import { createLocalEngine } from '../../src/processing/local/index.js';
import { dialects } from '../helpers/app.js';
import { ListenClient, type ListenServer, listenServer, listenUrl, segment, suggest } from './support.js';

for (const dialect of dialects()) {
  describe(`recording session modes, BYOK and dead letters (${dialect})`, () => {
    let server: ListenServer | null = null;
    afterEach(async () => {
      await server?.close();
      server = null;
    });

    const start = async (
      mode: RecordingSessionMode,
      extra: { clock?: ManualClock; engine?: TextEngine; maxAttempts?: number } = {},
    ) => {
      server = await listenServer(dialect, {
        clock: extra.clock,
        config: { recordingSessionMode: mode },
        timings: extra.maxAttempts ? { finalizationMaxAttempts: extra.maxAttempts } : {},
        engine: extra.engine,
      });
      return server;
    };
    const connect = async (
      s: ListenServer,
      query: Record<string, string> = {},
      headers: Record<string, string> = {},
    ) => {
      const client = await ListenClient.connect(listenUrl(s.base, { custom_stt: 'enabled', ...query }), {
        ...s.user.session,
        ...headers,
      });
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      return client;
    };
    /** Points the legacy pointer of a recording id at a different conversation than its durable binding. */
    const splitBinding = async (s: ListenServer, recordingId: string, boundConversation: string) => {
      const db = s.t.ctx.store.db;
      await db
        .updateTable('conversations')
        .set({ client_session_id: null })
        .where('id', '=', boundConversation)
        .execute();
      const legacy = randomUUID();
      const row = await db
        .selectFrom('conversations')
        .selectAll()
        .where('id', '=', boundConversation)
        .executeTakeFirstOrThrow();
      await db
        .insertInto('conversations')
        .values({ ...row, id: legacy, client_session_id: recordingId })
        .execute();
      return legacy;
    };

    test('shadow mode sends the legacy envelope: ids with null lifecycle fields', async () => {
      const s = await start('shadow');
      const client = await connect(s);
      const [session] = await client.waitForEvent('conversation_session');
      assert.match(String(session.conversation_id), /^[0-9a-f-]{36}$/);
      assert.deepEqual(
        [session.lifecycle_version, session.lifecycle_phase, session.lifecycle_sequence],
        [null, null, null],
      );
      await client.close();
    });

    test('enforce mode routes a reconnect to the canonical binding when the legacy pointer disagrees', async () => {
      const s = await start('enforce');
      const id = randomUUID();
      const client = await connect(s, { client_conversation_id: id });
      const [first] = await client.waitForEvent('conversation_session');
      await client.close(1001);
      await splitBinding(s, id, String(first.conversation_id));
      const again = await connect(s, { client_conversation_id: id });
      const [resumed] = await again.waitForEvent('conversation_session');
      assert.equal(resumed.conversation_id, first.conversation_id);
      assert.equal(resumed.lifecycle_version, 1);
      await again.close();
    });

    test('dual_write keeps the legacy route on a mismatch and nulls the envelope', async () => {
      const s = await start('dual_write');
      const id = randomUUID();
      const client = await connect(s, { client_conversation_id: id });
      const [first] = await client.waitForEvent('conversation_session');
      await client.close(1001);
      const legacy = await splitBinding(s, id, String(first.conversation_id));
      const again = await connect(s, { client_conversation_id: id });
      const [resumed] = await again.waitForEvent('conversation_session');
      assert.equal(resumed.conversation_id, legacy);
      assert.deepEqual(
        [resumed.lifecycle_version, resumed.lifecycle_phase, resumed.lifecycle_sequence],
        [null, null, null],
      );
      await again.close();
    });

    test('a conversation recorded with a user key waits in blocked_byok until a live request brings one', async () => {
      const s = await start('dual_write');
      const byok = { 'x-byok-openai': 'sk-user-key' };
      const client = await connect(s, {}, byok);
      const [first] = await client.waitForEvent('conversation_session');
      client.send(suggest(segment('Remind me to renew the passport before the trip in June.', 0, 3)));
      await client.waitFor(() => client.transcripts().length > 0);
      await client.close(1001);
      const plain = await connect(s);
      const jobs = () => s.t.ctx.listen.finalization.jobsFor(s.user.uid, String(first.conversation_id));
      await plain.waitFor(() => true);
      const deadline = Date.now() + 30_000; // bounded generously: CI shares two cores
      while ((await jobs()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      const [blocked] = await jobs();
      assert.equal(blocked.status, 'blocked_byok');
      assert.doesNotMatch(blocked.payload, /sk-user-key/);
      await plain.close();
      const keyed = await connect(s, {}, byok);
      const until = Date.now() + 30_000;
      while ((await jobs())[0].status === 'blocked_byok' && Date.now() < until)
        await new Promise((r) => setTimeout(r, 25));
      assert.equal((await jobs())[0].status, 'queued');
      await keyed.close();
    });

    test('a finalization that fails its last attempt is dead-lettered and the conversation marked failed', async () => {
      const clock = new ManualClock();
      const local = createLocalEngine();
      // An engine provider that is down: the process boundary of the text engine port.
      const failing: TextEngine = {
        ...local,
        name: local.name,
        decideRelevance: () => Promise.reject(new Error('engine unavailable')),
      };
      const s = await start('dual_write', { clock, engine: failing, maxAttempts: 1 });
      const client = await connect(s);
      const [first] = await client.waitForEvent('conversation_session');
      client.send(suggest(segment('Remind me to renew the passport before the trip in June.', 0, 3)));
      await client.waitFor(() => client.transcripts().length > 0);
      for (let i = 0; i < 4; i++) {
        clock.advance(30_000);
        client.send(Buffer.alloc(320));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await client.waitForEvent('memory_processing_started');
      await s.t.ctx.listen.finalizationRunner.drain();
      const [job] = await s.t.ctx.listen.finalization.jobsFor(s.user.uid, String(first.conversation_id));
      assert.equal(job.status, 'dead_letter');
      const conversation = await s.t.ctx.listen.live.find(s.user.uid, String(first.conversation_id));
      assert.deepEqual([conversation?.status, conversation?.discarded], ['failed', 1]);
      const session = await s.t.ctx.store.db
        .selectFrom('recording_sessions')
        .selectAll()
        .where('id', '=', String(first.recording_session_id))
        .executeTakeFirst();
      assert.deepEqual([session?.lifecycle_phase, session?.lifecycle_sequence], ['failed', 2]);
      await client.close();
    });
  });
}
