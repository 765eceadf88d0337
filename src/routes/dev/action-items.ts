import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { parseInstant } from '../../domain/instant.js';
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

const tags = ['Action Items'];

/** SPEC §2.2 (the integration tasks route shows the same shape) */
export const DeveloperActionItem = Type.Object(
  {
    id: Type.String(),
    description: Type.String(),
    completed: Type.Boolean(),
    completed_at: NullableScalar(DateTime()),
    conversation_id: NullableScalar(Type.String()),
    created_at: DateTime(),
    updated_at: DateTime(),
    due_at: NullableScalar(DateTime()),
  },
  { $id: 'DeveloperActionItem' },
);

const Description = Type.String({ minLength: 1, maxLength: 500 });

const CreateActionItem = Type.Object({
  description: Description,
  completed: Type.Optional(Type.Boolean({ default: false })),
  due_at: Type.Optional(Nullable(DateTime())),
});

const UpdateActionItem = Type.Object({
  description: Type.Optional(Nullable(Description)),
  completed: Type.Optional(Nullable(Type.Boolean())),
  due_at: Type.Optional(Nullable(DateTime({ description: 'null removes the due date' }))),
});

const IdParams = Type.Object({ action_item_id: Type.String({ minLength: 1, maxLength: 200 }) });

const ListQuery = Type.Object({
  completed: Type.Optional(Type.Boolean()),
  conversation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  start_date: Type.Optional(DateTime({ description: 'created_at on or after' })),
  end_date: Type.Optional(DateTime({ description: 'created_at on or before' })),
  limit: Limit(100),
  offset: Offset,
});

export function registerDevActionItemRoutes(app: TypedApp, ctx: Services): void {
  const { auth, actionItems } = ctx;
  const write = {
    preHandler: auth.devKey('action_items:write'),
    config: { rateLimit: { policy: 'dev:action_items_write' } },
  };

  app.get(
    '/user/action-items',
    {
      preHandler: auth.devKey('action_items:read'),
      config: { rateLimit: { policy: 'dev:action_items_read' }, cache: {} },
      schema: {
        tags,
        summary: 'List action items: open before completed, due soonest first, then newest',
        querystring: ListQuery,
        response: { 200: Type.Array(DeveloperActionItem), ...notModified, ...errors(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const q = request.query;
      return actionItems.list(devUser(request), {
        completed: q.completed,
        conversationId: q.conversation_id,
        startDate: q.start_date ? parseInstant(q.start_date) : undefined,
        endDate: q.end_date ? parseInstant(q.end_date, 'end') : undefined,
        limit: q.limit,
        offset: q.offset,
      });
    },
  );

  app.post(
    '/user/action-items',
    {
      ...write,
      config: { ...write.config, idempotent: devKeyOwner },
      schema: {
        tags,
        summary: 'Create an action item',
        body: CreateActionItem,
        headers: IdempotencyKeyHeader,
        response: { 200: DeveloperActionItem, ...errors(401, 403, 409, 422, 429) },
      },
    },
    async (request) => actionItems.create(devUser(request), request.body, receiptOf(request)),
  );

  app.post(
    '/user/action-items/batch',
    {
      ...write,
      config: { ...write.config, idempotent: devKeyOwner },
      schema: batchCreateSchema({
        tags,
        summary: 'Create up to 50 action items at once (all or nothing)',
        key: 'action_items',
        max: 50,
        create: CreateActionItem,
        created: DeveloperActionItem,
      }),
    },
    async (request) => actionItems.createBatch(devUser(request), request.body.action_items, receiptOf(request)),
  );

  app.patch(
    '/user/action-items/:action_item_id',
    {
      ...write,
      schema: patchSchema({
        tags,
        summary: 'Update description, completion or due date (due_at: null removes it)',
        params: IdParams,
        body: UpdateActionItem,
        updated: DeveloperActionItem,
      }),
    },
    async (request) => actionItems.update(devUser(request), request.params.action_item_id, request.body),
  );

  app.delete(
    '/user/action-items/:action_item_id',
    {
      ...write,
      schema: deleteSchema({ tags, summary: 'Delete an action item', params: IdParams }),
    },
    async (request) => {
      await actionItems.delete(devUser(request), request.params.action_item_id);
      return { success: true };
    },
  );
}
