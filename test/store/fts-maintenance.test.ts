import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { FtsMaintenance, type FtsMaintenanceOptions, segmentCount } from '../../src/store/search/fts-maintenance.js';
import { seedMemory } from '../dev/fixtures.js';
import { createTestApp, createUser, type TestApp, type TestUser } from '../helpers/app.js';

const WORDS = 'otter heron badger falcon marten lynx'.split(' ');

describe('FTS5 structure record', () => {
  test('the segment count follows the cookie, the optional V2 marker and the level count', () => {
    // cookie 0, 3 levels, 11 segments, write counter 800 (two-byte varint), …
    assert.equal(segmentCount(Uint8Array.from([0, 0, 0, 0, 3, 11, 0x86, 0x20, 0])), 11);
    // V2 record: 2 levels, 300 segments (0x82 0x2c)
    assert.equal(segmentCount(Uint8Array.from([0, 0, 0, 1, 0xff, 0, 0, 1, 2, 0x82, 0x2c, 0])), 300);
    // An empty index: no levels, no segments.
    assert.equal(segmentCount(Uint8Array.from([0, 0, 0, 0, 0, 0, 0])), 0);
    assert.throws(() => segmentCount(Uint8Array.from([0, 0, 0, 0, 1, 0x81])), /truncated/);
  });
});

// SQLite only: FTS5 segments and their merging; PostgreSQL's full-text index is maintained by the server.
describe('full-text index maintenance (sqlite)', () => {
  let t: TestApp;
  let ada: TestUser;
  let maintenance: FtsMaintenance;
  const log = pino({ level: 'silent' });

  const search = async (q: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/dev/user/memories/search?q=${q}&limit=50`,
      headers: ada.auth,
    });
    assert.equal(res.statusCode, 200);
    return (res.json() as Array<{ id: string; score?: number }>).map((m) => m.id);
  };

  /** Memories created one request at a time: each commit writes its own index segment. */
  const addMemories = async (count: number, from: number) => {
    for (let n = from; n < from + count; n++) {
      const content = `Saw a ${WORDS[n % WORDS.length]} and a ${WORDS[(n * 7) % WORDS.length]} on walk ${n}.`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/dev/user/memories',
        headers: ada.auth,
        payload: { content },
      });
      assert.equal(res.statusCode, 200, res.body);
    }
  };

  /** Maintenance checking only when told to (runOnce), with the given thresholds. */
  const maintenanceWith = (options: Omit<FtsMaintenanceOptions, 'intervalMs'>) =>
    new FtsMaintenance(t.ctx.store.db, log, { intervalMs: 60_000, ...options });

  before(async () => {
    t = await createTestApp('sqlite');
    ada = await createUser(t.ctx, { name: 'Ada' });
    // FTS5 merges four segments of a level on its own; without that, every commit stays a segment.
    await sql`INSERT INTO memories_fts (memories_fts, rank) VALUES ('automerge', 0)`.execute(t.ctx.store.db);
  });
  after(() => t.close());

  test('an index with enough segments is merged into one, and searches answer the same', async () => {
    maintenance = maintenanceWith({ mergeAt: 4, pagesPerStep: 1, budget: 1 });
    await addMemories(3, 0);
    assert.equal(await maintenance.segments('memories_fts'), 3);
    assert.deepEqual(await maintenance.runOnce(), [], 'three segments are below the threshold');
    assert.equal(await maintenance.segments('memories_fts'), 3);

    await addMemories(12, 3);
    // Without automerge FTS5 still merges a level once 16 segments pile up ('crisismerge').
    assert.equal(await maintenance.segments('memories_fts'), 15);
    const before = await Promise.all(WORDS.map(search));
    assert.ok(
      before.every((ids) => ids.length > 0),
      'before.every((ids) => ids.length > 0)',
    );

    const reports = await maintenance.runOnce();
    assert.equal(reports.length, 1);
    assert.equal(reports[0].table, 'memories_fts');
    assert.equal(reports[0].segmentsBefore, 15);
    assert.equal(reports[0].segmentsAfter, 1);
    assert.ok(reports[0].steps > 1, 'one page per step takes several steps');
    assert.equal(await maintenance.segments('memories_fts'), 1);
    assert.deepEqual(await Promise.all(WORDS.map(search)), before);
    // FTS5 checks the merged index against the memories it indexes, and throws if they disagree.
    await assert.doesNotReject(
      sql`INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)`.execute(t.ctx.store.db),
    );
  });

  test('a merge waits out its time budget before the next one', async () => {
    const budgeted = maintenanceWith({ mergeAt: 2, pagesPerStep: 64, budget: 1e-9 });
    await addMemories(2, 100);
    const first = await budgeted.runOnce();
    assert.equal(first.length, 1);
    await addMemories(2, 200);
    assert.equal(await budgeted.segments('memories_fts'), 3);
    assert.deepEqual(await budgeted.runOnce(), [], 'the budget holds the next merge back');
    // Far enough ahead, the budget allows it again.
    const later = await budgeted.runOnce(Date.now() + 1e15);
    assert.equal(later.length, 1);
    assert.equal(await budgeted.segments('memories_fts'), 1);
  });

  test('requests run between merge steps, and stop() ends a merge after its current step', async () => {
    const slow = maintenanceWith({ mergeAt: 2, pagesPerStep: 1, budget: 1 });
    await addMemories(20, 300);
    const merging = slow.runOnce();
    // A search issued while the merge runs is answered before the merge ends.
    let mergeDone = false;
    void merging.then(() => {
      mergeDone = true;
    });
    const ids = await search('otter');
    assert.ok(ids.length > 0, 'ids.length > 0');
    assert.equal(mergeDone, false, 'the search did not wait for the whole merge');
    await merging;

    // Long memories (stored directly: the API caps content at 500 characters) make segments of many
    // pages, so a one-page step cannot finish the merge.
    for (let n = 0; n < 8; n++) {
      const words = Array.from({ length: 1500 }, (_, i) => `w${n}x${i}`).join(' ');
      await seedMemory(t.ctx, ada.uid, { content: `walk ${n} ${words}` });
    }
    const stopping = maintenanceWith({ mergeAt: 2, pagesPerStep: 1, budget: 1 });
    const before = await stopping.segments('memories_fts');
    const partial = stopping.runOnce();
    await stopping.stop();
    // The merge took its first step and no more: the index is still in several segments.
    const [report] = await partial;
    assert.equal(report.steps, 1);
    assert.ok(before > 1 && report.segmentsAfter > 1, JSON.stringify({ before, report }));
    // Stopped part-way, the index still answers every word correctly.
    // Every memory of this suite says "walk": 15 + 4 + 20 through the API, and the 8 long ones.
    const all = await search('walk');
    assert.equal(all.length, 47);
    // A later run picks the merge up and finishes it.
    const resumed = maintenanceWith({ mergeAt: 2, pagesPerStep: 64, budget: 1 });
    assert.equal((await resumed.runOnce())[0]?.segmentsAfter, 1);
    for (const word of WORDS) assert.ok((await search(word)).length > 0, '(await search(word)).length > 0');
  });
});
