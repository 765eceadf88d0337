import type { FastifyRequest } from 'fastify';
import type WebSocket from 'ws';
import type { Services } from '../../context.js';
import { Detail } from '../../errors.js';
import { parseBearer } from '../../http/auth.js';
import type { TypedApp } from '../../http/typed-app.js';
import { type ListenParams, parseListenParams } from '../../listen/params.js';
import { ListenSession } from '../../listen/session.js';
import type { ConnectionSlots } from '../../providers/limits/connection-slots.js';

const DESCRIPTION =
  'WebSocket. Binary frames: PCM audio (320 zero bytes = silence keepalive). Text frames in: JSON control messages ' +
  '(suggested_transcript, speaker_assigned). Text frames out: transcript arrays, `ping` every 10 s, typed events ' +
  '(conversation_session, service_status, memory_processing_started, memory_created, notification). Query: language, ' +
  'sample_rate, codec (pcm16/linear16, pcm8, opus, aac, lc3_fs1030), channels, conversation_timeout (≥ 120 s), ' +
  "client_conversation_id (UUID), custom_stt=enabled, source; uid is ignored (the user is the token's). " +
  'Malformed value or unknown language: close 1008; bad codec or rate: 1003; decoder not installed: 1001; auth, or more open sockets than MAX_LISTEN_SOCKETS_PER_USER: 1008. ' +
  'See docs/listen.md.';

/** `/v4/listen` and `/v4/web/listen` (SPEC §4.11): admission here, the stream in src/listen/. */
export function registerListenRoutes(app: TypedApp, ctx: Services): void {
  app.addHook('preClose', () => ctx.listen.drain());
  // One count over both paths: a user's devices and browser tabs share the cap.
  const sockets = ctx.connections.listen;

  app.get(
    '/listen',
    {
      websocket: true,
      schema: {
        tags: ['Listen'],
        summary: 'Live audio stream (Authorization: Bearer session token)',
        description: DESCRIPTION,
      },
    },
    (socket, request) => {
      const early = buffer(socket);
      void admitNative(ctx, socket, request).then(async (userId) => {
        if (!userId) return;
        const params = admission(ctx, socket, request, {});
        if (params && (await holdSlot(sockets, socket, userId))) void start(ctx, socket, userId, params, early.stop());
      });
    },
  );

  app.get(
    '/web/listen',
    {
      websocket: true,
      schema: {
        tags: ['Listen'],
        summary: 'Live audio stream for browsers (first message authenticates)',
        description: DESCRIPTION,
      },
    },
    (socket, request) => {
      void admitWeb(ctx, socket).then(async (auth) => {
        if (!auth) return;
        const params = admission(ctx, socket, request, {
          platform: 'web',
          deviceIdHash: auth.deviceIdHash,
        });
        if (params && (await holdSlot(sockets, socket, auth.userId)))
          void start(ctx, socket, auth.userId, params, auth.early.stop());
      });
    },
  );
}

/** research/omi-listen.md §1.2: close 1008 on missing or invalid credentials. */
export async function admitNative(ctx: Services, socket: WebSocket, request: FastifyRequest): Promise<string | null> {
  const header = request.headers.authorization;
  if (!header) return reject(socket, 'Authorization header not found');
  const token = parseBearer(header);
  if (!token) return reject(socket, 'Invalid authorization token');
  const userId = await ctx.users.resolveSessionToken(token).catch(() => null);
  return userId ?? reject(socket, 'Invalid authorization token');
}

function admission(
  ctx: Services,
  socket: WebSocket,
  request: FastifyRequest,
  overrides: Partial<ListenParams>,
): ListenParams | null {
  const query = request.query as Record<string, string | undefined>;
  const parsed = parseListenParams(query, request.headers, ctx.config.listen, (codec) =>
    ctx.listen.codecUnavailable(codec),
  );
  if (!parsed.ok) {
    socket.close(parsed.code, parsed.reason);
    return null;
  }
  return { ...parsed.params, ...overrides };
}

async function start(
  ctx: Services,
  socket: WebSocket,
  userId: string,
  params: ListenParams,
  early: Array<[Buffer, boolean]>,
): Promise<void> {
  if (socket.readyState !== socket.OPEN) return;
  const session = new ListenSession(socket, userId, params, ctx.listen);
  session.preload(early);
  await session.start();
}

/** research/omi-listen.md §1.2 web flow: the first text frame is `{"type":"auth","token":…}` within 5 s. */
async function admitWeb(
  ctx: Services,
  socket: WebSocket,
): Promise<{ userId: string; deviceIdHash: string | null; early: EarlyFrames } | null> {
  const early = buffer(socket);
  const first = await early.first(ctx.config.listen.webAuthTimeoutMs);
  if (!first) return reject(socket, 'Auth timeout');
  const [data, isBinary] = first;
  if (isBinary) return reject(socket, 'Expected JSON auth message');
  let message: unknown;
  try {
    message = JSON.parse(data.toString('utf8'));
  } catch {
    return reject(socket, 'Invalid JSON');
  }
  const fields = typeof message === 'object' && message !== null ? (message as Record<string, unknown>) : {};
  if (fields.type !== 'auth') return reject(socket, 'First message must be auth');
  if (typeof fields.token !== 'string' || fields.token === '') return reject(socket, 'Missing token');
  const userId = await ctx.users.resolveSessionToken(fields.token).catch(() => null);
  if (!userId) {
    socket.send(JSON.stringify({ type: 'auth_response', success: false }));
    return reject(socket, 'Invalid token');
  }
  socket.send(JSON.stringify({ type: 'auth_response', success: true }));
  const deviceIdHash =
    typeof fields.device_id_hash === 'string' ? fields.device_id_hash.trim().toLowerCase().slice(0, 128) || null : null;
  // Frames keep being held until the session takes over (after the slot check, which may wait on Redis).
  return { userId, deviceIdHash, early };
}

/**
 * Takes one of the user's live-connection slots for as long as the socket is open; past the cap the
 * socket is closed with 1008, as the reference closes a per-uid refusal (research/omi-listen.md §1.2).
 */
async function holdSlot(sockets: ConnectionSlots, socket: WebSocket, userId: string): Promise<boolean> {
  const release = await sockets.acquire(userId);
  if (!release) {
    reject(socket, Detail.tooManyListenSockets(sockets.limit));
    return false;
  }
  socket.once('close', release);
  if (socket.readyState === socket.CLOSED) release();
  return true;
}

function reject(socket: WebSocket, reason: string): null {
  socket.close(1008, reason);
  return null;
}

type EarlyFrames = ReturnType<typeof buffer>;

/** Holds frames that arrive while admission is still running, so none is lost. */
export function buffer(socket: WebSocket) {
  const frames: Array<[Buffer, boolean]> = [];
  let waiter: ((frame: [Buffer, boolean] | null) => void) | null = null;
  const onMessage = (data: Buffer, isBinary: boolean) => {
    if (waiter) {
      const resolve = waiter;
      waiter = null;
      resolve([data, isBinary]);
    } else {
      frames.push([data, isBinary]);
    }
  };
  const onClose = () => waiter?.(null);
  socket.on('message', onMessage);
  socket.on('close', onClose);
  return {
    first(timeoutMs: number): Promise<[Buffer, boolean] | null> {
      const queued = frames.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiter = null;
          resolve(null);
        }, timeoutMs);
        waiter = (frame) => {
          clearTimeout(timer);
          resolve(frame);
        };
      });
    },
    stop(): Array<[Buffer, boolean]> {
      socket.off('message', onMessage);
      socket.off('close', onClose);
      return frames.splice(0);
    },
  };
}
