import type { MemoryView } from '../../domain/memories/views.js';
import { UsageError } from '../usage.js';
import { idArg, int, list, parse, str } from './args.js';
import type { CommandGroup } from './command.js';
import { json, shortTime, table } from './output.js';

const BASE = '/v1/dev/user/memories';

const memoryTable = (rows: MemoryView[]) =>
  table(rows, [
    { header: 'id', value: (m) => m.id },
    { header: 'created', value: (m) => shortTime(m.created_at) },
    { header: 'category', value: (m) => m.category },
    { header: 'content', value: (m) => m.content, max: 70 },
  ]);

const memoryOptions = {
  content: { type: 'string' },
  category: { type: 'string' },
  visibility: { type: 'string' },
  tags: { type: 'string' },
} as const;

export const memoryCommands: CommandGroup = {
  list: {
    usage: 'memories list [--limit N] [--offset N] [--categories a,b] [--search WORDS] [--json]',
    async run({ api, io, args }) {
      const { values } = parse(args, {
        limit: { type: 'string' },
        offset: { type: 'string' },
        categories: { type: 'string' },
        search: { type: 'string' },
      });
      const search = str(values, 'search');
      const query = {
        limit: int(values, 'limit', 1, 1000),
        offset: int(values, 'offset', 0, 1_000_000),
        categories: str(values, 'categories'),
        q: search,
      };
      const rows = await api.json<MemoryView[]>('GET', search ? `${BASE}/search` : BASE, { query });
      io.stdout.write(values.json ? json(rows) : memoryTable(rows));
    },
  },
  create: {
    usage: 'memories create --content TEXT [--category C] [--visibility public|private] [--tags a,b] [--json]',
    async run({ api, io, args }) {
      const { values, positionals } = parse(args, memoryOptions);
      const content = str(values, 'content') ?? positionals.join(' ');
      if (!content.trim()) throw new UsageError('--content is required');
      const body = {
        content,
        category: str(values, 'category'),
        visibility: str(values, 'visibility'),
        tags: list(values, 'tags'),
      };
      const memory = await api.json<MemoryView>('POST', BASE, { body });
      io.stdout.write(values.json ? json(memory) : memoryTable([memory]));
    },
  },
  update: {
    usage: 'memories update ID [--content TEXT] [--category C] [--visibility public|private] [--tags a,b] [--json]',
    async run({ api, io, args }) {
      const { values, positionals } = parse(args, memoryOptions);
      const id = idArg(positionals, 'memory');
      const body = {
        content: str(values, 'content'),
        category: str(values, 'category'),
        visibility: str(values, 'visibility'),
        tags: list(values, 'tags'),
      };
      const memory = await api.json<MemoryView>('PATCH', `${BASE}/${encodeURIComponent(id)}`, { body });
      io.stdout.write(values.json ? json(memory) : memoryTable([memory]));
    },
  },
  delete: {
    usage: 'memories delete ID [--json]',
    async run({ api, io, args }) {
      const { values, positionals } = parse(args, {});
      const id = idArg(positionals, 'memory');
      const result = await api.json<unknown>('DELETE', `${BASE}/${encodeURIComponent(id)}`);
      io.stdout.write(values.json ? json(result) : `deleted ${id}\n`);
    },
  },
};
