import type { GoalProgressRow, GoalRow } from '../../store/repositories/goals.js';

export const GOAL_TYPES = ['boolean', 'scale', 'numeric'] as const;
export type GoalType = (typeof GOAL_TYPES)[number];

/** `archived`: deactivated because a newer goal took its place among the active ones. */
export const GOAL_STATUSES = ['active', 'paused', 'completed', 'archived'] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

export interface GoalMetric {
  type: GoalType;
  current: number;
  target: number;
  min: number;
  max: number;
  unit: string | null;
}

/** The reference's `DeveloperGoal`: the metric fields flat and as `metric`, and the outcome fields. */
export interface GoalView {
  id: string;
  goal_id: string;
  title: string;
  desired_outcome: string;
  why_it_matters: string | null;
  success_criteria: string[];
  horizon_at: string | null;
  status: string;
  source: string;
  /** The reference ranks focus goals; nothing here does. */
  focus_rank: number | null;
  goal_type: GoalType;
  target_value: number;
  current_value: number;
  min_value: number;
  max_value: number;
  unit: string | null;
  metric: GoalMetric;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export interface GoalHistoryPoint {
  date: string;
  value: number;
  recorded_at: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

function criteriaOf(json: string): string[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((c): c is string => typeof c === 'string') : [];
}

export function toGoalView(row: GoalRow): GoalView {
  const goalType = (GOAL_TYPES as readonly string[]).includes(row.goal_type) ? (row.goal_type as GoalType) : 'scale';
  return {
    id: row.id,
    goal_id: row.goal_id ?? row.id,
    title: row.title,
    desired_outcome: row.desired_outcome ?? row.title,
    why_it_matters: row.why_it_matters,
    success_criteria: criteriaOf(row.success_criteria),
    horizon_at: row.horizon_at === null ? null : iso(row.horizon_at),
    status: row.status,
    source: row.source,
    focus_rank: null,
    goal_type: goalType,
    target_value: row.target_value,
    current_value: row.current_value,
    min_value: row.min_value,
    max_value: row.max_value,
    unit: row.unit,
    metric: {
      type: goalType,
      current: row.current_value,
      target: row.target_value,
      min: row.min_value,
      max: row.max_value,
      unit: row.unit,
    },
    is_active: row.is_active === 1,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export const toHistoryPoint = (row: GoalProgressRow): GoalHistoryPoint => ({
  date: row.day,
  value: row.value,
  recorded_at: iso(row.recorded_at),
});
