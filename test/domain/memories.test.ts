import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { MemoriesService } from '../../src/domain/memories/service.js';
import { FakeMemories } from './fakes/memories.js';
import { refusal } from './refusal.js';

function setUp() {
  const clock = new ManualClock();
  const memories = new FakeMemories();
  return { clock, memories, service: new MemoriesService(memories.port, clock) };
}

describe('memories service', () => {
  test('a manual memory is trimmed, filed as manual, private, reviewed, with clean tags', async () => {
    const { memories, service } = setUp();
    await service.create('ada', { content: '  Prefers tea  ', tags: [' drinks', 'drinks', '', 'morning'] });
    const [row] = memories.rows;
    assert.deepEqual(
      [row.content, row.category, row.visibility, row.tags, row.origin, row.manually_added, row.user_review],
      ['Prefers tea', 'manual', 'private', '["drinks","morning"]', 'manual', 1, 1],
    );
  });

  test('identical content makes a second memory, never overwriting the first', async () => {
    const { memories, service } = setUp();
    const first = await service.create('ada', { content: 'Likes jazz' });
    const second = await service.create('ada', { content: 'Likes jazz' });
    assert.notEqual(first.id, second.id);
    assert.equal(memories.rows.length, 2);
  });

  test('a batch with one blank content is refused whole: nothing is stored', async () => {
    const { memories, service } = setUp();
    await assert.rejects(
      service.createBatch('ada', [{ content: 'Likes jazz' }, { content: '   ' }]),
      refusal(422, 'All memories must have non-empty content'),
    );
    assert.deepEqual(memories.rows, []);
  });

  test('a batch is stamped in request order, one millisecond apart', async () => {
    const { clock, memories, service } = setUp();
    await service.createBatch('ada', [{ content: 'First' }, { content: 'Second' }]);
    assert.deepEqual(
      memories.rows.map((r) => [r.content, r.created_at - clock.now()]),
      [
        ['First', 0],
        ['Second', 1],
      ],
    );
  });

  test('editing the content marks the memory edited and moves updated_at past the old version', async () => {
    const { memories, service } = setUp();
    const memory = await service.create('ada', { content: 'Likes jazz' });
    // The clock has not moved: the edit must still be strictly later (embeddings of the old text go stale).
    const edited = await service.update('ada', memory.id, { content: 'Loves jazz' });
    const [row] = memories.rows;
    assert.deepEqual([row.content, row.edited, row.updated_at - row.created_at], ['Loves jazz', 1, 1]);
    assert.equal(edited.edited, true);
  });

  test('changing only the tags does not mark the memory edited', async () => {
    const { memories, service } = setUp();
    const memory = await service.create('ada', { content: 'Likes jazz' });
    await service.update('ada', memory.id, { tags: ['music', ' music '] });
    assert.deepEqual([memories.rows[0].edited, memories.rows[0].tags], [0, '["music"]']);
  });

  test('a patch of nulls only is refused and changes nothing', async () => {
    const { memories, service } = setUp();
    const memory = await service.create('ada', { content: 'Likes jazz' });
    const before = structuredClone(memories.rows);
    await assert.rejects(
      service.update('ada', memory.id, { content: null, tags: null, category: null, visibility: null }),
      refusal(422, 'At least one field (content, visibility, tags, or category) must be provided'),
    );
    assert.deepEqual(memories.rows, before);
  });

  test("another user's memory cannot be edited or deleted", async () => {
    const { memories, service } = setUp();
    const memory = await service.create('ada', { content: 'Likes jazz' });
    await assert.rejects(service.update('bob', memory.id, { content: 'Mine' }), refusal(404, 'Memory not found'));
    await assert.rejects(service.delete('bob', memory.id), refusal(404, 'Memory not found'));
    assert.deepEqual(
      memories.rows.map((r) => [r.user_id, r.content]),
      [['ada', 'Likes jazz']],
    );
  });

  test('an unknown category in the list filter is a 400 naming it', async () => {
    const { service } = setUp();
    await assert.rejects(service.list('ada', 'work,astrology', 10, 0), { statusCode: 400 });
  });
});
