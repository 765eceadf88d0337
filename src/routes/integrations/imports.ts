import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { GATES } from '../../domain/apps/gates.js';
import { receiptOf } from '../../http/idempotency.js';
import { DateTime, errors, IdempotencyKeyHeader, Nullable } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { GeolocationInput } from '../dev/conversation-schemas.js';
import { AppParams, appOwner, Empty, keyGate, tags, Uid } from './common.js';

const CreateConversation = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 100_000 }),
  text_source: Type.Optional(Type.Enum(['audio_transcript', 'message', 'other_text'], { default: 'audio_transcript' })),
  text_source_spec: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  started_at: Type.Optional(Nullable(DateTime())),
  finished_at: Type.Optional(Nullable(DateTime())),
  language: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  geolocation: Type.Optional(Nullable(GeolocationInput)),
  source: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'ignored: always external_integration' }))),
  app_id: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'ignored: the path app id' }))),
});

const ExplicitMemory = Type.Object({
  content: Type.String({ maxLength: 5000 }),
  tags: Type.Optional(Nullable(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 }))),
});

const CreateMemories = Type.Object({
  text: Type.Optional(Nullable(Type.String({ maxLength: 100_000, description: 'text to extract memories from' }))),
  text_source: Type.Optional(Type.Enum(['email', 'social_post', 'other'], { default: 'other' })),
  text_source_spec: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  memories: Type.Optional(Nullable(Type.Array(ExplicitMemory, { maxItems: 100 }))),
});

const UidQuery = Type.Object({ uid: Uid });

export function registerIntegrationImportRoutes(app: TypedApp, ctx: Services): void {
  const { gates, integration } = ctx.integrations;

  app.post(
    '/:app_id/user/conversations',
    {
      preValidation: keyGate(gates, GATES.createConversation),
      config: { idempotent: appOwner },
      schema: {
        tags,
        summary: "Create a conversation in the user's account from text (processed asynchronously)",
        description:
          'Needs the create_conversation action. text_source defaults to audio_transcript. Answers {} once stored.',
        params: AppParams,
        querystring: UidQuery,
        body: CreateConversation,
        headers: IdempotencyKeyHeader,
        response: { 200: Empty, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const { app_id: appId } = request.params;
      const admission = await gates.admit(appId, request.query.uid, GATES.createConversation);
      const { source: _source, app_id: _ignored, ...input } = request.body;
      await integration.createConversation(appId, request.query.uid, input, receiptOf(request));
      return reply.headers(admission.headers).send({});
    },
  );

  app.post(
    '/:app_id/user/memories',
    {
      preValidation: keyGate(gates, GATES.createMemories),
      config: { idempotent: appOwner },
      schema: {
        tags,
        summary: "Add memories to the user's account (explicit, or extracted from text asynchronously)",
        description:
          'Needs the create_memories action. Either `text` (memories are extracted from it) or `memories` (saved as given) is required.',
        params: AppParams,
        querystring: UidQuery,
        body: CreateMemories,
        headers: IdempotencyKeyHeader,
        response: { 200: Empty, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const { app_id: appId } = request.params;
      const admission = await gates.admit(appId, request.query.uid, GATES.createMemories);
      await integration.importMemories(appId, request.query.uid, request.body, receiptOf(request));
      return reply.headers(admission.headers).send({});
    },
  );
}
