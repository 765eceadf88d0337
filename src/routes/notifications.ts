import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../context.js';
import { AppError, Detail } from '../errors.js';
import { sessionUser } from '../http/auth.js';
import { DateTime, errors, Limit, Nullable, Offset } from '../http/schemas.js';
import type { TypedApp } from '../http/typed-app.js';

const tags = ['Notifications'];

// Comment lines keep idle proxies from closing the stream and let the client notice a dead server.
const HEARTBEAT_MS = 15_000;

const Notification = Type.Object({
  id: Type.String(),
  app_id: Nullable(Type.String()),
  title: Type.String(),
  message: Type.String(),
  source: Type.String({ description: 'integration (the notification endpoint) or proactive' }),
  created_at: DateTime(),
});

export function registerNotificationRoutes(app: TypedApp, ctx: Services): void {
  const { notifications } = ctx.integrations;

  app.get(
    '/v1/notifications',
    {
      preHandler: ctx.auth.session(),
      schema: {
        tags,
        summary: 'Your notifications, newest first',
        querystring: Type.Object({ limit: Limit(25), offset: Offset }),
        response: { 200: Type.Array(Notification), ...errors(401, 422) },
      },
    },
    async (request) => notifications.list(sessionUser(request), request.query.limit, request.query.offset),
  );

  registerStream(app, ctx);
}

/** `GET /v1/notifications/stream`: Server-Sent Events, one `event: notification` per new notification. */
function registerStream(app: TypedApp, ctx: Services): void {
  const open = new Set<() => void>();
  const streams = ctx.connections.streams;
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });
  const session = ctx.auth.session();

  app.get(
    '/v1/notifications/stream',
    {
      // EventSource cannot send headers, so the session token may also come as `?token=`.
      preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { token } = request.query as { token?: string };
        if (token === undefined) return session(request, reply);
        const userId = await ctx.users.resolveSessionToken(token);
        if (!userId) throw new AppError(401, Detail.invalidToken);
        request.session = { kind: 'session', userId };
      },
      schema: {
        tags,
        summary: 'Live notifications (text/event-stream)',
        description: `Frames: \`event: notification\` with the notification as JSON data; a comment line every ${HEARTBEAT_MS / 1000} s.`,
        querystring: Type.Object({ token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })) }),
        response: { 200: Type.String({ description: 'text/event-stream' }), ...errors(401, 422, 429) },
      },
    },
    async (request, reply) => {
      const userId = sessionUser(request);
      const release = await streams.acquire(userId);
      if (!release) throw new AppError(429, Detail.tooManyStreams(streams.limit));
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      // Announced only once the subscription is live, so a notification sent on any node right after
      // `: connected` is never missed.
      const unsubscribe = await ctx.integrations.notifications
        .subscribe(userId, (notification) => raw.write(notificationFrame(notification)))
        .catch((err: unknown) => {
          release();
          raw.destroy();
          throw err;
        });
      raw.write('retry: 5000\n: connected\n\n');
      const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      const end = () => {
        clearInterval(heartbeat);
        release();
        unsubscribe();
        open.delete(end);
        if (!raw.writableEnded) raw.end();
      };
      open.add(end);
      request.raw.on('close', end);
      if (request.raw.destroyed) end();
    },
  );
}

function notificationFrame(notification: Record<string, unknown>): string {
  return `id: ${String(notification.id)}\nevent: notification\ndata: ${JSON.stringify(notification)}\n\n`;
}
