import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FinalizationRepository } from '../../src/store/repositories/finalization.js';
import { RecordingSessionsRepository } from '../../src/store/repositories/recording-sessions.js';
import { createTestApp, createUser, dialects, type TestApp } from '../helpers/app.js';

for (const dialect of dialects()) {
  describe(`recording sessions and fanout claims (${dialect})`, () => {
    let t: TestApp;
    let sessions: RecordingSessionsRepository;
    let fanouts: FinalizationRepository;
    let uid: string;
    let other: string;
    before(async () => {
      t = await createTestApp(dialect);
      sessions = new RecordingSessionsRepository(t.ctx.store.db);
      fanouts = new FinalizationRepository(t.ctx.store.db);
      uid = (await createUser(t.ctx)).uid;
      other = (await createUser(t.ctx, { name: 'Other' })).uid;
    });
    after(() => t.close());

    test('a retry with the same id returns the original binding and creates no second row', async () => {
      const first = await sessions.createOrGet(uid, 'rs-1', 'conv-1', 1, 2);
      const again = await sessions.createOrGet(uid, 'rs-1', 'conv-2', 3, 4);
      assert.equal(first.created, true);
      assert.equal(again.created, false);
      assert.equal(again.row.conversation_id, 'conv-1');
      const rows = await t.ctx.store.db.selectFrom('recording_sessions').selectAll().where('id', '=', 'rs-1').execute();
      assert.equal(rows.length, 1);
    });

    test('identical recording ids of two users are two sessions', async () => {
      await sessions.createOrGet(uid, 'rs-shared', 'conv-a', 1, 2);
      const theirs = await sessions.createOrGet(other, 'rs-shared', 'conv-b', 1, 2);
      assert.equal(theirs.created, true);
      assert.equal(theirs.row.conversation_id, 'conv-b');
      assert.equal((await sessions.get(uid, 'rs-shared'))?.conversation_id, 'conv-a');
    });

    test('phases advance with the sequence; a replay is accepted without a new sequence', async () => {
      await sessions.createOrGet(uid, 'rs-2', 'conv-2', 1, 2);
      const processing = await sessions.recordPhase(uid, 'rs-2', 'conv-2', 'processing', 5);
      const completed = await sessions.recordPhase(uid, 'rs-2', 'conv-2', 'completed', 6);
      const replay = await sessions.recordPhase(uid, 'rs-2', 'conv-2', 'completed', 7);
      assert.deepEqual([processing.sequence, completed.sequence, replay.sequence], [1, 2, 2]);
      assert.deepEqual([processing.accepted, completed.accepted, replay.accepted], [true, true, true]);
    });

    test('terminal phases are immutable', async () => {
      await sessions.createOrGet(uid, 'rs-3', 'conv-3', 1, 2);
      await sessions.recordPhase(uid, 'rs-3', 'conv-3', 'completed', 5);
      const later = await sessions.recordPhase(uid, 'rs-3', 'conv-3', 'processing', 6);
      const otherTerminal = await sessions.recordPhase(uid, 'rs-3', 'conv-3', 'discarded', 6);
      assert.deepEqual([later.accepted, later.rejection, later.sequence], [false, 'terminal_immutable', 1]);
      assert.deepEqual([otherTerminal.accepted, otherTerminal.rejection], [false, 'terminal_immutable']);
    });

    test('an event for another conversation is a mapping conflict naming the bound one', async () => {
      await sessions.createOrGet(uid, 'rs-4', 'conv-4', 1, 2);
      const result = await sessions.recordPhase(uid, 'rs-4', 'conv-other', 'processing', 5);
      assert.deepEqual(
        [result.accepted, result.rejection, result.conversationId],
        [false, 'mapping_conflict', 'conv-4'],
      );
    });

    test('an older phase after a newer one is a stale event', async () => {
      await sessions.createOrGet(uid, 'rs-5', 'conv-5', 1, 2);
      await sessions.recordPhase(uid, 'rs-5', 'conv-5', 'processing', 5);
      const stale = await sessions.recordPhase(uid, 'rs-5', 'conv-5', 'in_progress', 6);
      assert.deepEqual([stale.accepted, stale.rejection, stale.sequence], [false, 'stale_event', 1]);
    });

    test('an event for a missing session is not accepted', async () => {
      const missing = await sessions.recordPhase(uid, 'rs-missing', 'conv', 'processing', 5);
      assert.deepEqual([missing.accepted, missing.rejection], [false, 'missing_session']);
      assert.deepEqual(
        (await sessions.recordPhase(other, 'rs-2', 'conv-2', 'processing', 5)).rejection,
        'missing_session',
      );
    });

    test('a fanout is claimed once; a crashed claim resumes with the same key; a completed one is done', async () => {
      const claim = { fanoutKey: 'conversation:c1:finalization:1', jobId: 'job-1', conversationId: 'c1', revision: 1 };
      assert.equal(await fanouts.claimFanout(uid, claim, 1), 'claimed');
      assert.equal(await fanouts.claimFanout(uid, claim, 2), 'resumed');
      await fanouts.completeFanout(uid, claim.fanoutKey, 3);
      assert.equal(await fanouts.claimFanout(uid, claim, 4), 'done');
      const [row] = await fanouts.fanoutsFor(uid, 'c1');
      assert.deepEqual([row.status, row.attempts, row.completed_at], ['completed', 2, 3]);
      await assert.rejects(fanouts.claimFanout(other, claim, 5));
    });
  });
}
