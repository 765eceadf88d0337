import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppContext, Services } from './context.js';
import { AppError } from './errors.js';
import { authenticateFirst, hookList, type RouteHooks } from './http/auth.js';
import { frameworkErrors, MAX_PARAM_LENGTH, registerErrorHandling } from './http/errors.js';
import { jsonDeeperThan, MAX_JSON_DEPTH, rejectUnstorableText } from './http/input-guards.js';
import { serializersCompiledOnFirstUse } from './http/serialization.js';
import type { TypedApp } from './http/typed-app.js';
import { booleanQueryNormalizer, validatorCompiler } from './http/validation.js';
import { registerAppRoutes } from './routes/apps.js';
import { registerAssignSpeakerRoutes } from './routes/assign-speaker.js';
import { registerDevActionItemRoutes } from './routes/dev/action-items.js';
import { registerDevAskRoutes } from './routes/dev/ask.js';
import { registerDevConversationRoutes } from './routes/dev/conversations.js';
import { registerDevExportRoutes } from './routes/dev/export.js';
import { registerDevFolderRoutes } from './routes/dev/folders.js';
import { registerDevGoalRoutes } from './routes/dev/goals.js';
import { registerDevKeyRoutes } from './routes/dev/keys.js';
import { registerDevMemoryRoutes } from './routes/dev/memories.js';
import { registerDevSearchRoutes } from './routes/dev/search.js';
import { registerIntegrationImportRoutes } from './routes/integrations/imports.js';
import {
  registerIntegrationNotificationRoutes,
  registerIntegrationNotificationV1Routes,
} from './routes/integrations/notification.js';
import { registerIntegrationReadRoutes } from './routes/integrations/reads.js';
import { registerIntegrationSearchTaskRoutes } from './routes/integrations/search-tasks.js';
import { registerListenRoutes } from './routes/listen/listen.js';
import { registerVoiceStreamRoutes } from './routes/listen/voice-stream.js';
import { registerNotificationRoutes } from './routes/notifications.js';
import { registerOpsRoutes } from './routes/ops.js';
import { registerPeopleRoutes } from './routes/people.js';
import { registerSyncAudioRoutes } from './routes/sync-audio.js';
import { registerSystemRoutes } from './routes/system.js';
import { registerWebRoutes } from './routes/web/index.js';

type Registrar = (app: TypedApp, ctx: Services) => void | Promise<void>;

/**
 * The surfaces in registration order (the OpenAPI document lists paths in this order). The developer,
 * integration and listen APIs are Fastify scopes under their prefix; the rest sit at the root, where
 * their hooks (request timing, the web app's cross-site guard) cover every route.
 */
export const surfaces: Array<{ prefix: string; registrars: Registrar[] }> = [
  // The ops routes come before the APIs: their onResponse hook times every request.
  { prefix: '', registrars: [registerSystemRoutes, registerOpsRoutes] },
  {
    prefix: '/v1/dev',
    registrars: [
      registerDevKeyRoutes,
      registerDevConversationRoutes,
      registerDevMemoryRoutes,
      registerDevActionItemRoutes,
      registerDevFolderRoutes,
      registerDevGoalRoutes,
      registerDevSearchRoutes,
      registerDevAskRoutes,
      registerDevExportRoutes,
    ],
  },
  { prefix: '/v4', registrars: [registerListenRoutes] },
  { prefix: '', registrars: [registerAppRoutes] },
  {
    prefix: '/v2/integrations',
    registrars: [
      registerIntegrationImportRoutes,
      registerIntegrationReadRoutes,
      registerIntegrationSearchTaskRoutes,
      registerIntegrationNotificationRoutes,
    ],
  },
  {
    prefix: '',
    registrars: [
      registerIntegrationNotificationV1Routes,
      registerNotificationRoutes,
      registerPeopleRoutes,
      registerAssignSpeakerRoutes,
      registerSyncAudioRoutes,
      registerVoiceStreamRoutes,
      registerWebRoutes,
    ],
  },
];

/** Registers one surface: a prefixed scope, or the root itself. */
async function registerSurface(app: TypedApp, ctx: Services, surface: (typeof surfaces)[number]): Promise<void> {
  if (surface.prefix === '') {
    for (const register of surface.registrars) await register(app, ctx);
    return;
  }
  await app.register(
    async (scope: TypedApp) => {
      for (const register of surface.registrars) await register(scope, ctx);
    },
    { prefix: surface.prefix },
  );
}

export async function buildApp(ctx: AppContext): Promise<TypedApp> {
  const app = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    bodyLimit: ctx.config.bodyLimit,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    schemaController: serializersCompiledOnFirstUse(),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app);
  registerStrictJsonParser(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Keepsake API',
        version: '1.0.0',
        description:
          'Self-hostable memory backend for AI wearables: the developer API (/v1/dev), the integration API (/v2/integrations), notifications and the live listen stream (/v4/listen). Wire-compatible with the Omi service.',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'Developer key (omi_dev_…), app key (sk_…) or session token',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    // Shared schemas are named by their $id (DeveloperConversation, …), so generated clients get
    // those type names instead of def-0, def-1, ….
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    // A body schema that accepts null (e.g. goal progress, whose value may come in the query) makes the
    // body optional; the plugin marks every request body required. A query parameter with a default
    // (limit, offset, wait, …) is filled in by validation, so the caller may leave it out: the plugin
    // marks it required because the schema lists it so that validation always fills it.
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      const { openapiObject } = document;
      for (const operations of Object.values(openapiObject.paths ?? {}))
        for (const operation of Object.values(operations ?? {})) {
          const { requestBody: body, parameters } = operation as {
            requestBody?: { required?: boolean; content?: Record<string, unknown> };
            parameters?: Array<{ required?: boolean; schema?: { default?: unknown } }>;
          };
          const schema = body?.content?.['application/json'] as { schema?: { nullable?: boolean } } | undefined;
          if (body && schema?.schema?.nullable) body.required = false;
          for (const parameter of parameters ?? [])
            if (parameter.required && parameter.schema?.default !== undefined) parameter.required = false;
        }
      return openapiObject;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  // request.cookies and reply.setCookie for the web app's session and sealed cookies (routes/web/).
  await app.register(cookie);
  // The live listen stream (SPEC §4.11); 1 MiB bounds one audio or control frame.
  await app.register(websocket, {
    options: { maxPayload: 1024 * 1024 },
    // On close, live sessions drain first and close with 1001 so clients reconnect to another node
    // (docs/deployment.md); the plugin's default would end them without a close code (1005).
    preClose: async () => {
      await ctx.listen.drain();
      for (const client of app.websocketServer.clients) client.close(1001, 'server shutting down');
      app.websocketServer.close();
    },
  });

  // Per-route hooks, wired once as each route is registered (so routes that need none pay nothing).
  const cacheLookup = (request: FastifyRequest, reply: FastifyReply) => ctx.responseCache.lookup(request, reply);
  app.addHook('onRoute', (route) => {
    const hooks = route as RouteHooks;
    // Authentication (with its rate limits) before validation; see authenticateFirst.
    authenticateFirst(hooks);
    // Ahead of authentication, so the rate limits see the same flags validation will.
    const booleans = booleanQueryNormalizer(route.schema?.querystring);
    if (booleans) hooks.preValidation = [booleans, ...hookList(hooks.preValidation)];
    // First of all: a credential check may already look up a path parameter (the integration key gate
    // reads app_id), so text no database can store is a 422 before any query, as malformed JSON is.
    hooks.preValidation = [rejectUnstorableText, ...hookList(hooks.preValidation)];
    // After validation and the rate limits: the cache key is the validated query, and a cached answer
    // costs the caller the same quota as a fresh one.
    if (route.config?.cache) hooks.preHandler = [cacheLookup, ...hookList(hooks.preHandler)];
    ctx.idempotency.attach(route);
  });
  // A callback hook, not an async one: it runs on every response and has nothing to wait for.
  app.addHook('onSend', (request, reply, payload, done) => {
    done(null, request.cacheSlot ? ctx.responseCache.store(request, reply, payload) : payload);
  });
  for (const surface of surfaces) await registerSurface(app, ctx, surface);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}

const UNSAFE_KEYS = /__proto__|constructor/;
const dropUnsafeKeys = (key: string, value: unknown) =>
  key === '__proto__' || key === 'constructor' ? undefined : value;

/**
 * JSON.parse without `__proto__` and `constructor` keys at any depth, so no later merge of the body can
 * reach a prototype. A reviver makes parsing several times slower; only a text that mentions the keys
 * needs one.
 */
export function parseJsonBody(text: string): unknown {
  return UNSAFE_KEYS.test(text) ? JSON.parse(text, dropUnsafeKeys) : JSON.parse(text);
}

/** JSON bodies must be valid UTF-8 and valid JSON; both failures are 422s in the FastAPI shape. */
function registerStrictJsonParser(app: TypedApp): void {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parse = (_request: unknown, body: Buffer, done: (err: Error | null, body?: unknown) => void) => {
    let text: string;
    try {
      text = decoder.decode(body);
    } catch {
      done(
        new AppError(422, [{ loc: ['body'], msg: 'Request body is not valid UTF-8', type: 'unicode_decode' }]),
        undefined,
      );
      return;
    }
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonDeeperThan(text, MAX_JSON_DEPTH)) {
      const msg = `JSON nests deeper than ${MAX_JSON_DEPTH} levels`;
      done(new AppError(422, [{ loc: ['body'], msg, type: 'json_too_deep' }]), undefined);
      return;
    }
    try {
      done(null, parseJsonBody(text));
    } catch (err) {
      const msg = err instanceof Error ? err.message : 'invalid JSON';
      done(new AppError(422, [{ loc: ['body'], msg: `JSON decode error: ${msg}`, type: 'json_invalid' }]), undefined);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parse);
  // Fastify reads text/plain as a string by default; a JSON API answers it as any other media type (415).
  app.removeContentTypeParser('text/plain');
  // Structured-syntax JSON types (RFC 6839: application/vnd.api+json, application/merge-patch+json, …).
  app.addContentTypeParser(/^application\/[\w.!#$&^-]+\+json\s*(;|$)/i, { parseAs: 'buffer' }, parse);
}
