import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { MEMORY_CATEGORIES } from '../../domain/categories.js';
import { devUser } from '../../http/auth.js';
import { devKeyOwner, receiptOf } from '../../http/idempotency.js';
import {
  DateTime,
  errors,
  IdempotencyKeyHeader,
  Limit,
  Nullable,
  NullableScalar,
  notModified,
  Offset,
} from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { batchCreateSchema, deleteSchema, patchSchema } from './record-schemas.js';

const tags = ['Memories'];

const Category = Type.Enum([...MEMORY_CATEGORIES], { description: 'memory category (SPEC §2.4)' });
const Visibility = Type.Enum(['public', 'private']);
const Tags = Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 });
const Content = Type.String({ minLength: 1, maxLength: 500 });

const DeveloperMemory = Type.Object(
  {
    id: Type.String(),
    content: Type.String(),
    category: Category,
    visibility: Visibility,
    tags: Type.Array(Type.String()),
    created_at: DateTime(),
    updated_at: DateTime(),
    manually_added: Type.Boolean(),
    scoring: Type.String(),
    reviewed: Type.Boolean(),
    user_review: NullableScalar(Type.Boolean()),
    edited: Type.Boolean(),
    source: Type.Enum(['manual', 'conversation', 'app'], { description: 'where the memory came from' }),
    conversation_id: NullableScalar(Type.String({ description: 'the conversation it was extracted from' })),
    app_id: NullableScalar(Type.String({ description: 'the app that imported it' })),
  },
  { $id: 'DeveloperMemory' },
);

const CreateMemory = Type.Object({
  content: Content,
  category: Type.Optional(Nullable(Category)),
  visibility: Type.Optional(Visibility),
  tags: Type.Optional(Tags),
});

const UpdateMemory = Type.Object({
  content: Type.Optional(Nullable(Content)),
  category: Type.Optional(Nullable(Category)),
  visibility: Type.Optional(Nullable(Visibility)),
  tags: Type.Optional(Nullable(Tags)),
});

const Categories = Type.Optional(
  Type.String({ maxLength: 500, description: 'comma-separated memory categories (OR)' }),
);
const IdParams = Type.Object({ memory_id: Type.String({ minLength: 1, maxLength: 200 }) });

const VectorItem = Type.Object({
  id: Type.String(),
  content: Type.String(),
  category: Type.String(),
  relevance_score: Type.Number(),
});

const VectorSearchResponse = Type.Object({
  items: Type.Array(VectorItem),
  returned_count: Type.Integer(),
  ranking: Type.Enum(['embeddings', 'full_text']),
  archive_default_visible: Type.Boolean(),
  policy: Type.Object({
    consumer: Type.String(),
    app_has_default_memory_grant: Type.Boolean(),
    archive_capability: Type.Boolean(),
    raw_provenance_capability: Type.Boolean(),
  }),
});

// The reference's fixed policy block of vector search (research/omi-rest.md §2.2), kept for its clients.
const VECTOR_POLICY = {
  consumer: 'developer_api',
  app_has_default_memory_grant: true,
  archive_capability: false,
  raw_provenance_capability: false,
};

export function registerDevMemoryRoutes(app: TypedApp, ctx: Services): void {
  const { auth, memories, search } = ctx;
  const read = { preHandler: auth.devKey('memories:read'), config: { rateLimit: { policy: 'dev:memories_read' } } };
  const write = { preHandler: auth.devKey('memories:write'), config: { rateLimit: { policy: 'dev:memories' } } };
  const searching = { preHandler: auth.devKey('memories:read'), config: { rateLimit: { policy: 'dev:search' } } };

  app.get(
    '/user/memories',
    {
      ...read,
      config: { ...read.config, cache: {} },
      schema: {
        tags,
        summary: 'List memories, newest first',
        querystring: Type.Object({ limit: Limit(25), offset: Offset, categories: Categories }),
        response: { 200: Type.Array(DeveloperMemory), ...notModified, ...errors(400, 401, 403, 422, 429) },
      },
    },
    async (request) =>
      memories.list(devUser(request), request.query.categories, request.query.limit, request.query.offset),
  );

  app.post(
    '/user/memories',
    {
      ...write,
      config: { ...write.config, idempotent: devKeyOwner },
      schema: {
        tags,
        summary: 'Create a memory (always a new one, even for identical content)',
        body: CreateMemory,
        headers: IdempotencyKeyHeader,
        response: { 200: DeveloperMemory, ...errors(401, 403, 409, 422, 429) },
      },
    },
    async (request) => memories.create(devUser(request), request.body, receiptOf(request)),
  );

  app.post(
    '/user/memories/batch',
    {
      preHandler: auth.devKey('memories:write'),
      config: { rateLimit: { policy: 'dev:memories_batch' }, idempotent: devKeyOwner },
      schema: batchCreateSchema({
        tags,
        summary: 'Create up to 25 memories at once (all or nothing)',
        key: 'memories',
        max: 25,
        create: CreateMemory,
        created: DeveloperMemory,
      }),
    },
    async (request) => memories.createBatch(devUser(request), request.body.memories, receiptOf(request)),
  );

  app.patch(
    '/user/memories/:memory_id',
    {
      ...write,
      schema: patchSchema({
        tags,
        summary: 'Update content, category, visibility or tags (validated in full before writing)',
        params: IdParams,
        body: UpdateMemory,
        updated: DeveloperMemory,
      }),
    },
    async (request) => memories.update(devUser(request), request.params.memory_id, request.body),
  );

  app.delete(
    '/user/memories/:memory_id',
    {
      ...write,
      schema: deleteSchema({ tags, summary: 'Delete a memory', params: IdParams }),
    },
    async (request) => {
      await memories.delete(devUser(request), request.params.memory_id);
      return { success: true };
    },
  );

  app.get(
    '/user/memories/search',
    {
      ...searching,
      config: { ...searching.config, cache: {} },
      schema: {
        tags,
        summary: 'Full-text search over memories, best match first',
        querystring: Type.Object({
          q: Type.String({ minLength: 1, maxLength: 500, description: 'words to look for (any may match)' }),
          limit: Limit(25),
          offset: Offset,
          categories: Categories,
        }),
        response: { 200: Type.Array(DeveloperMemory), ...notModified, ...errors(400, 401, 403, 422, 429) },
      },
    },
    async (request) => {
      const q = request.query;
      return search.memoriesMatching(devUser(request), q.q, q.categories, q.limit, q.offset);
    },
  );

  app.get(
    '/user/memories/vector/search',
    {
      ...searching,
      schema: {
        tags,
        summary: 'Semantic memory search (embeddings when configured, otherwise full-text ranking)',
        querystring: Type.Object({
          query: Type.String({ minLength: 1, maxLength: 2000 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
        }),
        response: { 200: VectorSearchResponse, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const result = await search.vector(devUser(request), request.query.query, request.query.limit);
      return { ...result, archive_default_visible: false, policy: VECTOR_POLICY };
    },
  );
}
