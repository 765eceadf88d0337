import type { ActionItemView } from '../../domain/action-items/service.js';
import { UsageError } from '../usage.js';
import { bool, idArg, int, parse, str, time } from './args.js';
import type { CommandGroup } from './command.js';
import { json, shortTime, table } from './output.js';

const BASE = '/v1/dev/user/action-items';

const itemTable = (rows: ActionItemView[]) =>
  table(rows, [
    { header: 'id', value: (a) => a.id },
    { header: 'done', value: (a) => (a.completed ? 'x' : '') },
    { header: 'due', value: (a) => shortTime(a.due_at) },
    { header: 'description', value: (a) => a.description, max: 70 },
  ]);

export const actionItemCommands: CommandGroup = {
  list: {
    usage: 'action-items list [--completed true|false] [--conversation-id ID] [--limit N] [--offset N] [--json]',
    async run({ api, io, args }) {
      const { values } = parse(args, {
        completed: { type: 'string' },
        'conversation-id': { type: 'string' },
        limit: { type: 'string' },
        offset: { type: 'string' },
      });
      const query = {
        completed: bool(values, 'completed'),
        conversation_id: str(values, 'conversation-id'),
        limit: int(values, 'limit', 1, 1000),
        offset: int(values, 'offset', 0, 1_000_000),
      };
      const rows = await api.json<ActionItemView[]>('GET', BASE, { query });
      io.stdout.write(values.json ? json(rows) : itemTable(rows));
    },
  },
  create: {
    usage: 'action-items create --description TEXT [--due D] [--json]',
    async run({ api, io, args }) {
      const { values, positionals } = parse(args, { description: { type: 'string' }, due: { type: 'string' } });
      const description = str(values, 'description') ?? positionals.join(' ');
      if (!description.trim()) throw new UsageError('--description is required');
      const item = await api.json<ActionItemView>('POST', BASE, { body: { description, due_at: time(values, 'due') } });
      io.stdout.write(values.json ? json(item) : itemTable([item]));
    },
  },
  complete: {
    usage: 'action-items complete ID [--undo] [--json]',
    async run({ api, io, args }) {
      const { values, positionals } = parse(args, { undo: { type: 'boolean' } });
      const id = idArg(positionals, 'action item');
      const body = { completed: values.undo !== true };
      const item = await api.json<ActionItemView>('PATCH', `${BASE}/${encodeURIComponent(id)}`, { body });
      io.stdout.write(values.json ? json(item) : itemTable([item]));
    },
  },
  delete: {
    usage: 'action-items delete ID [--json]',
    async run({ api, io, args }) {
      const { values, positionals } = parse(args, {});
      const id = idArg(positionals, 'action item');
      const result = await api.json<unknown>('DELETE', `${BASE}/${encodeURIComponent(id)}`);
      io.stdout.write(values.json ? json(result) : `deleted ${id}\n`);
    },
  },
};
