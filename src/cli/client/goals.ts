import type { GoalView } from '../../domain/goals/service.js';
import { UsageError } from '../usage.js';
import { idArg, int, num, parse, required, str } from './args.js';
import type { CommandGroup } from './command.js';
import { json, table } from './output.js';

const BASE = '/v1/dev/user/goals';

const goalTable = (rows: GoalView[]) =>
  table(rows, [
    { header: 'id', value: (g) => g.id },
    { header: 'active', value: (g) => (g.is_active ? 'yes' : 'no') },
    { header: 'progress', value: (g) => `${g.current_value}/${g.target_value}${g.unit ? ` ${g.unit}` : ''}` },
    { header: 'type', value: (g) => g.goal_type },
    { header: 'title', value: (g) => g.title, max: 60 },
  ]);

const valueOptions = {
  title: { type: 'string' },
  target: { type: 'string' },
  current: { type: 'string' },
  min: { type: 'string' },
  max: { type: 'string' },
  unit: { type: 'string' },
} as const;

function values(v: Record<string, string | boolean | undefined>) {
  return {
    target_value: num(v, 'target'),
    current_value: num(v, 'current'),
    min_value: num(v, 'min'),
    max_value: num(v, 'max'),
    unit: str(v, 'unit'),
  };
}

const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export const goalCommands: CommandGroup = {
  list: {
    usage: 'goals list [--all] [--limit N] [--json]',
    async run({ api, io, args }) {
      const { values: v } = parse(args, { all: { type: 'boolean' }, limit: { type: 'string' } });
      const query = { include_inactive: v.all === true ? true : undefined, limit: int(v, 'limit', 1, 1000) };
      const rows = await api.json<GoalView[]>('GET', BASE, { query });
      io.stdout.write(v.json ? json(rows) : goalTable(rows));
    },
  },
  get: {
    usage: 'goals get ID [--json]',
    async run({ api, io, args }) {
      const { values: v, positionals } = parse(args, {});
      const goal = await api.json<GoalView>('GET', path(idArg(positionals, 'goal')));
      io.stdout.write(v.json ? json(goal) : goalTable([goal]));
    },
  },
  create: {
    usage:
      'goals create --title T --target N [--type boolean|scale|numeric] [--current N] [--min N] [--max N] [--unit U] [--json]',
    async run({ api, io, args }) {
      const { values: v } = parse(args, { ...valueOptions, type: { type: 'string' } });
      const body = { title: required(v, 'title'), goal_type: str(v, 'type'), ...values(v) };
      if (body.target_value === undefined) throw new UsageError('--target is required');
      const goal = await api.json<GoalView>('POST', BASE, { body });
      io.stdout.write(v.json ? json(goal) : goalTable([goal]));
    },
  },
  update: {
    usage: 'goals update ID [--title T] [--target N] [--current N] [--min N] [--max N] [--unit U] [--json]',
    async run({ api, io, args }) {
      const { values: v, positionals } = parse(args, valueOptions);
      const goal = await api.json<GoalView>('PATCH', path(idArg(positionals, 'goal')), {
        body: { title: str(v, 'title'), ...values(v) },
      });
      io.stdout.write(v.json ? json(goal) : goalTable([goal]));
    },
  },
  progress: {
    usage: 'goals progress ID --value N [--json]',
    async run({ api, io, args }) {
      const { values: v, positionals } = parse(args, { value: { type: 'string' } });
      const value = num(v, 'value');
      if (value === undefined) throw new UsageError('--value is required');
      const goal = await api.json<GoalView>('PATCH', `${path(idArg(positionals, 'goal'))}/progress`, {
        body: { current_value: value },
      });
      io.stdout.write(v.json ? json(goal) : goalTable([goal]));
    },
  },
  delete: {
    usage: 'goals delete ID [--json]',
    async run({ api, io, args }) {
      const { values: v, positionals } = parse(args, {});
      const id = idArg(positionals, 'goal');
      const result = await api.json<unknown>('DELETE', path(id));
      io.stdout.write(v.json ? json(result) : `deleted ${id}\n`);
    },
  },
};
