import type { ApiClient, Query } from '../cli/client/http.js';
import type { DevScope } from '../domain/keys/dev-keys.js';
import { askTool } from './ask-tool.js';

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The developer-key scope the tool needs (SPEC §5: the API answers 403 without it). */
  scope: DevScope;
  readOnly: boolean;
  call(api: ApiClient, args: Record<string, unknown>): Promise<unknown>;
}

const DEV = '/v1/dev/user';
const str = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'string', description, ...extra });
const limit = (fallback: number) => ({
  type: 'integer',
  minimum: 1,
  maximum: 100,
  default: fallback,
  description: 'how many to return',
});
const offset = { type: 'integer', minimum: 0, default: 0, description: 'how many to skip (paging)' };
const dateTime = (description: string) => str(description, { format: 'date-time' });

function object(properties: Record<string, unknown>, required: string[] = []) {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** Only the arguments that were given become query parameters. */
function query(args: Record<string, unknown>, names: Record<string, string>): Query {
  const out: Query = {};
  for (const [arg, param] of Object.entries(names)) {
    const value = args[arg];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[param] = value;
  }
  return out;
}

const LIST_FILTERS = {
  limit: limit(10),
  offset,
  start_date: dateTime('only conversations created on or after this time'),
  end_date: dateTime('only conversations created on or before this time'),
  categories: str('comma-separated categories, e.g. "work,health" (any of them)'),
};

export const TOOLS: ToolDefinition[] = [
  askTool,
  {
    name: 'search_conversations',
    title: 'Search conversations',
    description:
      "Full-text search over the user's recorded conversations (title, summary and transcript), best match first.",
    inputSchema: object({ query: str('words to look for', { minLength: 1 }), ...LIST_FILTERS }, ['query']),
    scope: 'conversations:read',
    readOnly: true,
    call: (api, a) =>
      api.json('GET', `${DEV}/conversations/search`, {
        query: query(a, {
          query: 'q',
          limit: 'limit',
          offset: 'offset',
          start_date: 'start_date',
          end_date: 'end_date',
          categories: 'categories',
        }),
      }),
  },
  {
    name: 'list_conversations',
    title: 'List conversations',
    description: "The user's completed conversations, newest first, with title, summary, category and action items.",
    inputSchema: object({
      ...LIST_FILTERS,
      starred: { type: 'boolean', description: 'only starred (true) or unstarred (false)' },
    }),
    scope: 'conversations:read',
    readOnly: true,
    call: (api, a) =>
      api.json('GET', `${DEV}/conversations`, {
        query: query(a, {
          limit: 'limit',
          offset: 'offset',
          start_date: 'start_date',
          end_date: 'end_date',
          categories: 'categories',
          starred: 'starred',
        }),
      }),
  },
  {
    name: 'get_conversation',
    title: 'Read a conversation',
    description:
      'One conversation by id, with its transcript (speaker and text per segment) unless include_transcript is false.',
    inputSchema: object(
      {
        conversation_id: str('the conversation id', { minLength: 1 }),
        include_transcript: { type: 'boolean', default: true },
      },
      ['conversation_id'],
    ),
    scope: 'conversations:read',
    readOnly: true,
    call: (api, a) =>
      api.json('GET', `${DEV}/conversations/${encodeURIComponent(String(a.conversation_id))}`, {
        query: { include_transcript: a.include_transcript !== false },
      }),
  },
  {
    name: 'search_memories',
    title: 'Search memories',
    description: 'Full-text search over the facts remembered about the user, best match first.',
    inputSchema: object({ query: str('words to look for', { minLength: 1 }), limit: limit(10), offset }, ['query']),
    scope: 'memories:read',
    readOnly: true,
    call: (api, a) =>
      api.json('GET', `${DEV}/memories/search`, { query: query(a, { query: 'q', limit: 'limit', offset: 'offset' }) }),
  },
  {
    name: 'list_memories',
    title: 'List memories',
    description: 'Facts remembered about the user, newest first.',
    inputSchema: object({ limit: limit(25), offset, categories: str('comma-separated memory categories') }),
    scope: 'memories:read',
    readOnly: true,
    call: (api, a) =>
      api.json('GET', `${DEV}/memories`, {
        query: query(a, { limit: 'limit', offset: 'offset', categories: 'categories' }),
      }),
  },
  {
    name: 'create_memory',
    title: 'Remember a fact',
    description: 'Stores a new fact about the user (one short sentence).',
    inputSchema: object(
      {
        content: str('the fact, e.g. "Prefers tea over coffee"', { minLength: 1, maxLength: 500 }),
        category: str('core, hobbies, lifestyle, interests, habits, work, skills, learnings or other'),
        tags: { type: 'array', items: { type: 'string' }, maxItems: 50 },
      },
      ['content'],
    ),
    scope: 'memories:write',
    readOnly: false,
    call: (api, a) => api.json('POST', `${DEV}/memories`, { body: a }),
  },
  {
    name: 'list_action_items',
    title: 'List action items',
    description: "The user's to-dos: open ones first, soonest due first.",
    inputSchema: object({
      completed: { type: 'boolean', description: 'true: done ones; false: open ones' },
      limit: limit(25),
      offset,
    }),
    scope: 'action_items:read',
    readOnly: true,
    call: (api, a) =>
      api.json('GET', `${DEV}/action-items`, {
        query: query(a, { completed: 'completed', limit: 'limit', offset: 'offset' }),
      }),
  },
  {
    name: 'create_action_item',
    title: 'Add an action item',
    description: 'Adds a to-do for the user, optionally with a due date-time (ISO 8601).',
    inputSchema: object(
      { description: str('what to do', { minLength: 1, maxLength: 500 }), due_at: dateTime('when it is due') },
      ['description'],
    ),
    scope: 'action_items:write',
    readOnly: false,
    call: (api, a) => api.json('POST', `${DEV}/action-items`, { body: a }),
  },
];
