import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { GOAL_STATUSES, GOAL_TYPES } from '../../domain/goals/service.js';
import { AppError } from '../../errors.js';
import { devUser } from '../../http/auth.js';
import { devKeyOwner, receiptOf } from '../../http/idempotency.js';
import { DateTime, errors, IdempotencyKeyHeader, Limit, Nullable, NullableScalar } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { deleteSchema, patchSchema } from './record-schemas.js';

const tags = ['Goals'];

const GoalType = Type.Enum([...GOAL_TYPES]);
const GoalStatus = Type.Enum([...GOAL_STATUSES], {
  description: 'archived: deactivated when a newer goal took its place among the 3 active ones',
});

const DeveloperGoal = Type.Object(
  {
    id: Type.String(),
    goal_id: Type.String({ description: "the client's id of the goal (its id unless the create named one)" }),
    title: Type.String(),
    desired_outcome: Type.String({ description: 'the title unless set' }),
    why_it_matters: NullableScalar(Type.String()),
    success_criteria: Type.Array(Type.String()),
    horizon_at: NullableScalar(DateTime()),
    status: Type.String(),
    source: Type.String(),
    focus_rank: NullableScalar(Type.Integer()),
    goal_type: GoalType,
    target_value: Type.Number(),
    current_value: Type.Number(),
    min_value: Type.Number(),
    max_value: Type.Number(),
    unit: NullableScalar(Type.String()),
    metric: Type.Object({
      type: GoalType,
      current: Type.Number(),
      target: Type.Number(),
      min: Type.Number(),
      max: Type.Number(),
      unit: NullableScalar(Type.String()),
    }),
    is_active: Type.Boolean(),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'DeveloperGoal' },
);

const HistoryPoint = Type.Object({
  date: Type.String({ description: 'UTC day, YYYY-MM-DD' }),
  value: Type.Number(),
  recorded_at: DateTime(),
});

const Title = Type.String({ minLength: 1, maxLength: 500 });
const Unit = Type.String({ maxLength: 64 });
const Value = Type.Optional(Nullable(Type.Number()));
const LongText = Type.Optional(Nullable(Type.String({ maxLength: 2000 })));
const Criteria = Type.Array(Type.String({ maxLength: 500 }), { maxItems: 20 });
const Horizon = Type.Optional(Nullable(Type.String({ maxLength: 64, description: 'ISO 8601 date-time' })));

const CreateGoal = Type.Object({
  title: Title,
  goal_type: Type.Optional(Nullable(GoalType)),
  target_value: Type.Optional(
    Nullable(Type.Number({ description: 'omitted: a plain outcome (a boolean goal from 0 to 1)' })),
  ),
  current_value: Value,
  min_value: Value,
  max_value: Value,
  unit: Type.Optional(Nullable(Unit)),
  desired_outcome: LongText,
  why_it_matters: LongText,
  success_criteria: Type.Optional(Nullable(Criteria)),
  horizon_at: Horizon,
  goal_id: Type.Optional(
    Nullable(
      Type.String({ minLength: 1, maxLength: 200, description: 'a retry with the same goal_id returns the goal' }),
    ),
  ),
  status: Type.Optional(Nullable(GoalStatus)),
  source: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'default user' }))),
});

const UpdateGoal = Type.Object({
  title: Type.Optional(Nullable(Title)),
  target_value: Value,
  current_value: Value,
  min_value: Value,
  max_value: Value,
  unit: Type.Optional(Nullable(Unit)),
  desired_outcome: LongText,
  why_it_matters: LongText,
  success_criteria: Type.Optional(Nullable(Criteria)),
  horizon_at: Horizon,
  status: Type.Optional(Nullable(GoalStatus)),
});

const IdParams = Type.Object({ goal_id: Type.String({ minLength: 1, maxLength: 200 }) });

export function registerDevGoalRoutes(app: TypedApp, ctx: Services): void {
  const { auth, goals } = ctx;
  const read = { preHandler: auth.devKey('goals:read'), config: { rateLimit: { policy: 'dev:goals_read' } } };
  const write = { preHandler: auth.devKey('goals:write'), config: { rateLimit: { policy: 'dev:goals_write' } } };

  app.get(
    '/user/goals',
    {
      ...read,
      schema: {
        tags,
        summary: 'List active goals (oldest first), or every goal newest first with include_inactive',
        querystring: Type.Object({ limit: Limit(10), include_inactive: Type.Boolean({ default: false }) }),
        response: { 200: Type.Array(DeveloperGoal), ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => goals.list(devUser(request), request.query.include_inactive, request.query.limit),
  );

  app.post(
    '/user/goals',
    {
      ...write,
      config: { ...write.config, idempotent: devKeyOwner },
      schema: {
        tags,
        summary: 'Create a goal (a 4th active goal deactivates the oldest active one)',
        body: CreateGoal,
        headers: IdempotencyKeyHeader,
        response: { 200: DeveloperGoal, ...errors(401, 403, 409, 422, 429) },
      },
    },
    async (request) => goals.create(devUser(request), request.body, receiptOf(request)),
  );

  app.get(
    '/user/goals/:goal_id',
    {
      ...read,
      schema: {
        tags,
        summary: 'Get one goal (active or not)',
        params: IdParams,
        response: { 200: DeveloperGoal, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => goals.get(devUser(request), request.params.goal_id),
  );

  app.patch(
    '/user/goals/:goal_id',
    {
      ...write,
      schema: patchSchema({
        tags,
        summary:
          'Update title, outcome fields, values, bounds, unit or status (active again archives the oldest beyond 3)',
        params: IdParams,
        body: UpdateGoal,
        updated: DeveloperGoal,
      }),
    },
    async (request) => goals.update(devUser(request), request.params.goal_id, request.body),
  );

  app.delete(
    '/user/goals/:goal_id',
    {
      ...write,
      schema: deleteSchema({ tags, summary: 'Delete a goal and its history', params: IdParams }),
    },
    async (request) => {
      await goals.delete(devUser(request), request.params.goal_id);
      return { success: true };
    },
  );

  app.patch(
    '/user/goals/:goal_id/progress',
    {
      ...write,
      schema: {
        tags,
        summary: "Set the current value and record today's history point",
        description:
          'The value comes in the query (`?current_value=`, as the reference) or a JSON body `{current_value}`.',
        params: IdParams,
        querystring: Type.Object({ current_value: Type.Optional(Type.Number()) }),
        // An absent body reaches the validator as null; a body without the value (`{}`, as some clients
        // always send) leaves it to the query.
        body: Nullable(Type.Object({ current_value: Type.Optional(Type.Number()) })),
        response: { 200: DeveloperGoal, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => {
      const value = request.query.current_value ?? request.body?.current_value;
      if (value === undefined) {
        throw new AppError(422, [{ loc: ['query', 'current_value'], msg: 'Field required', type: 'missing' }]);
      }
      return goals.recordProgress(devUser(request), request.params.goal_id, value);
    },
  );

  app.get(
    '/user/goals/:goal_id/history',
    {
      ...read,
      schema: {
        tags,
        summary: 'Daily progress points of the last `days` days, newest first',
        params: IdParams,
        querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 365, default: 30 }) }),
        response: { 200: Type.Array(HistoryPoint), ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => goals.history(devUser(request), request.params.goal_id, request.query.days),
  );
}
