import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GoalsRepository } from '../../src/store/repositories/goals.js';
import type { GoalsTable } from '../../src/store/schema.js';
import { dialects, repositorySuite } from '../helpers/store.js';
import { ownedRowCases } from './owned-rows.js';

const goal = (userId: string, id: string, createdAt: number): GoalsTable => ({
  id,
  user_id: userId,
  title: `Goal ${id}`,
  goal_type: 'scale',
  target_value: 5,
  current_value: 0,
  min_value: 0,
  max_value: 10,
  unit: null,
  is_active: 1,
  created_at: createdAt,
  updated_at: createdAt,
  ended_at: null,
  goal_id: id,
  status: 'active',
  source: 'user',
  desired_outcome: null,
  why_it_matters: null,
  success_criteria: '[]',
  horizon_at: null,
});

for (const dialect of dialects()) {
  describe(`goals repository (${dialect})`, () => {
    const goals = repositorySuite(dialect, (store) => new GoalsRepository(store.db));

    ownedRowCases({
      newUser: goals.newUser,
      insert: (userId, id, createdAt) => goals.repo.insertActive(goal(userId, id, createdAt), 3, createdAt),
      find: (userId, id) => goals.repo.findById(userId, id),
      setText: (userId, id, title) => goals.repo.update(userId, id, { title }),
      text: (row) => row.title,
      delete: (userId, id) => goals.repo.delete(userId, id),
      pageAfter: (userId, cursor, limit) => goals.repo.pageAfter(userId, cursor, limit),
    });

    test('inserting past the limit deactivates the oldest active goals and stamps their end', async () => {
      const ada = await goals.newUser();
      for (const [n, at] of [1000, 2000, 3000, 4000].entries()) {
        await goals.repo.insertActive(goal(ada, `${ada}-${n}`, at), 3, at);
      }
      const rows = await goals.repo.list(ada, true, 10);
      assert.deepEqual(
        rows.map((g) => [g.id.slice(-1), g.is_active, g.ended_at]),
        [
          ['3', 1, null],
          ['2', 1, null],
          ['1', 1, null],
          ['0', 0, 4000],
        ],
      );
    });

    test('a creation-time tie is broken by id: the smaller id counts as older', async () => {
      const ada = await goals.newUser();
      for (const suffix of ['b', 'a', 'c', 'd'])
        await goals.repo.insertActive(goal(ada, `${ada}-${suffix}`, 1000), 3, 1000);
      const active = await goals.repo.list(ada, false, 10);
      assert.deepEqual(
        active.map((g) => g.id.slice(-1)),
        ['b', 'c', 'd'],
      );
    });

    test("another user's active goals are not deactivated", async () => {
      const [ada, bob] = [await goals.newUser(), await goals.newUser()];
      for (const n of [0, 1, 2]) await goals.repo.insertActive(goal(bob, `${bob}-${n}`, 1000 + n), 3, 1000 + n);
      await goals.repo.insertActive(goal(ada, `${ada}-0`, 5000), 3, 5000);
      assert.equal((await goals.repo.list(bob, false, 10)).length, 3);
    });

    test('progress replaces the same day point and reports whether the goal was found', async () => {
      const [ada, bob] = [await goals.newUser(), await goals.newUser()];
      const id = `${ada}-g`;
      await goals.repo.insertActive(goal(ada, id, 1000), 3, 1000);
      assert.equal(await goals.repo.recordProgress(ada, id, 2, '2026-11-20', 2000), true);
      assert.equal(await goals.repo.recordProgress(ada, id, 4, '2026-11-20', 3000), true);
      assert.equal(await goals.repo.recordProgress(bob, id, 9, '2026-11-20', 4000), false);
      assert.deepEqual(
        (await goals.repo.history(ada, id, '2026-11-01')).map((p) => [p.day, p.value, p.recorded_at]),
        [['2026-11-20', 4, 3000]],
      );
      assert.deepEqual(await goals.repo.history(bob, id, '2026-11-01'), []);
      assert.equal((await goals.repo.findById(ada, id))?.current_value, 4);
    });
  });
}
