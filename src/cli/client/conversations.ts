import type { DeveloperConversation } from '../../domain/conversations/views.js';
import { bool, idArg, int, parse, required, str, time } from './args.js';
import type { CommandGroup } from './command.js';
import { fields, json, shortTime, table } from './output.js';

const BASE = '/v1/dev/user/conversations';

function listTable(rows: DeveloperConversation[]): string {
  return table(rows, [
    { header: 'id', value: (c) => c.id },
    { header: 'started', value: (c) => shortTime(c.started_at ?? c.created_at) },
    { header: 'category', value: (c) => c.structured.category },
    { header: 'title', value: (c) => `${c.starred ? '★ ' : ''}${c.structured.title}`, max: 60 },
  ]);
}

function detail(c: DeveloperConversation): string {
  let out = fields([
    ['id', c.id],
    ['title', `${c.structured.emoji} ${c.structured.title}`],
    ['status', c.discarded ? `${c.status} (discarded)` : c.status],
    ['started', shortTime(c.started_at)],
    ['finished', shortTime(c.finished_at)],
    ['category', c.structured.category],
    ['folder', c.folder_name],
    ['overview', c.structured.overview],
  ]);
  for (const item of c.structured.action_items) out += `  [${item.completed ? 'x' : ' '}] ${item.description}\n`;
  for (const s of c.transcript_segments ?? []) out += `${s.is_user ? 'You' : s.speaker_name}: ${s.text}\n`;
  return out;
}

async function readText(values: Record<string, string | boolean | undefined>, stdin: () => Promise<string>) {
  const text = required(values, 'text');
  return text === '-' ? (await stdin()).trim() : text;
}

export const conversationCommands: CommandGroup = {
  list: {
    usage:
      'conversations list [--limit N] [--offset N] [--start-date D] [--end-date D] [--categories a,b] [--folder-id ID] [--starred true|false] [--search WORDS] [--include-transcript] [--json]',
    async run({ api, io, args }) {
      const { values } = parse(args, {
        limit: { type: 'string' },
        offset: { type: 'string' },
        'start-date': { type: 'string' },
        'end-date': { type: 'string' },
        categories: { type: 'string' },
        'folder-id': { type: 'string' },
        starred: { type: 'string' },
        search: { type: 'string' },
        'include-transcript': { type: 'boolean' },
      });
      const search = str(values, 'search');
      const query = {
        limit: int(values, 'limit', 1, 1000),
        offset: int(values, 'offset', 0, 1_000_000),
        start_date: time(values, 'start-date'),
        end_date: time(values, 'end-date'),
        categories: str(values, 'categories'),
        folder_id: str(values, 'folder-id'),
        starred: bool(values, 'starred'),
        include_transcript: values['include-transcript'] === true ? true : undefined,
        q: search,
      };
      const rows = await api.json<DeveloperConversation[]>('GET', search ? `${BASE}/search` : BASE, { query });
      io.stdout.write(values.json ? json(rows) : listTable(rows));
    },
  },
  get: {
    usage: 'conversations get ID [--transcript] [--json]',
    async run({ api, io, args }) {
      const { values, positionals } = parse(args, { transcript: { type: 'boolean' } });
      const id = idArg(positionals, 'conversation');
      const c = await api.json<DeveloperConversation>('GET', `${BASE}/${encodeURIComponent(id)}`, {
        query: { include_transcript: values.transcript === true ? true : undefined },
      });
      io.stdout.write(values.json ? json(c) : detail(c));
    },
  },
  create: {
    usage:
      'conversations create --text TEXT|- [--started-at D] [--finished-at D] [--language L] [--text-source audio_transcript|message|other_text] [--json]',
    async run({ api, io, args, stdin }) {
      const { values } = parse(args, {
        text: { type: 'string' },
        'started-at': { type: 'string' },
        'finished-at': { type: 'string' },
        language: { type: 'string' },
        'text-source': { type: 'string' },
      });
      const body = {
        text: await readText(values, stdin),
        started_at: time(values, 'started-at'),
        finished_at: time(values, 'finished-at'),
        language: str(values, 'language'),
        text_source: str(values, 'text-source'),
      };
      const created = await api.json<{ id: string; status: string; discarded: boolean }>('POST', BASE, { body });
      io.stdout.write(
        values.json
          ? json(created)
          : fields([
              ['id', created.id],
              ['status', created.status],
              ['discarded', created.discarded],
            ]),
      );
    },
  },
  update: {
    usage: 'conversations update ID [--title T] [--discarded true|false] [--json]',
    async run({ api, io, args }) {
      const { values, positionals } = parse(args, { title: { type: 'string' }, discarded: { type: 'string' } });
      const id = idArg(positionals, 'conversation');
      const body = { title: str(values, 'title'), discarded: bool(values, 'discarded') };
      const c = await api.json<DeveloperConversation>('PATCH', `${BASE}/${encodeURIComponent(id)}`, { body });
      io.stdout.write(values.json ? json(c) : detail(c));
    },
  },
  delete: {
    usage: 'conversations delete ID [--json]',
    async run({ api, io, args }) {
      const { values, positionals } = parse(args, {});
      const id = idArg(positionals, 'conversation');
      const result = await api.json<{ success: boolean }>('DELETE', `${BASE}/${encodeURIComponent(id)}`);
      io.stdout.write(values.json ? json(result) : `deleted ${id}\n`);
    },
  },
};
