import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { devUser } from '../../http/auth.js';
import { devKeyOwner, receiptOf } from '../../http/idempotency.js';
import { DateTime, errors, IdempotencyKeyHeader, Nullable, NullableScalar, notModified } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { DeveloperConversation } from './conversation-schemas.js';
import { deleteSchema } from './record-schemas.js';

const tags = ['Folders'];

const DeveloperFolder = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: NullableScalar(Type.String()),
    color: Type.String(),
    icon: Type.String(),
    created_at: DateTime(),
    updated_at: DateTime(),
    order: Type.Integer(),
    is_default: Type.Boolean(),
    is_system: Type.Boolean(),
    conversation_count: Type.Integer({ description: 'completed, non-discarded conversations in the folder' }),
  },
  { $id: 'DeveloperFolder' },
);

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Description = Type.String({ maxLength: 500 });
const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'hex color, e.g. #3b82f6' });
const Icon = Type.String({ minLength: 1, maxLength: 16, description: 'an emoji or a short icon name' });
const Order = Type.Integer({ minimum: 0, maximum: 1_000_000 });

const FolderParams = Type.Object({ folder_id: Type.String({ minLength: 1, maxLength: 200 }) });
const ConversationParams = Type.Object({ conversation_id: Type.String({ minLength: 1, maxLength: 200 }) });

export function registerDevFolderRoutes(app: TypedApp, ctx: Services): void {
  const { auth, folders } = ctx;
  const write = {
    preHandler: auth.devKey('conversations:write'),
    config: { rateLimit: { policy: 'dev:folders_write' } },
  };

  app.get(
    '/user/folders',
    {
      preHandler: auth.devKey('conversations:read'),
      config: { rateLimit: { policy: 'dev:folders_read' }, cache: {} },
      schema: {
        tags,
        summary: "List the user's folders with their conversation counts",
        response: { 200: Type.Array(DeveloperFolder), ...notModified, ...errors(401, 403, 429) },
      },
    },
    async (request) => folders.list(devUser(request)),
  );

  app.post(
    '/user/folders',
    {
      ...write,
      config: { ...write.config, idempotent: devKeyOwner },
      schema: {
        tags,
        summary: 'Create a folder',
        headers: IdempotencyKeyHeader,
        body: Type.Object({
          name: Name,
          description: Type.Optional(Nullable(Description)),
          color: Type.Optional(Color),
          icon: Type.Optional(Icon),
          order: Type.Optional(Order),
        }),
        response: { 200: DeveloperFolder, ...errors(401, 403, 409, 422, 429) },
      },
    },
    async (request) => folders.create(devUser(request), request.body, receiptOf(request)),
  );

  app.patch(
    '/user/folders/:folder_id',
    {
      ...write,
      schema: {
        tags,
        summary: 'Rename, describe, recolor or reorder a folder',
        params: FolderParams,
        body: Type.Object({
          name: Type.Optional(Nullable(Name)),
          description: Type.Optional(Nullable(Description)),
          color: Type.Optional(Nullable(Color)),
          icon: Type.Optional(Nullable(Icon)),
          order: Type.Optional(Nullable(Order)),
        }),
        response: { 200: DeveloperFolder, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => folders.update(devUser(request), request.params.folder_id, request.body),
  );

  app.delete(
    '/user/folders/:folder_id',
    {
      ...write,
      schema: deleteSchema({
        tags,
        summary: 'Delete a folder (its conversations stay, without a folder)',
        params: FolderParams,
      }),
    },
    async (request) => {
      await folders.delete(devUser(request), request.params.folder_id);
      return { success: true };
    },
  );

  app.patch(
    '/user/conversations/:conversation_id/folder',
    {
      ...write,
      schema: {
        tags,
        summary: 'Move a conversation into a folder (folder_id null takes it out)',
        params: ConversationParams,
        body: Type.Object({ folder_id: Nullable(Type.String({ minLength: 1, maxLength: 200 })) }),
        response: { 200: DeveloperConversation, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) =>
      folders.moveConversation(devUser(request), request.params.conversation_id, request.body.folder_id),
  );

  app.patch(
    '/user/conversations/:conversation_id/starred',
    {
      ...write,
      schema: {
        tags: ['Conversations'],
        summary: 'Star or unstar a conversation',
        params: ConversationParams,
        body: Type.Object({ starred: Type.Boolean() }),
        response: { 200: DeveloperConversation, ...errors(401, 403, 404, 422, 429) },
      },
    },
    async (request) => folders.setStarred(devUser(request), request.params.conversation_id, request.body.starred),
  );
}
