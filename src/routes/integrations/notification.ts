import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { errors } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { AppParams, credential, Uid } from './common.js';

export function registerIntegrationNotificationRoutes(app: TypedApp, ctx: Services): void {
  const { appNotifications } = ctx.integrations;

  app.post(
    '/:app_id/notification',
    {
      schema: {
        tags: ['Integration', 'Notifications'],
        summary: 'Send the user a notification with this exact text',
        description:
          'Authenticated with the app secret (or one of its API keys). Both values are query parameters; send no body. ' +
          'At most 10 per user per app per UTC hour (X-RateLimit-* headers; 429 with Retry-After). ' +
          'The notification is stored, streamed live and forwarded to the push gateway.',
        params: AppParams,
        querystring: Type.Object({ uid: Uid, message: Type.String({ minLength: 1, maxLength: 4000 }) }),
        response: { 200: Type.Object({ status: Type.String() }), ...errors(401, 404, 422, 429, 500) },
      },
    },
    async (request, reply) => {
      const { uid, message } = request.query;
      const sent = await appNotifications.send(request.params.app_id, uid, message, credential(request));
      return reply.headers(sent.headers).send({ status: sent.status });
    },
  );
}
