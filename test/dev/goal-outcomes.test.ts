import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, Migrator, sql } from 'kysely';
import { ManualClock } from '../../src/context-types.js';
import type { GoalView } from '../../src/domain/goals/views.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createUser, type TestUser } from '../helpers/app.js';
import { addUser, type DialectUnderTest, dialects, freshPostgresStore } from '../helpers/store.js';
import { appWithTwoUsers } from '../helpers/suite.js';

type Goal = GoalView;

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), '../../src/store/migrations');

for (const dialect of dialects()) {
  describe(`goals as outcomes (${dialect})`, () => {
    const clock = new ManualClock();
    const { t, ada, call, postOk } = appWithTwoUsers(dialect, { clock });
    const create = (user: TestUser, payload: Record<string, unknown>): Promise<Goal> => {
      clock.advance(1000);
      return postOk(user, '/v1/dev/user/goals', payload);
    };

    test('a goal may be a plain outcome: no target makes a boolean goal from 0 to 1', async () => {
      const goal = await create(ada, { title: 'Run a marathon' });
      assert.deepEqual(
        [goal.goal_type, goal.target_value, goal.current_value, goal.min_value, goal.max_value],
        ['boolean', 1, 0, 0, 1],
      );
      assert.deepEqual(
        [goal.goal_id, goal.desired_outcome, goal.status, goal.source, goal.is_active],
        [goal.id, 'Run a marathon', 'active', 'user', true],
      );
      assert.deepEqual(goal.metric, { type: 'boolean', current: 0, target: 1, min: 0, max: 1, unit: null });
    });

    test('the outcome fields are stored and returned', async () => {
      const goal = await create(ada, {
        title: 'Ship the garden app',
        desired_outcome: '  Ten neighbours use it weekly  ',
        why_it_matters: 'Shared tools, fewer wasted seeds',
        success_criteria: ['10 weekly users', ' ', 'one seed swap'],
        horizon_at: '2027-03-01T00:00:00+01:00',
        target_value: 10,
        source: 'desktop',
      });
      const read = (await call(ada, 'GET', `/v1/dev/user/goals/${goal.id}`)).json() as Goal;
      assert.deepEqual(
        [read.desired_outcome, read.why_it_matters, read.success_criteria, read.horizon_at, read.source],
        [
          'Ten neighbours use it weekly',
          'Shared tools, fewer wasted seeds',
          ['10 weekly users', 'one seed swap'],
          '2027-02-28T23:00:00.000Z',
          'desktop',
        ],
      );
      assert.equal(read.goal_type, 'scale');
    });

    test('update changes outcome fields; null clears why_it_matters and horizon_at but leaves the title', async () => {
      const goal = await create(ada, { title: 'Read more', why_it_matters: 'Calm', horizon_at: '2027-01-01' });
      const res = await call(ada, 'PATCH', `/v1/dev/user/goals/${goal.id}`, {
        title: null,
        desired_outcome: 'Two books a month',
        success_criteria: ['24 books by December'],
        why_it_matters: null,
        horizon_at: null,
      });
      assert.equal(res.statusCode, 200, res.body);
      const updated = res.json() as Goal;
      assert.deepEqual(
        [updated.title, updated.desired_outcome, updated.success_criteria, updated.why_it_matters, updated.horizon_at],
        ['Read more', 'Two books a month', ['24 books by December'], null, null],
      );
    });

    test('a create retried with the same goal_id returns the first goal and creates nothing else', async () => {
      const first = await create(ada, { title: 'Learn Portuguese', goal_id: 'client-goal-1' });
      const again = await create(ada, { title: 'Learn Portuguese (retry)', goal_id: 'client-goal-1' });
      assert.equal(again.id, first.id);
      assert.equal(again.goal_id, 'client-goal-1');
      const all = (await call(ada, 'GET', '/v1/dev/user/goals?include_inactive=true&limit=100')).json() as Goal[];
      assert.equal(all.filter((g) => g.goal_id === 'client-goal-1').length, 1);
    });

    test('status: paused deactivates; active again archives the oldest beyond 3', async () => {
      const user = await createUser(t.ctx);
      const goals: Goal[] = [];
      for (const title of ['One', 'Two', 'Three']) goals.push(await create(user, { title }));
      const paused = (await call(user, 'PATCH', `/v1/dev/user/goals/${goals[0].id}`, { status: 'paused' })).json();
      assert.deepEqual([paused.status, paused.is_active], ['paused', false]);
      await create(user, { title: 'Four' });
      const back = (await call(user, 'PATCH', `/v1/dev/user/goals/${goals[0].id}`, { status: 'active' })).json();
      assert.deepEqual([back.status, back.is_active], ['active', true]);
      const active = (await call(user, 'GET', '/v1/dev/user/goals')).json() as Goal[];
      assert.equal(active.length, 3);
      const two = (await call(user, 'GET', `/v1/dev/user/goals/${goals[1].id}`)).json() as Goal;
      assert.deepEqual([two.status, two.is_active], ['archived', false]);
    });

    test('a create with a non-active status stores an inactive goal', async () => {
      const goal = await create(ada, { title: 'Old habit', status: 'completed' });
      assert.deepEqual([goal.status, goal.is_active], ['completed', false]);
    });

    test('bad input → 422: unknown status, malformed horizon_at, more than 20 criteria', async () => {
      for (const body of [
        { title: 'x', status: 'done' },
        { title: 'x', horizon_at: 'next spring' },
        { title: 'x', success_criteria: Array.from({ length: 21 }, (_, i) => `c${i}`) },
      ]) {
        assert.equal((await call(ada, 'POST', '/v1/dev/user/goals', body)).statusCode, 422, JSON.stringify(body));
      }
    });
  });

  describe(`goal migration 0092 (${dialect})`, () => {
    test('existing goals get goal_id, desired outcome, status and source', async () => {
      const store = await storeAt(dialect, '0080_owner_claim');
      try {
        const userId = await addUser(store);
        for (const [id, active] of [
          ['goal_old_active', 1],
          ['goal_old_inactive', 0],
        ] as const) {
          await sql`insert into goals (id, user_id, title, goal_type, target_value, current_value, min_value,
            max_value, unit, is_active, created_at, updated_at, ended_at)
            values (${id}, ${userId}, ${`Title of ${id}`}, 'scale', 5, 1, 0, 10, null, ${active}, 1, 1, null)`.execute(
            store.db,
          );
        }
        await migrateToLatest(store);
        const rows = await store.db.selectFrom('goals').selectAll().orderBy('id').execute();
        assert.deepEqual(
          rows.map((r) => [r.id, r.goal_id, r.desired_outcome, r.status, r.source, r.success_criteria, r.horizon_at]),
          [
            ['goal_old_active', 'goal_old_active', 'Title of goal_old_active', 'active', 'user', '[]', null],
            ['goal_old_inactive', 'goal_old_inactive', 'Title of goal_old_inactive', 'archived', 'user', '[]', null],
          ],
        );
      } finally {
        await store.close();
      }
    });
  });
}

/** A fresh store migrated up to `name` (the state of a database before later migrations). */
async function storeAt(dialect: DialectUnderTest, name: string): Promise<Store> {
  const store =
    dialect === 'postgres' ? await freshPostgresStore() : openStore({ databaseUrl: null, dataDir: ':memory:' });
  const migrator = new Migrator({
    db: store.db,
    provider: new FileMigrationProvider({ fs, path: { join }, migrationFolder: MIGRATIONS }),
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
  });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error;
  return store;
}
