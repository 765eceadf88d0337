import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { GoalsService } from '../../src/domain/goals/service.js';
import { FakeGoals } from './fakes/goals.js';
import { refusal } from './refusal.js';

function setUp() {
  const clock = new ManualClock(Date.parse('2026-11-20T10:00:00Z'));
  const goals = new FakeGoals();
  const service = new GoalsService(goals.port, clock);
  /** A goal created one second after the previous one. */
  const create = async (userId: string, title: string) => {
    clock.advance(1000);
    return service.create(userId, { title, target_value: 5 });
  };
  return { clock, goals, service, create };
}

describe('goals service', () => {
  // SPEC §8: at most three active goals; creating a fourth deactivates the oldest.
  test('creating a fourth active goal deactivates the oldest one and stamps its end', async () => {
    const { clock, goals, create } = setUp();
    const [first, second, third] = [
      await create('ada', 'One'),
      await create('ada', 'Two'),
      await create('ada', 'Three'),
    ];
    const fourth = await create('ada', 'Four');
    assert.equal(fourth.is_active, true);
    assert.deepEqual(
      goals.rows.filter((g) => g.is_active === 1).map((g) => g.id),
      [second.id, third.id, fourth.id],
    );
    const ended = goals.rows.find((g) => g.id === first.id);
    assert.deepEqual([ended?.is_active, ended?.ended_at], [0, clock.now()]);
  });

  test("another user's active goals do not count towards the three", async () => {
    const { goals, create } = setUp();
    for (const title of ['One', 'Two', 'Three']) await create('bob', title);
    await create('ada', 'Mine');
    assert.equal(goals.rows.filter((g) => g.is_active === 1).length, 4);
  });

  test('the active list holds the three newest goals, oldest first', async () => {
    const { service, create } = setUp();
    for (const title of ['One', 'Two', 'Three', 'Four', 'Five']) await create('ada', title);
    const active = await service.list('ada', false, 10);
    assert.deepEqual(
      active.map((g) => g.title),
      ['Three', 'Four', 'Five'],
    );
  });

  test('bounds not given widen from 0..10 to hold the target and the current value', async () => {
    const { service } = setUp();
    const goal = await service.create('ada', { title: 'Steps', target_value: 12_000, current_value: -3 });
    assert.deepEqual([goal.min_value, goal.max_value], [-3, 12_000]);
  });

  test('a target outside explicit bounds is refused and nothing is stored', async () => {
    const { goals, service } = setUp();
    await assert.rejects(
      service.create('ada', { title: 'Sleep', target_value: 12, max_value: 10 }),
      refusal(422, 'target_value must be between 0 and 10'),
    );
    assert.deepEqual(goals.rows, []);
  });

  test('an update without any field is refused and changes nothing', async () => {
    const { goals, service, create } = setUp();
    const goal = await create('ada', 'Read');
    const before = structuredClone(goals.rows);
    await assert.rejects(service.update('ada', goal.id, {}), refusal(422, 'At least one field must be provided'));
    assert.deepEqual(goals.rows, before);
  });

  test("another user's goal reads, updates and deletes as not found", async () => {
    const { goals, service, create } = setUp();
    const goal = await create('ada', 'Read');
    await assert.rejects(service.get('bob', goal.id), refusal(404, 'Goal not found'));
    await assert.rejects(service.update('bob', goal.id, { title: 'Mine' }), refusal(404, 'Goal not found'));
    await assert.rejects(service.delete('bob', goal.id), refusal(404, 'Goal not found'));
    assert.deepEqual(
      goals.rows.map((g) => [g.id, g.title]),
      [[goal.id, 'Read']],
    );
  });

  test('progress sets the current value and records one point per UTC day, the last of the day winning', async () => {
    const { clock, service, create } = setUp();
    const goal = await create('ada', 'Read');
    await service.recordProgress('ada', goal.id, 2);
    clock.advance(3600_000);
    const updated = await service.recordProgress('ada', goal.id, 4);
    assert.equal(updated.current_value, 4);
    assert.deepEqual(
      (await service.history('ada', goal.id, 7)).map((p) => [p.date, p.value]),
      [['2026-11-20', 4]],
    );
  });

  test('history covers the last n UTC days, today included, newest first', async () => {
    const { clock, service, create } = setUp();
    const goal = await create('ada', 'Read');
    for (const value of [1, 2, 3, 4]) {
      await service.recordProgress('ada', goal.id, value);
      clock.advance(24 * 3600_000);
    }
    // Four points on 20..23 November; the clock is now on the 24th.
    assert.deepEqual(
      (await service.history('ada', goal.id, 3)).map((p) => p.date),
      ['2026-11-23', '2026-11-22'],
    );
  });

  test('progress outside the bounds is refused and leaves no point', async () => {
    const { goals, service, create } = setUp();
    const goal = await create('ada', 'Read');
    await assert.rejects(
      service.recordProgress('ada', goal.id, 11),
      refusal(422, 'current_value must be between 0 and 10'),
    );
    assert.deepEqual(goals.points, []);
  });
});
