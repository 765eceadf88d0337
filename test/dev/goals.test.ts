import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { createUser, dialects, type TestUser } from '../helpers/app.js';
import { appWithTwoUsers } from '../helpers/suite.js';
import { invalid } from '../helpers/validation.js';
import { countRows } from './fixtures.js';

interface Goal {
  id: string;
  title: string;
  goal_type: string;
  target_value: number;
  current_value: number;
  min_value: number;
  max_value: number;
  unit: string | null;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

const DAY = 24 * 3600_000;

for (const dialect of dialects()) {
  describe(`developer goals API (${dialect})`, () => {
    const clock = new ManualClock();
    const { t, ada, bob, call, postOk } = appWithTwoUsers(dialect, { clock });
    const create = (user: TestUser, payload: Record<string, unknown>): Promise<Goal> => {
      clock.advance(1000);
      return postOk(user, '/v1/dev/user/goals', payload);
    };

    test('create applies the reference defaults and a goal_ id', async () => {
      const goal = await create(ada, { title: '  Sleep well  ', target_value: 8 });
      assert.match(goal.id, /^goal_[0-9a-f]{12}$/);
      assert.deepEqual(
        [
          goal.title,
          goal.goal_type,
          goal.target_value,
          goal.current_value,
          goal.min_value,
          goal.max_value,
          goal.unit,
          goal.is_active,
        ],
        ['Sleep well', 'scale', 8, 0, 0, 10, null, true],
      );
    });

    test('unset bounds widen to hold the target; explicit bounds are enforced', async () => {
      const user = await createUser(t.ctx);
      const steps = await create(user, { title: 'Steps', goal_type: 'numeric', target_value: 10000, unit: 'steps' });
      assert.deepEqual([steps.min_value, steps.max_value], [0, 10000]);
      const res = await call(user, 'POST', '/v1/dev/user/goals', {
        title: 'Steps',
        target_value: 10000,
        max_value: 5000,
      });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), invalid(['body', 'target_value'], 'target_value must be between 0 and 5000'));
    });

    test('a fourth active goal deactivates the oldest active one', async () => {
      const user = await createUser(t.ctx);
      const goals = [];
      for (const title of ['first', 'second', 'third', 'fourth'])
        goals.push(await create(user, { title, target_value: 1 }));
      const active: Goal[] = (await call(user, 'GET', '/v1/dev/user/goals')).json();
      assert.deepEqual(
        active.map((g) => g.title),
        ['second', 'third', 'fourth'],
      );
      const first = await t.ctx.repos.goals.findById(user.uid, goals[0].id);
      assert.equal(first?.is_active, 0);
      assert.equal(first?.ended_at, clock.now());
      assert.equal(await countRows(t.ctx, 'goals', user.uid), 4);
    });

    test('concurrent creates still leave at most 3 active goals', async () => {
      const user = await createUser(t.ctx);
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          call(user, 'POST', '/v1/dev/user/goals', { title: `g${i}`, target_value: 1 }),
        ),
      );
      const active: Goal[] = (await call(user, 'GET', '/v1/dev/user/goals')).json();
      assert.equal(active.length, 3);
    });

    test('include_inactive lists every goal newest first; limit defaults to 10', async () => {
      const user = await createUser(t.ctx);
      for (let i = 0; i < 12; i++) await create(user, { title: `goal ${i}`, target_value: 1 });
      const all: Goal[] = (await call(user, 'GET', '/v1/dev/user/goals?include_inactive=true')).json();
      assert.equal(all.length, 10);
      assert.equal(all[0].title, 'goal 11');
      assert.equal(all.filter((g) => g.is_active).length, 3);
      const limited: Goal[] = (await call(user, 'GET', '/v1/dev/user/goals?include_inactive=true&limit=2')).json();
      assert.equal(limited.length, 2);
    });

    test('get, patch and delete one goal; unknown or foreign → 404 Goal not found', async () => {
      const goal = await create(ada, { title: 'Read books', target_value: 5, unit: 'books' });
      assert.equal((await call(ada, 'GET', `/v1/dev/user/goals/${goal.id}`)).json().title, 'Read books');
      const patched = await call(ada, 'PATCH', `/v1/dev/user/goals/${goal.id}`, {
        title: 'Read more books',
        target_value: 6,
        unit: null,
      });
      assert.deepEqual(
        [patched.json().title, patched.json().target_value, patched.json().unit],
        ['Read more books', 6, null],
      );
      for (const [method, payload] of [
        ['GET', undefined],
        ['PATCH', { title: 'x' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(bob, method, `/v1/dev/user/goals/${goal.id}`, payload);
        assert.deepEqual([res.statusCode, res.json()], [404, { detail: 'Goal not found' }], method);
      }
      const deleted = await call(ada, 'DELETE', `/v1/dev/user/goals/${goal.id}`);
      assert.deepEqual([deleted.statusCode, deleted.json()], [200, { success: true }]);
      assert.equal((await call(ada, 'GET', `/v1/dev/user/goals/${goal.id}`)).statusCode, 404);
    });

    test('patch with no field → 422; values outside the bounds or min > max → 422 and nothing changes', async () => {
      const goal = await create(ada, { title: 'Mood', target_value: 7 });
      const cases: Array<[Record<string, unknown>, Array<string | number>, string]> = [
        [{}, ['body'], 'At least one field must be provided'],
        [{ current_value: 11 }, ['body', 'current_value'], 'current_value must be between 0 and 10'],
        [{ min_value: 9, max_value: 2 }, ['body', 'min_value'], 'min_value must not be greater than max_value'],
        [{ max_value: 5 }, ['body', 'target_value'], 'target_value must be between 0 and 5'],
      ];
      for (const [body, loc, msg] of cases) {
        const res = await call(ada, 'PATCH', `/v1/dev/user/goals/${goal.id}`, body);
        assert.deepEqual([res.statusCode, res.json()], [422, invalid(loc, msg)], JSON.stringify(body));
      }
      const stored = await t.ctx.repos.goals.findById(ada.uid, goal.id);
      assert.deepEqual([stored?.min_value, stored?.max_value, stored?.target_value], [0, 10, 7]);
    });

    test('progress via the query parameter (as the reference) or a JSON body', async () => {
      const goal = await create(ada, { title: 'Energy', target_value: 8 });
      const byQuery = await call(ada, 'PATCH', `/v1/dev/user/goals/${goal.id}/progress?current_value=4.5`);
      assert.equal(byQuery.json().current_value, 4.5);
      const byBody = await call(ada, 'PATCH', `/v1/dev/user/goals/${goal.id}/progress`, { current_value: 6 });
      assert.equal(byBody.json().current_value, 6);
      const missing = await call(ada, 'PATCH', `/v1/dev/user/goals/${goal.id}/progress`);
      assert.equal(missing.statusCode, 422);
      // Clients that always send a JSON body send `{}` with the value in the query.
      const emptyBody = await call(ada, 'PATCH', `/v1/dev/user/goals/${goal.id}/progress?current_value=7`, {});
      assert.equal(emptyBody.statusCode, 200, emptyBody.body);
      assert.equal(emptyBody.json().current_value, 7);
      const neither = await call(ada, 'PATCH', `/v1/dev/user/goals/${goal.id}/progress`, {});
      assert.deepEqual(
        [neither.statusCode, neither.json()],
        [422, { detail: [{ loc: ['query', 'current_value'], msg: 'Field required', type: 'missing' }] }],
      );
      // …and the OpenAPI document says the body is optional.
      const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      assert.equal(spec.paths['/v1/dev/user/goals/{goal_id}/progress'].patch.requestBody.required, false);
      assert.equal(spec.paths['/v1/dev/user/goals'].post.requestBody.required, true);
      // A query parameter with a default may be left out; one without a default stays as declared.
      const params = (path: string, method: string) =>
        Object.fromEntries(
          spec.paths[path][method].parameters
            .filter((parameter: { in: string }) => parameter.in === 'query')
            .map((parameter: { name: string; required?: boolean }) => [parameter.name, parameter.required === true]),
        );
      assert.deepEqual(params('/v1/dev/user/goals', 'get'), { limit: false, include_inactive: false });
      assert.equal(params('/v1/dev/user/memories/search', 'get').q, true);
      assert.equal(params('/v1/dev/user/memories/search', 'get').limit, false);
      // Shared schemas carry their names, for generated clients' type names.
      assert.ok(spec.components.schemas.DeveloperGoal, Object.keys(spec.components.schemas).join(','));
      assert.ok(
        !Object.keys(spec.components.schemas).some((name) => name.startsWith('def-')),
        "!Object.keys(spec.components.schemas).some((name) => name.startsWith('def-'))",
      );
    });

    test('non-finite or out-of-range progress → 422', async () => {
      const goal = await create(ada, { title: 'Focus', target_value: 5 });
      for (const value of ['nan', 'Infinity', '-inf', '11', '-1']) {
        const res = await call(ada, 'PATCH', `/v1/dev/user/goals/${goal.id}/progress?current_value=${value}`);
        assert.equal(res.statusCode, 422, value);
      }
      assert.equal((await t.ctx.repos.goals.findById(ada.uid, goal.id))?.current_value, 0);
    });

    test('a target too large for a number names target_value, not the bound derived from it', async () => {
      for (const [body, field] of [
        ['{"title":"Huge","target_value":1e400}', 'target_value'],
        ['{"title":"Tiny","target_value":-1e400}', 'target_value'],
        ['{"title":"Far","target_value":5,"max_value":1e400}', 'max_value'],
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/dev/user/goals',
          headers: { ...ada.auth, 'content-type': 'application/json' },
          payload: body,
        });
        assert.deepEqual(
          [res.statusCode, res.json()],
          [422, invalid(['body', field], `${field} must be a finite number`)],
          body,
        );
      }
    });

    test('history keeps one point per UTC day (the last update wins), newest first, within `days`', async () => {
      const user = await createUser(t.ctx);
      const goal = await create(user, { title: 'Water', target_value: 8 });
      const progress = (value: number) =>
        call(user, 'PATCH', `/v1/dev/user/goals/${goal.id}/progress?current_value=${value}`);
      await progress(2);
      await progress(3);
      clock.advance(DAY);
      await progress(5);
      clock.advance(40 * DAY);
      await progress(7);
      const history = (await call(user, 'GET', `/v1/dev/user/goals/${goal.id}/history`)).json();
      assert.deepEqual(
        history.map((p: { value: number }) => p.value),
        [7],
      );
      const longer = (await call(user, 'GET', `/v1/dev/user/goals/${goal.id}/history?days=60`)).json();
      assert.deepEqual(
        longer.map((p: { value: number }) => p.value),
        [7, 5, 3],
      );
      assert.match(longer[0].date, /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(longer[0].recorded_at, new Date(clock.now()).toISOString());
    });

    test('history days outside 1..365 → 422; unknown goal → 404', async () => {
      const goal = await create(ada, { title: 'Calm', target_value: 5 });
      for (const days of ['-1', '0', '366', 'ten']) {
        assert.equal(
          (await call(ada, 'GET', `/v1/dev/user/goals/${goal.id}/history?days=${days}`)).statusCode,
          422,
          days,
        );
      }
      assert.equal((await call(ada, 'GET', '/v1/dev/user/goals/goal_000000000000/history')).statusCode, 404);
    });

    test('unknown goal_type → 422 and no goal is stored', async () => {
      const user = await createUser(t.ctx);
      const res = await call(user, 'POST', '/v1/dev/user/goals', {
        title: 'x',
        target_value: 1,
        goal_type: 'percentage',
      });
      assert.equal(res.statusCode, 422);
      assert.equal(await countRows(t.ctx, 'goals', user.uid), 0);
    });

    test('goals need goals:write to change (read-only keys read)', async () => {
      const reader = await createUser(t.ctx, { scopes: null });
      assert.equal((await call(reader, 'GET', '/v1/dev/user/goals')).statusCode, 200);
      const res = await call(reader, 'POST', '/v1/dev/user/goals', { title: 'x', target_value: 1 });
      assert.deepEqual(res.json(), { detail: 'Insufficient permissions. Required scope: goals:write' });
    });
  });
}
