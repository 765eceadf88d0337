import { randomBytes } from 'node:crypto';
import type { Clock } from '../../context-types.js';
import { AppError, Detail, invalidInput } from '../../errors.js';
import type { GoalPatch, GoalProgressRow, GoalRow, GoalsRepository } from '../../store/repositories/goals.js';
import type { CreateReceipt } from '../ports.js';

export const GOAL_TYPES = ['boolean', 'scale', 'numeric'] as const;
export type GoalType = (typeof GOAL_TYPES)[number];

/** research/omi-rest.md §2.4 [A] `GoalResponse`. */
export interface GoalView {
  id: string;
  title: string;
  goal_type: GoalType;
  target_value: number;
  current_value: number;
  min_value: number;
  max_value: number;
  unit: string | null;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export interface GoalHistoryPoint {
  date: string;
  value: number;
  recorded_at: string;
}

export interface CreateGoalInput {
  title: string;
  goal_type?: GoalType;
  target_value: number;
  current_value?: number;
  min_value?: number;
  max_value?: number;
  unit?: string | null;
}

export type UpdateGoalInput = Partial<Omit<CreateGoalInput, 'goal_type'>>;

// SPEC §8: at most 3 active goals; creating a fourth deactivates the oldest.
export const MAX_ACTIVE_GOALS = 3;
const DAY_MS = 24 * 3600 * 1000;

export function toGoalView(row: GoalRow): GoalView {
  return {
    id: row.id,
    title: row.title,
    goal_type: (GOAL_TYPES as readonly string[]).includes(row.goal_type) ? (row.goal_type as GoalType) : 'scale',
    target_value: row.target_value,
    current_value: row.current_value,
    min_value: row.min_value,
    max_value: row.max_value,
    unit: row.unit,
    is_active: row.is_active === 1,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export const toHistoryPoint = (row: GoalProgressRow): GoalHistoryPoint => ({
  date: row.day,
  value: row.value,
  recorded_at: new Date(row.recorded_at).toISOString(),
});

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
   * value when the caller did not set them; explicit bounds are enforced as given.
   */
  async create(userId: string, input: CreateGoalInput, receipt?: CreateReceipt): Promise<GoalView> {
    const title = cleanTitle(input.title);
    const current = input.current_value ?? 0;
    const min = input.min_value ?? Math.min(0, input.target_value, current);
    const max = input.max_value ?? Math.max(10, input.target_value, current);
    checkValues({ min, max, target: input.target_value, current });
    const now = this.clock.now();
    const row: GoalRow = {
      id: `goal_${randomBytes(6).toString('hex')}`,
      user_id: userId,
      title,
      goal_type: input.goal_type ?? 'scale',
      target_value: input.target_value,
      current_value: current,
      min_value: min,
      max_value: max,
      unit: input.unit ?? null,
      is_active: 1,
      created_at: now,
      updated_at: now,
      ended_at: null,
    };
    const view = toGoalView(row);
    await this.goals.insertActive(row, MAX_ACTIVE_GOALS, now, receipt && ((tx) => receipt(tx, view)));
    return view;
  }

  async update(userId: string, id: string, input: UpdateGoalInput): Promise<GoalView> {
    const existing = await this.require(userId, id);
    const patch: GoalPatch = {};
    if (input.title !== undefined) patch.title = cleanTitle(input.title);
    if (input.target_value !== undefined) patch.target_value = input.target_value;
    if (input.current_value !== undefined) patch.current_value = input.current_value;
    if (input.min_value !== undefined) patch.min_value = input.min_value;
    if (input.max_value !== undefined) patch.max_value = input.max_value;
    if (input.unit !== undefined) patch.unit = input.unit;
    if (Object.keys(patch).length === 0) throw invalidInput(['body'], Detail.atLeastOneField);
    checkValues({
      min: patch.min_value ?? existing.min_value,
      max: patch.max_value ?? existing.max_value,
      target: patch.target_value ?? existing.target_value,
      current: patch.current_value ?? existing.current_value,
    });
    await this.goals.update(userId, id, { ...patch, updated_at: this.clock.now() });
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
