import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { AppError, Detail } from '../../errors.js';
import { errors } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { AppParams, credential, Uid } from './common.js';

const Message = Type.String({ minLength: 1, maxLength: 4000 });
const Sent = Type.Object({ status: Type.String() });
const description =
  'Authenticated with the app secret (or one of its API keys). ' +
  'At most 10 per user per app per UTC hour, counted over both notification routes (X-RateLimit-* headers; ' +
  '429 with Retry-After). The notification is stored, streamed live and forwarded to the push gateway.';

/** Both routes: the app's credential from the bearer, then the shared service (gates, limit, delivery). */
const sender = (ctx: Services) => (appId: string, uid: string, message: string, request: FastifyRequest) =>
  ctx.integrations.appNotifications.send(appId, uid, message, credential(request));

export function registerIntegrationNotificationRoutes(app: TypedApp, ctx: Services): void {
  const send = sender(ctx);

  app.post(
    '/:app_id/notification',
    {
      schema: {
        tags: ['Integration', 'Notifications'],
        summary: 'Send the user a notification with this exact text',
        description: `${description} Both values are query parameters; send no body.`,
        params: AppParams,
        querystring: Type.Object({ uid: Uid, message: Message }),
        response: { 200: Sent, ...errors(401, 404, 422, 429, 500) },
      },
    },
    async (request, reply) => {
      const { uid, message } = request.query;
      return reply.headers((await send(request.params.app_id, uid, message, request)).headers).send({ status: 'Ok' });
    },
  );
}

/** The older notification route (root prefix): the app and user travel in the JSON body. */
export function registerIntegrationNotificationV1Routes(app: TypedApp, ctx: Services): void {
  const send = sender(ctx);

  app.post(
    '/v1/integrations/notification',
    {
      schema: {
        tags: ['Integration', 'Notifications'],
        summary: 'Send the user a notification with this exact text (app and user in the body)',
        description: `${description} Same as POST /v2/integrations/{app_id}/notification with \`aid\` as the app id.`,
        body: Type.Object({
          aid: Type.Optional(AppParams.properties.app_id),
          uid: Type.Optional(Uid),
          message: Message,
        }),
        response: { 200: Sent, ...errors(400, 401, 404, 422, 429, 500) },
      },
    },
    async (request, reply) => {
      const { aid, uid, message } = request.body;
      // The reference checks the body's ids first, with these 400 texts.
      if (!aid) throw new AppError(400, Detail.notificationAppIdMissing);
      if (!uid) throw new AppError(400, Detail.notificationUidMissing);
      return reply.headers((await send(aid, uid, message, request)).headers).send({ status: 'Ok' });
    },
  );
}
