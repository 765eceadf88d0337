import { type TSchema, Type } from 'typebox';
import type { Services } from '../context.js';
import { ACTIONS, CAPABILITIES, MEMORY_PROMPT_MAX, PROACTIVE_SCOPES, TRIGGERS } from '../domain/apps/model.js';
import { sessionUser } from '../http/auth.js';
import { DateTime, errors, Nullable } from '../http/schemas.js';
import type { TypedApp } from '../http/typed-app.js';

const tags = ['Apps'];

const Names = (values: readonly string[]) =>
  Type.Array(Type.String({ maxLength: 50 }), { maxItems: 16, description: values.join(', ') });

const AppInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  capabilities: Type.Optional(Names(CAPABILITIES)),
  triggers_on: Type.Optional(Nullable(Type.String({ maxLength: 50, description: TRIGGERS.join(', ') }))),
  webhook_url: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  actions: Type.Optional(Names(ACTIONS)),
  scopes: Type.Optional(Names(PROACTIVE_SCOPES)),
  memory_prompt: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: MEMORY_PROMPT_MAX,
        description: 'summarization prompt run on each processed conversation; needs the memories capability',
      }),
    ),
  ),
});

const AppPatch = Type.Partial(AppInput);

const AppView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  owner_uid: Nullable(Type.String()),
  capabilities: Type.Array(Type.String()),
  external_integration: Nullable(
    Type.Object({
      triggers_on: Nullable(Type.String()),
      webhook_url: Nullable(Type.String({ description: 'shown to the owner only' })),
      actions: Type.Array(Type.String()),
    }),
  ),
  proactive_notification: Nullable(Type.Object({ scopes: Type.Array(Type.String()) })),
  memory_prompt: Nullable(Type.String()),
  owned: Type.Boolean(),
  enabled: Type.Boolean(),
  granted_scopes: Nullable(Type.Array(Type.String())),
  created_at: DateTime(),
  updated_at: DateTime(),
});

const AppCreated = Type.Object({
  app_id: Type.String(),
  api_key: Type.String({ description: 'sk_… shown once' }),
  app_secret: Type.String({ description: 'shown once: authenticates notifications and signs webhooks' }),
  app: AppView,
});

const AppKey = Type.Object({
  id: Type.String(),
  label: Type.String(),
  created_at: DateTime(),
  last_used_at: Nullable(DateTime()),
});
const AppKeyCreated = Type.Object({ ...AppKey.properties, secret: Type.String({ description: 'sk_… shown once' }) });
const Enablement = Type.Object({
  uid: Type.String(),
  app_id: Type.String(),
  enabled: Type.Boolean(),
  granted_scopes: Type.Optional(Type.Array(Type.String())),
});

/** The schema of a route on one app (or one of its keys), with the errors such a route answers. */
function onApp<P extends TSchema, R extends Record<number, TSchema>>(
  summary: string,
  params: P,
  ok: R,
  codes: number[],
) {
  return { tags, summary, params, response: { ...ok, ...errors(...codes) } };
}
const OWNER_ERRORS = [401, 403, 404, 422];
const noContent = { 204: Type.Null() };

const AppId = Type.Object({ app_id: Type.String({ minLength: 1, maxLength: 200 }) });
const KeyId = Type.Object({
  app_id: Type.String({ minLength: 1, maxLength: 200 }),
  key_id: Type.String({ minLength: 1, maxLength: 200 }),
});

export function registerAppRoutes(app: TypedApp, ctx: Services): void {
  const { auth } = ctx;
  const { apps } = ctx.integrations;
  const preHandler = auth.session();

  app.post(
    '/v1/apps',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Create an app (its first API key and its secret are shown once)',
        body: AppInput,
        response: { 200: AppCreated, ...errors(401, 422) },
      },
    },
    async (request) => apps.create(sessionUser(request), request.body),
  );

  app.get(
    '/v1/apps',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Apps you own and apps you enabled',
        response: { 200: Type.Array(AppView), ...errors(401) },
      },
    },
    async (request) => apps.list(sessionUser(request)),
  );

  app.get(
    '/v1/apps/:app_id',
    {
      preHandler,
      schema: { tags, summary: 'One app', params: AppId, response: { 200: AppView, ...errors(401, 404, 422) } },
    },
    async (request) => apps.get(sessionUser(request), request.params.app_id),
  );

  app.patch(
    '/v1/apps/:app_id',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Change your app (fields left out keep their value)',
        params: AppId,
        body: AppPatch,
        response: { 200: AppView, ...errors(401, 403, 404, 422) },
      },
    },
    async (request) => apps.update(sessionUser(request), request.params.app_id, request.body),
  );

  app.delete(
    '/v1/apps/:app_id',
    {
      preHandler,
      schema: onApp('Delete your app (every integration call then answers 404)', AppId, noContent, OWNER_ERRORS),
    },
    async (request, reply) => {
      await apps.delete(sessionUser(request), request.params.app_id);
      return reply.code(204).send(null);
    },
  );

  registerKeyRoutes(app, ctx);

  app.post(
    '/v1/apps/:app_id/enable',
    {
      preHandler,
      schema: onApp(
        'Enable an app for yourself (grants the proactive scopes it requests)',
        AppId,
        { 200: Enablement },
        [401, 404, 422],
      ),
    },
    async (request) => apps.enable(sessionUser(request), request.params.app_id),
  );

  app.post(
    '/v1/apps/:app_id/disable',
    {
      preHandler,
      schema: onApp(
        'Disable an app for yourself (its access ends at once)',
        AppId,
        { 200: Enablement },
        [401, 404, 422],
      ),
    },
    async (request) => apps.disable(sessionUser(request), request.params.app_id),
  );
}

function registerKeyRoutes(app: TypedApp, ctx: Services): void {
  const { apps } = ctx.integrations;
  const preHandler = ctx.auth.session();

  app.post(
    '/v1/apps/:app_id/keys',
    {
      preHandler,
      schema: onApp('Create an API key for your app (shown once)', AppId, { 200: AppKeyCreated }, OWNER_ERRORS),
    },
    async (request) => apps.createKey(sessionUser(request), request.params.app_id),
  );

  app.get(
    '/v1/apps/:app_id/keys',
    {
      preHandler,
      schema: onApp("Your app's API keys", AppId, { 200: Type.Array(AppKey) }, OWNER_ERRORS),
    },
    async (request) => apps.listKeys(sessionUser(request), request.params.app_id),
  );

  app.delete(
    '/v1/apps/:app_id/keys/:key_id',
    {
      preHandler,
      schema: onApp('Revoke an API key of your app (effective at once)', KeyId, noContent, OWNER_ERRORS),
    },
    async (request, reply) => {
      await apps.revokeKey(sessionUser(request), request.params.app_id, request.params.key_id);
      return reply.code(204).send(null);
    },
  );
}
