import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { systemClock } from '../../src/context-types.js';
import { deliveryId, JobQueue } from '../../src/jobs/queue.js';
import { JobRunner } from '../../src/jobs/runner.js';
import { JobTable } from '../../src/jobs/table-queue.js';
import { createTestApp, dialects, type TestApp } from '../helpers/app.js';

const redisUrl = process.env.TEST_REDIS_URL;
const KIND = 'test.queued';
const log = pino({ level: 'silent' });

const until = async (probe: () => Promise<boolean>, what: string, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

for (const dialect of dialects()) {
  describe(`queue dispatch of job rows (${dialect})`, { skip: redisUrl ? false : 'TEST_REDIS_URL not set' }, () => {
    let t: TestApp;
    let table: JobTable;
    let apiQueue: JobQueue;
    let workerQueue: JobQueue;
    let api: JobRunner;
    let worker: JobRunner;
    // Which runner ran which job, and jobs told to fail on their first attempt.
    const ran: Array<{ jobId: string; by: string }> = [];
    const failOnce = new Set<string>();
    // A queue of this suite's own, so parallel suites on the same Redis never share deliveries.
    const name = `test-jobs-${randomUUID()}`;

    const runner = (id: string, queue: JobQueue) => {
      const r = new JobRunner(table, systemClock, log, { workerId: id, leaseMs: 1_000, pollMs: 50, concurrency: 2 });
      r.register(KIND, async (job) => {
        ran.push({ jobId: job.id, by: id });
        if (failOnce.delete(job.id)) throw new Error('first attempt fails');
      });
      r.bindQueue({ queue, name, sweepMs: 300 });
      return r;
    };

    before(async () => {
      t = await createTestApp(dialect);
      table = new JobTable(t.ctx.store.db, t.ctx.store.dialect);
      apiQueue = new JobQueue(redisUrl ?? '', table, log);
      workerQueue = new JobQueue(redisUrl ?? '', table, log);
      api = runner('api', apiQueue);
      worker = runner('worker', workerQueue);
    });
    after(async () => {
      await worker.stop();
      await api.stop();
      await apiQueue.close();
      await workerQueue.close();
      await t.close();
    });

    const enqueue = (runAt = Date.now()) =>
      table.enqueue(
        {
          id: randomUUID(),
          kind: KIND,
          userId: 'u1',
          payload: {},
          idempotencyKey: randomUUID(),
          maxAttempts: 3,
          runAt,
        },
        Date.now(),
      );
    const row = async (jobId: string) => {
      const found = await table.findById(jobId);
      assert.ok(found, 'found');
      return found;
    };
    const completed = (jobId: string) => until(async () => (await row(jobId)).status === 'completed', jobId);

    test('a process that only dispatches sends the job and never runs it', async () => {
      const jobId = await enqueue();
      assert.equal(await api.runOne(jobId), false);
      const sent = await row(jobId);
      assert.equal(sent.status, 'queued');
      assert.equal(sent.dispatch_generation, 1);
      assert.equal(ran.filter((r) => r.jobId === jobId).length, 0);
      // The delivery waits in BullMQ until a worker consumes the queue.
      worker.start();
      await completed(jobId);
      assert.deepEqual(
        ran.filter((r) => r.jobId === jobId),
        [{ jobId, by: 'worker' }],
      );
      assert.equal((await row(jobId)).lease_owner, 'worker');
    });

    test('wake on the dispatching process reaches the worker', async () => {
      const jobs = await Promise.all([enqueue(), enqueue(), enqueue()]);
      api.wake();
      for (const jobId of jobs) await completed(jobId);
      assert.ok(
        jobs.every((jobId) => ran.filter((r) => r.jobId === jobId).length === 1),
        'jobs.every((jobId) => ran.filter((r) => r.jobId === jobId).length === 1)',
      );
    });

    test('a failed attempt is retried through a delayed delivery of a new generation', async () => {
      const jobId = await enqueue();
      failOnce.add(jobId);
      api.wake();
      await completed(jobId);
      const done = await row(jobId);
      assert.equal(done.attempts, 2);
      assert.equal(done.dispatch_generation, 2);
      assert.equal(ran.filter((r) => r.jobId === jobId).length, 2);
    });

    test('a job whose worker died (expired lease) is re-sent by the sweep and run once more', async () => {
      // Stored as a worker that died mid-job leaves it: leased, its lease long expired.
      const jobId = randomUUID();
      const past = Date.now() - 5_000;
      await t.ctx.store.db
        .insertInto('jobs')
        .values({
          ...{ id: jobId, kind: KIND, user_id: 'u1', payload: '{}', status: 'leased', attempts: 1, max_attempts: 3 },
          ...{ run_at: past, lease_owner: 'dead-worker', lease_until: past + 1, last_error: null },
          ...{ idempotency_key: randomUUID(), dispatch_generation: 1, created_at: past, updated_at: past },
        })
        .execute();
      await completed(jobId);
      const done = await row(jobId);
      assert.equal(done.attempts, 2);
      assert.equal(done.lease_owner, 'worker');
      assert.ok(done.dispatch_generation >= 1, 'done.dispatch_generation >= 1');
    });

    test('a dispatch lost with Redis is re-sent; a delivery still queued is not', async () => {
      const lost = await enqueue();
      const past = Date.now() - 5_000;
      await t.ctx.store.db
        .updateTable('jobs')
        .set({ dispatch_generation: 1, updated_at: past })
        .where('id', '=', lost)
        .execute();
      await completed(lost);
      assert.equal((await row(lost)).dispatch_generation, 2);

      // A backlog: the delivery is waiting (delayed), so a sweep leaves the job at its generation.
      const waiting = await enqueue(Date.now() + 60_000);
      const ticket = { id: waiting, generation: 1, runAt: Date.now() + 60_000 };
      await table.bumpGeneration(waiting, past, 0);
      await workerQueue.send(name, [ticket], Date.now());
      const later = Date.now() + 120_000;
      assert.equal(await workerQueue.sweep(name, [KIND], later, 300), 0);
      assert.equal((await row(waiting)).dispatch_generation, 1);
      assert.equal(deliveryId(ticket), `${waiting}-1`);
    });
  });
}
