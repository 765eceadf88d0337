import { randomBytes } from 'node:crypto';
import type { Clock } from '../../context-types.js';
import { AppError, Detail, invalidInput } from '../../errors.js';
import type { GoalPatch, GoalRow, GoalsRepository } from '../../store/repositories/goals.js';
import { parseInstant } from '../instant.js';
import type { CreateReceipt } from '../ports.js';
import {
  type GoalHistoryPoint,
  type GoalStatus,
  type GoalType,
  type GoalView,
  toGoalView,
  toHistoryPoint,
} from './views.js';

export { GOAL_STATUSES, GOAL_TYPES, type GoalType, type GoalView, toGoalView, toHistoryPoint } from './views.js';

/**
 * The reference's `UpdateGoalRequest` fields (and status). In an update, absent or null leaves a field
 * alone, except `unit`, `why_it_matters` and `horizon_at`, which null clears.
 */
export interface UpdateGoalInput {
  title?: string | null;
  /** Optional on create: without one the goal is a plain outcome (a boolean goal, done at 1). */
  target_value?: number | null;
  current_value?: number | null;
  min_value?: number | null;
  max_value?: number | null;
  unit?: string | null;
  desired_outcome?: string | null;
  why_it_matters?: string | null;
  success_criteria?: readonly string[] | null;
  horizon_at?: string | null;
  status?: GoalStatus | null;
}

/** The reference's `CreateGoalRequest`, and the idempotency key and source its newer clients send. */
export interface CreateGoalInput extends UpdateGoalInput {
  title: string;
  goal_type?: GoalType | null;
  /** The client's id: a second create with the same goal_id returns the first goal. */
  goal_id?: string | null;
  source?: string | null;
}

// SPEC §8: at most 3 active goals; creating a fourth deactivates the oldest.
export const MAX_ACTIVE_GOALS = 3;
const DAY_MS = 24 * 3600 * 1000;

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * Finite values (the target and current value first: derived bounds inherit theirs, and the error must
 * name the field the caller sent), then sane bounds, then every value inside them; all checks run
 * before anything is written.
 */
function checkValues(
  values: { min: number; max: number; target: number; current: number },
  where: 'body' | 'query' = 'body',
): void {
  for (const [field, value] of Object.entries({
    target_value: values.target,
    current_value: values.current,
    min_value: values.min,
    max_value: values.max,
  })) {
    if (!Number.isFinite(value)) throw invalidInput([where, field], Detail.goalValueNotFinite(field));
  }
  if (values.min > values.max) throw invalidInput([where, 'min_value'], Detail.goalRangeInvalid);
  for (const [field, value] of [
    ['target_value', values.target],
    ['current_value', values.current],
  ] as const) {
    if (value < values.min || value > values.max)
      throw invalidInput([where, field], Detail.goalValueOutOfRange(field, values.min, values.max));
  }
}

/** The outcome fields of a create: the desired outcome defaults to the title. */
function outcomeFields(input: CreateGoalInput, title: string) {
  return {
    desired_outcome: input.desired_outcome?.trim() || title,
    why_it_matters: input.why_it_matters ?? null,
    success_criteria: JSON.stringify(cleanCriteria(input.success_criteria ?? [])),
    horizon_at: instantOrNull(input.horizon_at),
  };
}

/** The columns an update changes (null leaves a field alone, except the three nullable ones). */
function goalPatch(input: UpdateGoalInput): GoalPatch {
  const patch: GoalPatch = {};
  if (input.title != null) patch.title = cleanTitle(input.title);
  if (input.target_value != null) patch.target_value = input.target_value;
  if (input.current_value != null) patch.current_value = input.current_value;
  if (input.min_value != null) patch.min_value = input.min_value;
  if (input.max_value != null) patch.max_value = input.max_value;
  if (input.unit !== undefined) patch.unit = input.unit;
  if (input.desired_outcome != null) patch.desired_outcome = input.desired_outcome.trim() || null;
  if (input.why_it_matters !== undefined) patch.why_it_matters = input.why_it_matters;
  if (input.success_criteria != null) patch.success_criteria = JSON.stringify(cleanCriteria(input.success_criteria));
  if (input.horizon_at !== undefined) patch.horizon_at = instantOrNull(input.horizon_at);
  return patch;
}

const cleanCriteria = (criteria: readonly string[]): string[] => criteria.map((c) => c.trim()).filter(Boolean);

function instantOrNull(value: string | null | undefined): number | null {
  if (value == null) return null;
  const at = parseInstant(value);
  if (Number.isNaN(at)) throw invalidInput(['body', 'horizon_at'], Detail.goalHorizonInvalid);
  return at;
}

function cleanTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed === '') throw invalidInput(['body', 'title'], Detail.titleEmpty);
  return trimmed;
}

export class GoalsService {
  constructor(
    private readonly goals: GoalsRepository,
    private readonly clock: Clock,
  ) {}

  async list(userId: string, includeInactive: boolean, limit: number): Promise<GoalView[]> {
    return (await this.goals.list(userId, includeInactive, limit)).map(toGoalView);
  }

  async get(userId: string, id: string): Promise<GoalView> {
    return toGoalView(await this.require(userId, id));
  }

  /**
   * Bounds default to 0..10 (the reference's defaults), widened to hold the given target and current
   * value when the caller did not set them; explicit bounds are enforced as given. Without a target the
   * goal is a plain outcome: a boolean goal from 0 to 1, done at 1. A create naming a goal_id the user
   * already has returns that goal unchanged (a client's retry creates nothing twice).
   */
  async create(userId: string, input: CreateGoalInput, receipt?: CreateReceipt): Promise<GoalView> {
    if (input.goal_id) {
      const existing = await this.goals.findByGoalId(userId, input.goal_id);
      if (existing) return toGoalView(existing);
    }
    const title = cleanTitle(input.title);
    const goalType = input.goal_type ?? (input.target_value == null ? 'boolean' : 'scale');
    const current = input.current_value ?? 0;
    const target = input.target_value ?? (goalType === 'boolean' ? 1 : (input.max_value ?? 10));
    const min = input.min_value ?? Math.min(0, target, current);
    const max = input.max_value ?? Math.max(goalType === 'boolean' ? 1 : 10, target, current);
    checkValues({ min, max, target, current });
    const now = this.clock.now();
    const id = `goal_${randomBytes(6).toString('hex')}`;
    const status = input.status ?? 'active';
    const row: GoalRow = {
      ...{ id, goal_id: input.goal_id ?? id, user_id: userId, title, goal_type: goalType },
      ...{ target_value: target, current_value: current, min_value: min, max_value: max, unit: input.unit ?? null },
      ...outcomeFields(input, title),
      ...{ status, source: input.source ?? 'user', is_active: status === 'active' ? 1 : 0 },
      ...{ created_at: now, updated_at: now, ended_at: status === 'active' ? null : now },
    };
    const view = toGoalView(row);
    const alsoInTransaction = receipt && ((tx: Parameters<CreateReceipt>[0]) => receipt(tx, view));
    if (status === 'active') await this.goals.insertActive(row, MAX_ACTIVE_GOALS, now, alsoInTransaction);
    else await this.goals.insert(row, alsoInTransaction);
    return view;
  }

  async update(userId: string, id: string, input: UpdateGoalInput): Promise<GoalView> {
    const existing = await this.require(userId, id);
    const patch = goalPatch(input);
    if (Object.keys(patch).length === 0 && !input.status) throw invalidInput(['body'], Detail.atLeastOneField);
    checkValues({
      min: patch.min_value ?? existing.min_value,
      max: patch.max_value ?? existing.max_value,
      target: patch.target_value ?? existing.target_value,
      current: patch.current_value ?? existing.current_value,
    });
    const now = this.clock.now();
    await this.goals.update(userId, id, { ...patch, updated_at: now });
    if (input.status) await this.goals.setStatus(userId, id, input.status, MAX_ACTIVE_GOALS, now);
    return this.get(userId, id);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.goals.delete(userId, id))) throw new AppError(404, Detail.goalNotFound);
  }

  /** Sets the current value and records today's (UTC) history point. */
  async recordProgress(userId: string, id: string, value: number): Promise<GoalView> {
    const existing = await this.require(userId, id);
    checkValues(
      { min: existing.min_value, max: existing.max_value, target: existing.target_value, current: value },
      'query',
    );
    const now = this.clock.now();
    if (!(await this.goals.recordProgress(userId, id, value, utcDay(now), now)))
      throw new AppError(404, Detail.goalNotFound);
    return this.get(userId, id);
  }

  /** Daily points of the last `days` UTC days (today included), newest first. */
  async history(userId: string, id: string, days: number): Promise<GoalHistoryPoint[]> {
    await this.require(userId, id);
    const since = utcDay(this.clock.now() - (days - 1) * DAY_MS);
    return (await this.goals.history(userId, id, since)).map(toHistoryPoint);
  }

  private async require(userId: string, id: string): Promise<GoalRow> {
    const row = await this.goals.findById(userId, id);
    if (!row) throw new AppError(404, Detail.goalNotFound);
    return row;
  }
}
