import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { parseRange } from '../audio/files.js';
import { S3Error } from '../audio/s3.js';
import type { Services } from '../context.js';
import { AppError, Detail } from '../errors.js';
import { sessionUser } from '../http/auth.js';
import { DateTime, errors, NullableScalar } from '../http/schemas.js';
import type { TypedApp } from '../http/typed-app.js';

const tags = ['Audio'];

const Span = Type.Object({
  file_id: Type.String(),
  wall_offset: Type.Number(),
  artifact_offset: Type.Number(),
  len: Type.Number(),
});

const AudioFile = Type.Object({
  id: Type.String(),
  status: Type.String({ description: 'cached' }),
  signed_url: Type.String(),
  url: Type.String({ description: 'same as signed_url' }),
  content_type: Type.String(),
  duration: Type.Number({ description: 'seconds' }),
  started_at: DateTime(),
});

const ConversationAudio = Type.Object({
  status: Type.String({ description: 'cached | pending | unavailable' }),
  signed_url: NullableScalar(Type.String()),
  url: NullableScalar(Type.String()),
  content_type: NullableScalar(Type.String()),
  duration: NullableScalar(Type.Number({ description: 'seconds of the MP3 (audio plus filled gaps)' })),
  captured_duration: NullableScalar(Type.Number({ description: 'seconds of captured audio' })),
  wall_duration: NullableScalar(Type.Number({ description: 'first start to last end, seconds' })),
  fingerprint: Type.String(),
  spans: Type.Array(Span),
  expires_at: NullableScalar(DateTime()),
});

const UrlsResponse = Type.Object({
  audio_files: Type.Array(AudioFile),
  conversation_audio: Type.Union([ConversationAudio, Type.Null()]),
  poll_after_ms: NullableScalar(Type.Integer()),
});

const Settings = Type.Object({ audio_capture: Type.Boolean() });
// Keys other than the declared settings are dropped, as every body's unknown keys are (docs/developer-api.md).
const SettingsPatch = Type.Object({ audio_capture: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

const FileParams = Type.Object({
  conversation_id: Type.String({ minLength: 1, maxLength: 128 }),
  file: Type.String({ minLength: 1, maxLength: 128 }),
});
const FileQuery = Type.Object({
  uid: Type.String({ minLength: 1, maxLength: 128 }),
  expires: Type.Integer({ minimum: 0 }),
  signature: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});

/** The public base of the links: PUBLIC_URL, else what the client called. */
function baseUrl(ctx: Services, request: FastifyRequest): string {
  return (ctx.config.publicUrl ?? `${request.protocol}://${request.headers.host ?? 'localhost'}`).replace(/\/+$/, '');
}

/** An audio bucket that is down or refusing is a 503 with the contract's error shape (the log has why). */
async function storeCall<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof S3Error)) throw err;
    request.log.error({ err }, 'audio store call failed');
    throw new AppError(503, Detail.audioStoreUnavailable, { 'retry-after': '30' });
  }
}

/** SPEC §4.11 `/v1/sync/audio/{id}/urls`, the signed files it links to, and the audio-capture setting. */
export function registerSyncAudioRoutes(app: TypedApp, ctx: Services): void {
  const preHandler = ctx.auth.session();
  const audio = ctx.audio.service;

  app.get(
    '/v1/sync/audio/:conversation_id/urls',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Signed URLs of a conversation’s audio: the MP3 artifact and the 60 s parts',
        description:
          'conversation_audio is the single MP3 (gaps under 90 s filled with silence, longer gaps collapsed); while it ' +
          'is being (re)built its status is pending and poll_after_ms says when to ask again. URLs expire after 60 min.',
        params: Type.Object({ conversation_id: Type.String({ minLength: 1, maxLength: 128 }) }),
        response: { 200: UrlsResponse, ...errors(401, 404, 422, 503) },
      },
    },
    async (request) =>
      storeCall(request, () => audio.urls(sessionUser(request), request.params.conversation_id, baseUrl(ctx, request))),
  );

  app.get(
    '/v1/sync/audio/:conversation_id/files/:file',
    {
      schema: {
        tags,
        summary: 'Download an audio file through its signed URL (Range supported)',
        security: [],
        params: FileParams,
        querystring: FileQuery,
        response: errors(403, 404, 416, 422, 503),
      },
    },
    async (request, reply) => {
      const { params, query } = request;
      const file = await storeCall(request, () => ctx.audio.files.open(params.conversation_id, params.file, query));
      const range = parseRange(request.headers.range, file.size);
      if (range === 'unsatisfiable')
        throw new AppError(416, Detail.rangeNotSatisfiable, { 'content-range': `bytes */${file.size}` });
      reply.header('accept-ranges', 'bytes').header('cache-control', 'private, max-age=3600').type(file.contentType);
      const { start, end } = range ?? { start: 0, end: file.size - 1 };
      if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${file.size}`);
      reply.header('content-length', String(end - start + 1));
      return reply.send(await storeCall(request, () => file.read(start, end)));
    },
  );

  app.get(
    '/v1/users/me/settings',
    { preHandler, schema: { tags, summary: 'Your settings', response: { 200: Settings, ...errors(401) } } },
    async (request) => audio.settings(sessionUser(request)),
  );

  app.patch(
    '/v1/users/me/settings',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Change your settings (audio_capture: store live-stream audio; off by default)',
        body: SettingsPatch,
        response: { 200: Settings, ...errors(401, 422) },
      },
    },
    async (request) => audio.updateSettings(sessionUser(request), request.body),
  );
}
