import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { ActionItemsService } from '../../src/domain/action-items/service.js';
import { FakeActionItems } from './fakes/action-items.js';
import { refusal } from './refusal.js';

function setUp() {
  const clock = new ManualClock();
  const items = new FakeActionItems();
  return { clock, items, service: new ActionItemsService(items.port, clock) };
}

describe('action items service', () => {
  // SPEC §4.7: completing stamps completed_at with now; reopening clears it.
  test('completing an item stamps completed_at with now', async () => {
    const { clock, items, service } = setUp();
    const item = await service.create('ada', { description: 'Call the bank' });
    clock.advance(60_000);
    const done = await service.update('ada', item.id, { completed: true });
    assert.equal(done.completed_at, new Date(clock.now()).toISOString());
    assert.deepEqual([items.rows[0].completed, items.rows[0].completed_at], [1, clock.now()]);
  });

  test('reopening an item clears completed_at', async () => {
    const { items, service } = setUp();
    const item = await service.create('ada', { description: 'Call the bank', completed: true });
    await service.update('ada', item.id, { completed: false });
    assert.deepEqual([items.rows[0].completed, items.rows[0].completed_at], [0, null]);
  });

  test('due_at null removes the due date; leaving it out keeps it', async () => {
    const { items, service } = setUp();
    const item = await service.create('ada', { description: 'Pay rent', due_at: '2026-12-01T09:00:00Z' });
    await service.update('ada', item.id, { description: 'Pay the rent' });
    assert.equal(items.rows[0].due_at, Date.parse('2026-12-01T09:00:00Z'));
    await service.update('ada', item.id, { due_at: null });
    assert.equal(items.rows[0].due_at, null);
  });

  test('a batch with one blank description is refused whole: nothing is stored', async () => {
    const { items, service } = setUp();
    await assert.rejects(
      service.createBatch('ada', [{ description: 'Fine' }, { description: '\t' }]),
      refusal(422, 'All action items must have non-empty descriptions'),
    );
    assert.deepEqual(items.rows, []);
  });

  test('an unknown id is 404 before an empty patch is 422', async () => {
    const { service } = setUp();
    await assert.rejects(service.update('ada', 'missing', {}), refusal(404, 'Action item not found'));
    const item = await service.create('ada', { description: 'Pay rent' });
    await assert.rejects(service.update('ada', item.id, {}), refusal(422, 'At least one field must be provided'));
  });

  test("another user's item is not found and stays as it was", async () => {
    const { items, service } = setUp();
    const item = await service.create('ada', { description: 'Pay rent' });
    await assert.rejects(service.update('bob', item.id, { completed: true }), refusal(404, 'Action item not found'));
    await assert.rejects(service.delete('bob', item.id), refusal(404, 'Action item not found'));
    assert.deepEqual(
      items.rows.map((r) => [r.user_id, r.completed]),
      [['ada', 0]],
    );
  });
});
