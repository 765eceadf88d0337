import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { GATES } from '../../domain/apps/gates.js';
import { parseDateParam } from '../../domain/apps/integration.js';
import { errors, Limit, Nullable, Offset } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { DeveloperActionItem } from '../dev/action-items.js';
import { AppParams, keyGate, tags, Uid } from './common.js';
import { Conversation, MaxTranscriptSegments } from './reads.js';

const DateParam = Type.String({ maxLength: 64, description: 'ISO 8601 or YYYY-MM-DD (created_at, inclusive)' });

/** The reference's SearchRequest: every field optional, null meaning its default. */
const SearchBody = Type.Object({
  query: Type.Optional(
    Type.String({ maxLength: 500, description: 'words that must all occur; empty: every conversation' }),
  ),
  page: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }))),
  per_page: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1000, default: 10 }))),
  include_discarded: Type.Optional(Nullable(Type.Boolean({ default: true }))),
  start_date: Type.Optional(Nullable(DateParam)),
  end_date: Type.Optional(Nullable(DateParam)),
  speaker_id: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'accepted; not a filter' }))),
});

const SearchPage = Type.Object({
  conversations: Type.Array(Conversation),
  total_pages: Type.Integer(),
  current_page: Type.Integer(),
  per_page: Type.Integer(),
});

const TasksQuery = Type.Object({
  uid: Uid,
  limit: Limit(100),
  offset: Offset,
  completed: Type.Optional(Type.Boolean({ description: 'omitted: open and completed' })),
  conversation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  start_date: Type.Optional(DateParam),
  end_date: Type.Optional(DateParam),
  due_start_date: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601 or YYYY-MM-DD (due_at)' })),
  due_end_date: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601 or YYYY-MM-DD (due_at)' })),
});

export function registerIntegrationSearchTaskRoutes(app: TypedApp, ctx: Services): void {
  const { gates, integration } = ctx.integrations;

  app.post(
    '/:app_id/search/conversations',
    {
      preValidation: keyGate(gates, GATES.readConversations),
      schema: {
        tags,
        summary: "Search the user's conversations",
        description:
          'Needs the read_conversations action. Completed conversations holding every word of `query` (all of them ' +
          'when it is empty), newest first, discarded ones included unless include_discarded is false.',
        params: AppParams,
        querystring: Type.Object({ uid: Uid, max_transcript_segments: MaxTranscriptSegments }),
        body: SearchBody,
        response: { 200: SearchPage, ...errors(400, 401, 403, 404, 422) },
      },
    },
    async (request) => {
      const { query, body } = request;
      await gates.admit(request.params.app_id, query.uid, GATES.readConversations);
      return integration.searchConversations(query.uid, {
        query: body.query ?? '',
        page: body.page ?? 1,
        perPage: body.per_page ?? 10,
        includeDiscarded: body.include_discarded ?? true,
        startDate: parseDateParam('start_date', body.start_date ?? undefined),
        endDate: parseDateParam('end_date', body.end_date ?? undefined),
        maxSegments: query.max_transcript_segments,
      });
    },
  );

  app.get(
    '/:app_id/tasks',
    {
      preValidation: keyGate(gates, GATES.readTasks),
      schema: {
        tags,
        summary: "Read the user's tasks (action items)",
        description:
          'Needs the read_tasks action. Open items first, then by due date; filters on completion, conversation, ' +
          'creation and due dates (bare dates cover the whole UTC day).',
        params: AppParams,
        querystring: TasksQuery,
        response: { 200: Type.Object({ tasks: Type.Array(DeveloperActionItem) }), ...errors(400, 401, 403, 404, 422) },
      },
    },
    async (request) => {
      const { query } = request;
      await gates.admit(request.params.app_id, query.uid, GATES.readTasks);
      const tasks = await integration.listTasks(query.uid, {
        limit: query.limit,
        offset: query.offset,
        completed: query.completed,
        conversationId: query.conversation_id,
        startDate: parseDateParam('start_date', query.start_date),
        endDate: parseDateParam('end_date', query.end_date),
        dueStartDate: parseDateParam('due_start_date', query.due_start_date),
        dueEndDate: parseDateParam('due_end_date', query.due_end_date),
      });
      return { tasks };
    },
  );
}
