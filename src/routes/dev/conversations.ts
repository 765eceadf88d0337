import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { Services } from '../../context.js';
import { CONVERSATION_CATEGORIES } from '../../domain/categories.js';
import { parseInstant } from '../../domain/instant.js';
import { AppError, Detail } from '../../errors.js';
import { devUser } from '../../http/auth.js';
import { devKeyOwner, receiptOf } from '../../http/idempotency.js';
import { transcriptBucket } from '../../http/rate-limit.js';
import { cacheUnlessTranscript } from '../../http/response-cache.js';
import { DateTime, errors, IdempotencyKeyHeader, Limit, Nullable, notModified, Offset } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { DeveloperConversation, GeolocationInput, SOURCES } from './conversation-schemas.js';
import { deleteSchema } from './record-schemas.js';

const tags = ['Conversations'];

const CreateResult = Type.Object({ id: Type.String(), status: Type.String(), discarded: Type.Boolean() });
const IdParams = Type.Object({ conversation_id: Type.String({ minLength: 1, maxLength: 200 }) });
const IncludeTranscript = Type.Boolean({ default: false });

const ListQuery = Type.Object({
  limit: Limit(25),
  offset: Offset,
  start_date: Type.Optional(DateTime()),
  end_date: Type.Optional(DateTime()),
  include_transcript: IncludeTranscript,
  categories: Type.Optional(Type.String({ maxLength: 2000, description: 'comma-separated categories (OR)' })),
  folder_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  starred: Type.Optional(Type.Boolean()),
});

const CreateFromText = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 100_000 }),
  text_source: Type.Optional(Type.Enum(['audio_transcript', 'message', 'other_text'])),
  text_source_spec: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  started_at: Type.Optional(Nullable(DateTime())),
  finished_at: Type.Optional(Nullable(DateTime())),
  language: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  geolocation: Type.Optional(Nullable(GeolocationInput)),
});

const SegmentInput = Type.Object({
  text: Type.String({ maxLength: 20_000 }),
  start: Type.Number(),
  end: Type.Number(),
  speaker: Type.Optional(Nullable(Type.String({ pattern: '^SPEAKER_\\d{1,3}$' }))),
  speaker_id: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 999 }))),
  is_user: Type.Optional(Type.Boolean()),
  person_id: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
});

const RetryId = Type.Optional(
  Nullable(
    Type.String({ minLength: 1, maxLength: 200, description: 'retry id: a repeat returns the first conversation' }),
  ),
);

const CreateFromSegments = Type.Object({
  transcript_segments: Type.Array(SegmentInput, { minItems: 1, maxItems: 500 }),
  source: Type.Optional(Nullable(Type.Enum([...SOURCES]))),
  started_at: Type.Optional(Nullable(DateTime())),
  finished_at: Type.Optional(Nullable(DateTime())),
  language: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  geolocation: Type.Optional(Nullable(GeolocationInput)),
  client_session_id: RetryId,
  client_conversation_id: RetryId,
  session_id: RetryId,
  client_id: RetryId,
});

// Beyond the reference: `wait=false` answers `processing` right after the durable write (fast ingest).
const WaitQuery = Type.Object({
  wait: Type.Boolean({
    default: true,
    description:
      'true (default): process before answering; false: answer status processing at once and finish in the background',
  }),
});

const Patch = Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  discarded: Type.Optional(Type.Boolean()),
});

function parseCategories(csv: string | undefined): string[] | undefined {
  if (csv === undefined) return undefined;
  const values = csv
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  for (const value of values) {
    if (!(CONVERSATION_CATEGORIES as readonly string[]).includes(value)) {
      throw new AppError(400, Detail.invalidConversationCategory(value));
    }
  }
  return values.length > 0 ? values : undefined;
}

/** The list filters the developer list and search share, from their query strings. */
export function listFilter(q: ListFilterQuery) {
  return {
    startDate: q.start_date ? parseInstant(q.start_date) : undefined,
    endDate: q.end_date ? parseInstant(q.end_date, 'end') : undefined,
    categories: parseCategories(q.categories),
    folderId: q.folder_id,
    starred: q.starred,
    limit: q.limit,
    offset: q.offset,
  };
}

interface ListFilterQuery {
  start_date?: string;
  end_date?: string;
  categories?: string;
  folder_id?: string;
  starred?: boolean;
  limit: number;
  offset: number;
}

export function registerDevConversationRoutes(app: TypedApp, ctx: Services): void {
  const { auth, conversations } = ctx;

  app.get(
    '/user/conversations',
    {
      preHandler: auth.devKey('conversations:read'),
      config: {
        rateLimit: { policy: 'dev:conversations_read', extra: transcriptBucket },
        cache: cacheUnlessTranscript,
      },
      schema: {
        tags,
        summary: 'List completed, non-discarded conversations, newest first',
        querystring: ListQuery,
        response: { 200: Type.Array(DeveloperConversation), ...notModified, ...errors(400, 401, 403, 422, 429) },
      },
    },
    async (request) => {
      const q = request.query;
      return conversations.list(
        devUser(request),
        { statuses: ['completed'], includeDiscarded: false, ...listFilter(q) },
        q.include_transcript,
      );
    },
  );

  // The two ways to create a conversation differ only in their body.
  const creating = <B extends TSchema>(summary: string, body: B) => ({
    preHandler: auth.devKey('conversations:write'),
    config: { rateLimit: { policy: 'dev:conversations' }, idempotent: devKeyOwner },
    schema: {
      tags,
      summary,
      body,
      querystring: WaitQuery,
      headers: IdempotencyKeyHeader,
      response: { 200: CreateResult, ...errors(401, 403, 409, 413, 422, 429) },
    },
  });
  const options = (request: FastifyRequest<{ Querystring: { wait: boolean } }>) => ({
    wait: request.query.wait,
    receipt: receiptOf(request),
  });

  app.post('/user/conversations', creating('Create a conversation from text', CreateFromText), async (request) =>
    conversations.createFromText(devUser(request), request.body, options(request)),
  );

  app.post(
    '/user/conversations/from-segments',
    creating(
      'Create a conversation from transcript segments (idempotent with client_session_id or its aliases)',
      CreateFromSegments,
    ),
    async (request) => conversations.createFromSegments(devUser(request), request.body, options(request)),
  );

  app.get(
    '/user/conversations/:conversation_id',
    {
      preHandler: auth.devKey('conversations:read'),
      config: { rateLimit: { policy: 'dev:conversation_detail_read', extra: transcriptBucket } },
      schema: {
        tags,
        summary: 'Get one conversation',
        params: IdParams,
        querystring: Type.Object({ include_transcript: IncludeTranscript }),
        response: { 200: DeveloperConversation, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) =>
      conversations.get(devUser(request), request.params.conversation_id, request.query.include_transcript),
  );

  app.patch(
    '/user/conversations/:conversation_id',
    {
      preHandler: auth.devKey('conversations:write'),
      config: { rateLimit: { policy: 'dev:conversations' } },
      schema: {
        tags,
        summary: 'Update title or discarded (restoring reprocesses)',
        params: IdParams,
        body: Patch,
        response: { 200: DeveloperConversation, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => conversations.update(devUser(request), request.params.conversation_id, request.body),
  );

  app.delete(
    '/user/conversations/:conversation_id',
    {
      preHandler: auth.devKey('conversations:write'),
      config: { rateLimit: { policy: 'dev:conversations' } },
      schema: deleteSchema({
        tags,
        summary: 'Delete a conversation permanently (with its transcript, items and files)',
        params: IdParams,
      }),
    },
    async (request) => {
      await conversations.delete(devUser(request), request.params.conversation_id);
      return { success: true };
    },
  );
}
