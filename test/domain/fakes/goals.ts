import type { Insertable } from 'kysely';
import type { GoalProgressRow, GoalRow, GoalsRepository } from '../../../src/store/repositories/goals.js';
import type { GoalsTable } from '../../../src/store/schema.js';
import { asPort, newestFirst, OwnedRows } from './port.js';

type Used = 'list' | 'findById' | 'insertActive' | 'update' | 'delete' | 'recordProgress' | 'history';

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

  /** Stores the goal, then deactivates the user's oldest active goals beyond `maxActive`. */
  async insertActive(goal: Insertable<GoalsTable>, maxActive: number, now: number): Promise<void> {
    this.rows.push({ unit: null, ended_at: null, ...goal });
    const active = this.rows.filter((g) => g.user_id === goal.user_id && g.is_active === 1).sort(newestFirst);
    for (const old of active.slice(maxActive)) Object.assign(old, { is_active: 0, ended_at: now, updated_at: now });
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
