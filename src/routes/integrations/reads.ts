import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { GATES } from '../../domain/apps/gates.js';
import { parseDateParam } from '../../domain/apps/integration.js';
import { AppError } from '../../errors.js';
import { DateTime, errors, Limit, Nullable, Offset } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { EventView, GeolocationView } from '../dev/conversation-schemas.js';
import { AppParams, keyGate, tags, Uid } from './common.js';

const STATUSES = ['in_progress', 'processing', 'completed', 'failed'];

const Segment = Type.Object({
  text: Type.String(),
  speaker: Type.String(),
  speaker_id: Type.Integer(),
  is_user: Type.Boolean(),
  person_id: Nullable(Type.String()),
  start_time: Type.Number({ description: 'seconds from the start' }),
  end_time: Type.Number(),
  start: Type.Number({ description: 'same as start_time (reference clients)' }),
  end: Type.Number(),
});

export const Conversation = Type.Object({
  id: Type.String(),
  created_at: DateTime(),
  started_at: Nullable(DateTime()),
  finished_at: Nullable(DateTime()),
  text: Type.String({ description: 'the full transcript text' }),
  source: Type.String({ description: '`unknown` when the conversation has none' }),
  language: Nullable(Type.String()),
  status: Type.String(),
  discarded: Type.Boolean(),
  app_id: Nullable(Type.String()),
  structured: Type.Object({
    title: Type.String(),
    overview: Type.String(),
    emoji: Type.String(),
    category: Type.String(),
    action_items: Type.Array(
      Type.Object({ description: Type.String(), completed: Type.Boolean(), due_at: Nullable(DateTime()) }),
    ),
    events: Type.Array(EventView),
  }),
  transcript_segments: Type.Array(Segment),
  geolocation: Nullable(GeolocationView),
});

const MemoryLayer = Type.Enum(['short_term', 'long_term', 'archive']);

const Memory = Type.Object({
  id: Type.String(),
  uid: Type.String({ description: "the owner's user id" }),
  content: Type.String(),
  category: Type.String(),
  tags: Type.Array(Type.String()),
  app_id: Nullable(Type.String()),
  conversation_id: Nullable(Type.String()),
  created_at: DateTime(),
  updated_at: DateTime(),
  layer: MemoryLayer,
  memory_tier: MemoryLayer,
  visibility: Type.String(),
  manually_added: Type.Boolean(),
  reviewed: Type.Boolean(),
  user_review: Nullable(Type.Boolean()),
  edited: Type.Boolean(),
  is_locked: Type.Boolean(),
  kg_extracted: Type.Boolean(),
});

/** The reference's limit on transcript segments per conversation (conversations and search). */
export const MaxTranscriptSegments = Type.Integer({ minimum: -1, maximum: 1000, default: 100, description: '-1: all' });

const ConversationsQuery = Type.Object({
  uid: Uid,
  limit: Limit(100),
  offset: Offset,
  include_discarded: Type.Boolean({ default: false }),
  statuses: Type.Optional(
    Type.Array(Type.String({ maxLength: 200 }), { maxItems: 10, description: 'comma-separated or repeated' }),
  ),
  start_date: Type.Optional(
    Type.String({ maxLength: 64, description: 'ISO 8601 or YYYY-MM-DD (created_at, inclusive)' }),
  ),
  end_date: Type.Optional(
    Type.String({ maxLength: 64, description: 'ISO 8601 or YYYY-MM-DD (created_at, inclusive)' }),
  ),
  max_transcript_segments: MaxTranscriptSegments,
});

/** `statuses=a,b` and `statuses=a&statuses=b` both work; unknown values are a 422. */
function parseStatuses(values: readonly string[] | undefined): string[] {
  const statuses = (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  const unknown = statuses.find((s) => !STATUSES.includes(s));
  if (unknown !== undefined) {
    throw new AppError(422, [
      { loc: ['query', 'statuses'], msg: `must be one of ${STATUSES.join(', ')} (got '${unknown}')`, type: 'enum' },
    ]);
  }
  return statuses;
}

export function registerIntegrationReadRoutes(app: TypedApp, ctx: Services): void {
  const { gates, integration } = ctx.integrations;

  app.get(
    '/:app_id/conversations',
    {
      preValidation: keyGate(gates, GATES.readConversations),
      schema: {
        tags,
        summary: "Read the user's conversations",
        description: 'Needs the read_conversations action. Newest first; discarded ones only with include_discarded.',
        params: AppParams,
        querystring: ConversationsQuery,
        response: { 200: Type.Object({ conversations: Type.Array(Conversation) }), ...errors(400, 401, 403, 404, 422) },
      },
    },
    async (request) => {
      const { query } = request;
      await gates.admit(request.params.app_id, query.uid, GATES.readConversations);
      const filter = {
        limit: query.limit,
        offset: query.offset,
        includeDiscarded: query.include_discarded,
        statuses: parseStatuses(query.statuses),
        startDate: parseDateParam('start_date', query.start_date),
        endDate: parseDateParam('end_date', query.end_date),
        maxSegments: query.max_transcript_segments,
      };
      return { conversations: await integration.listConversations(query.uid, filter) };
    },
  );

  app.get(
    '/:app_id/memories',
    {
      preValidation: keyGate(gates, GATES.readMemories),
      schema: {
        tags,
        summary: "Read the user's memories",
        description: 'Needs the read_memories action. Newest first; memories the user rejected are left out.',
        params: AppParams,
        querystring: Type.Object({ uid: Uid, limit: Limit(100), offset: Offset }),
        response: { 200: Type.Object({ memories: Type.Array(Memory) }), ...errors(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const { uid, limit, offset } = request.query;
      await gates.admit(request.params.app_id, uid, GATES.readMemories);
      return { memories: await integration.listMemories(uid, limit, offset) };
    },
  );
}
