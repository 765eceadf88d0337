import type { Insertable } from 'kysely';
import type { GoalProgressRow, GoalRow, GoalsRepository } from '../../../src/store/repositories/goals.js';
import type { GoalsTable } from '../../../src/store/schema.js';
import { asPort, newestFirst, OwnedRows } from './port.js';

type Used =
  | 'list'
  | 'findById'
  | 'findByGoalId'
  | 'insert'
  | 'insertActive'
  | 'setStatus'
  | 'update'
  | 'delete'
  | 'recordProgress'
  | 'history';

const GOAL_DEFAULTS = {
  unit: null,
  ended_at: null,
  goal_id: null,
  desired_outcome: null,
  why_it_matters: null,
  horizon_at: null,
};

/** Goals in memory, keeping the repository's contract (the store tests check the SQL keeps it too). */
export class FakeGoals extends OwnedRows<GoalRow> implements Pick<GoalsRepository, Used> {
  readonly points: GoalProgressRow[] = [];

  get port(): GoalsRepository {
    return asPort<GoalsRepository>(this);
  }

  async list(userId: string, includeInactive: boolean, limit: number): Promise<GoalRow[]> {
    const mine = this.rows.filter((g) => g.user_id === userId);
    if (includeInactive) return mine.sort(newestFirst).slice(0, limit);
    return mine
      .filter((g) => g.is_active === 1)
      .sort(newestFirst)
      .reverse()
      .slice(0, limit);
  }

  async findByGoalId(userId: string, goalId: string): Promise<GoalRow | undefined> {
    return this.rows.find((g) => g.user_id === userId && g.goal_id === goalId);
  }

  async insert(goal: Insertable<GoalsTable>): Promise<void> {
    this.rows.push({ ...GOAL_DEFAULTS, ...goal });
  }

  /** Stores the goal, then archives the user's oldest active goals beyond `maxActive`. */
  async insertActive(goal: Insertable<GoalsTable>, maxActive: number, now: number): Promise<void> {
    this.rows.push({ ...GOAL_DEFAULTS, ...goal });
    this.archiveBeyond(goal.user_id, goal.id, maxActive, now);
  }

  async setStatus(userId: string, id: string, status: string, maxActive: number, now: number): Promise<void> {
    const active = status === 'active';
    await this.update(userId, id, {
      status,
      is_active: active ? 1 : 0,
      ended_at: active ? null : now,
      updated_at: now,
    });
    if (active) this.archiveBeyond(userId, id, maxActive, now);
  }

  private archiveBeyond(userId: string, keepId: string, maxActive: number, now: number): void {
    const others = this.rows.filter((g) => g.user_id === userId && g.is_active === 1 && g.id !== keepId);
    for (const old of others.sort(newestFirst).slice(maxActive - 1))
      Object.assign(old, { is_active: 0, status: 'archived', ended_at: now, updated_at: now });
  }

  async recordProgress(userId: string, id: string, value: number, day: string, now: number): Promise<boolean> {
    if (!(await this.update(userId, id, { current_value: value, updated_at: now }))) return false;
    const point = this.points.find((p) => p.goal_id === id && p.day === day);
    if (point) Object.assign(point, { value, recorded_at: now });
    else this.points.push({ goal_id: id, user_id: userId, day, value, recorded_at: now });
    return true;
  }

  async history(userId: string, id: string, sinceDay: string): Promise<GoalProgressRow[]> {
    return this.points
      .filter((p) => p.user_id === userId && p.goal_id === id && p.day >= sinceDay)
      .sort((a, b) => b.day.localeCompare(a.day));
  }
}
