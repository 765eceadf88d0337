import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Queue } from 'bullmq';
import { ManualClock } from '../../src/context-types.js';
import { FINALIZATION_QUEUE } from '../../src/listen/dispatch.js';
import { ListenClient, type ListenServer, listenServer, listenUrl, segment, suggest } from './support.js';

const redisUrl = process.env.TEST_REDIS_URL;
/** A Redis database of its own: the suite's worker must not consume other suites' deliveries. */
const suiteRedis = () => {
  const url = new URL(redisUrl ?? 'redis://127.0.0.1:6379');
  url.pathname = '/14';
  return url.toString();
};

describe('queue dispatch of finalization jobs', { skip: redisUrl ? false : 'TEST_REDIS_URL not set' }, () => {
  let server: ListenServer;
  let clock: ManualClock;
  before(async () => {
    clock = new ManualClock();
    server = await listenServer('sqlite', { clock, config: { dispatchMode: 'queue', redisUrl: suiteRedis() } });
    // As `keepsake worker` does: started runners consume their queues.
    server.t.ctx.runner.start();
    server.t.ctx.listen.finalizationRunner.start();
  });
  after(() => server.close());

  test('a silence handoff reaches the queue worker and memory_created reaches the client', async () => {
    const client = await ListenClient.connect(listenUrl(server.base, { custom_stt: 'enabled' }), server.user.session);
    const [first] = await client.waitForEvent('conversation_session');
    client.send(suggest(segment('Remind me to water the plants on Sunday morning before the trip.', 0, 3)));
    await client.waitFor(() => client.transcripts().length > 0);
    for (let i = 0; i < 4; i++) {
      clock.advance(30_000);
      client.send(Buffer.alloc(320));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const [created] = await client.waitForEvent('memory_created', 1, 10_000);
    assert.equal(created.conversation_id, first.conversation_id);
    assert.equal(created.lifecycle_phase, 'completed');
    const [job] = await server.t.ctx.listen.finalization.jobsFor(server.user.uid, String(first.conversation_id));
    assert.equal(job.status, 'completed');
    await client.close();
  });

  test('a delivery carrying an older dispatch generation is dropped', async () => {
    const client = await ListenClient.connect(listenUrl(server.base, { custom_stt: 'enabled' }), server.user.session);
    const [first] = await client.waitForEvent('conversation_session');
    client.send(suggest(segment('Book the car service for next Tuesday afternoon please.', 0, 3)));
    await client.waitFor(() => client.transcripts().length > 0);
    await client.close(1001);
    // Hand off through the lifecycle directly, without dispatching, then deliver a stale generation.
    const result = await server.t.ctx.listen.lifecycle.finalize(server.user.uid, String(first.conversation_id));
    assert.equal(result.kind, 'queued');
    const jobId = result.kind === 'queued' ? result.jobId : '';
    await server.t.ctx.jobs.bumpGeneration(jobId, clock.now());
    const queue = new Queue(FINALIZATION_QUEUE, { connection: { url: suiteRedis() } });
    try {
      await queue.add('finalize', { job_id: jobId, dispatch_generation: 0 }, { jobId: `${jobId}-stale` });
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal((await server.t.ctx.jobs.findById(jobId))?.status, 'queued');
      await queue.add('finalize', { job_id: jobId, dispatch_generation: 1 }, { jobId: `${jobId}-1` });
      const deadline = Date.now() + 10_000;
      while ((await server.t.ctx.jobs.findById(jobId))?.status !== 'completed' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal((await server.t.ctx.jobs.findById(jobId))?.status, 'completed');
    } finally {
      await queue.close();
    }
  });
});
