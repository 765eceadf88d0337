import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { ManualClock } from '../../src/context-types.js';
import { JobRunner, PermanentJobError } from '../../src/jobs/runner.js';
import { JobTable, type NewJob } from '../../src/jobs/table-queue.js';
import { createTestApp, dialects, type TestApp } from '../helpers/app.js';

for (const dialect of dialects()) {
  describe(`job table (${dialect})`, () => {
    let t: TestApp;
    let jobs: JobTable;
    const clock = new ManualClock();

    before(async () => {
      t = await createTestApp(dialect, { clock });
      jobs = new JobTable(t.ctx.store.db, t.ctx.store.dialect);
    });
    after(() => t.close());

    const job = (key: string, maxAttempts = 3): NewJob => ({
      id: randomUUID(),
      kind: 'test.kind',
      userId: 'u1',
      payload: { ref: key },
      idempotencyKey: key,
      maxAttempts,
      runAt: clock.now(),
    });

    test('enqueue is idempotent by key', async () => {
      const first = await jobs.enqueue(job('k-idem'), clock.now());
      const second = await jobs.enqueue(job('k-idem'), clock.now());
      assert.equal(second, first);
      const leased = await jobs.claimById(first, 'w', 1000, clock.now());
      assert.ok(leased, 'leased');
      await jobs.complete(first, 'w', clock.now());
    });

    test('a leased job is not claimed again until its lease expires', async () => {
      const id = await jobs.enqueue(job('k-lease'), clock.now());
      const a = await jobs.claimById(id, 'worker-a', 5000, clock.now());
      assert.equal(a?.attempts, 1);
      assert.equal(await jobs.claimById(id, 'worker-b', 5000, clock.now()), undefined);
      clock.advance(5001);
      const b = await jobs.claimById(id, 'worker-b', 5000, clock.now());
      assert.equal(b?.lease_owner, 'worker-b');
      assert.equal(b?.attempts, 2);
      // The stale worker can no longer complete it.
      assert.equal(await jobs.complete(id, 'worker-a', clock.now()), false);
      assert.equal(await jobs.complete(id, 'worker-b', clock.now()), true);
      assert.equal((await jobs.findById(id))?.status, 'completed');
    });

    test('failures back off, then dead-letter after the last attempt', async () => {
      const id = await jobs.enqueue(job('k-fail', 2), clock.now());
      const first = await jobs.claimById(id, 'w', 1000, clock.now());
      assert.ok(first, 'first');
      assert.equal(await jobs.fail(first, 'w', 'Boom', true, clock.now()), 'queued');
      const queued = await jobs.findById(id);
      assert.ok((queued?.run_at ?? 0) > clock.now(), 'retry is delayed');
      assert.equal(await jobs.claimById(id, 'w', 1000, clock.now()), undefined);
      clock.advance(60_000);
      const second = await jobs.claimById(id, 'w', 1000, clock.now());
      assert.ok(second, 'second');
      assert.equal(await jobs.fail(second, 'w', 'Boom', true, clock.now()), 'dead_letter');
      assert.equal((await jobs.findById(id))?.status, 'dead_letter');
    });

    test('the runner runs handlers, retries and dead-letters permanent errors', async () => {
      const runner = new JobRunner(jobs, clock, pino({ level: 'silent' }), {
        workerId: 'r1',
        leaseMs: 10_000,
        pollMs: 10,
        concurrency: 1,
      });
      const seen: string[] = [];
      runner.register('ok.kind', async (row) => {
        seen.push(row.id);
      });
      runner.register('bad.kind', async () => {
        throw new PermanentJobError('nope');
      });
      const ok = await jobs.enqueue({ ...job('k-ok'), kind: 'ok.kind' }, clock.now());
      const bad = await jobs.enqueue({ ...job('k-bad'), kind: 'bad.kind' }, clock.now());
      assert.equal(await runner.drain(), 2);
      assert.deepEqual(seen, [ok]);
      assert.equal((await jobs.findById(ok))?.status, 'completed');
      assert.equal((await jobs.findById(bad))?.status, 'dead_letter');
    });
  });
}
