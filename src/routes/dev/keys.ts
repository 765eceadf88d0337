import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { DEV_SCOPES } from '../../domain/keys/dev-keys.js';
import { AppError, Detail } from '../../errors.js';
import { sessionUser } from '../../http/auth.js';
import { enforceRateLimits } from '../../http/rate-limit.js';
import { DateTime, errors, Nullable } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';

const tags = ['API Keys'];

const DevApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  key_prefix: Type.String(),
  created_at: DateTime(),
  last_used_at: Nullable(DateTime()),
  scopes: Nullable(Type.Array(Type.String())),
});

const DevApiKeyCreated = Type.Object({ ...DevApiKey.properties, key: Type.String({ description: 'shown once' }) });

export function registerDevKeyRoutes(app: TypedApp, ctx: Services): void {
  const { auth, keys } = ctx;

  app.get(
    '/keys',
    {
      preHandler: auth.session(),
      schema: {
        tags,
        summary: "List the user's developer API keys",
        response: { 200: Type.Array(DevApiKey), ...errors(401) },
      },
    },
    async (request) => keys.list(sessionUser(request)),
  );

  app.post(
    '/keys',
    {
      preHandler: auth.session(),
      schema: {
        tags,
        summary: 'Create a developer API key (the key is shown once)',
        description: `Scopes: ${DEV_SCOPES.join(', ')}. Omitted or null: the read-only default.`,
        body: Type.Object({
          name: Type.String({ maxLength: 200 }),
          scopes: Type.Optional(Nullable(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 16 }))),
        }),
        response: { 200: DevApiKeyCreated, ...errors(400, 401, 422) },
      },
    },
    async (request) => keys.create(sessionUser(request), request.body.name, request.body.scopes),
  );

  app.delete(
    '/keys/:key_id',
    {
      preHandler: auth.session(),
      schema: {
        tags,
        summary: 'Revoke a developer API key (404 for an id that is not one of your keys)',
        params: Type.Object({ key_id: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 204: Type.Null(), ...errors(401, 404, 422) },
      },
    },
    async (request, reply) => {
      await keys.revoke(sessionUser(request), request.params.key_id);
      return reply.code(204).send(null);
    },
  );

  // The calling key's own metadata: any valid key may read it, whatever its scopes.
  app.get(
    '/key',
    {
      config: { rateLimit: { policy: 'dev:key_read' } },
      schema: {
        tags,
        summary: "The calling developer key's own metadata",
        response: { 200: DevApiKey, ...errors(401, 429) },
      },
    },
    async (request, reply) => {
      const principal = await auth.anyDevKey(request);
      await enforceRateLimits(ctx.rateLimits, request, reply);
      const view = await keys.get(principal.userId, principal.keyId);
      if (!view) throw new AppError(401, Detail.invalidApiKey);
      return view;
    },
  );
}
