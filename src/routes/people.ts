import { Type } from 'typebox';
import { bufferToSamples } from '../audio/pcm.js';
import { WavError, wavTo16kMono } from '../audio/wav.js';
import type { Services } from '../context.js';
import { Detail, invalidInput } from '../errors.js';
import { sessionUser } from '../http/auth.js';
import { DateTime, errors, NullableScalar, SuccessResponse } from '../http/schemas.js';
import type { TypedApp } from '../http/typed-app.js';

const tags = ['People and voices'];

const Person = Type.Object({
  id: Type.String(),
  name: Type.String(),
  created_at: DateTime(),
  updated_at: DateTime(),
  voice_vectors: Type.Integer({ description: 'stored voice embeddings the live matcher compares with' }),
});

const PersonParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });
const NameBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });

const VoiceProfile = Type.Object({
  has_profile: Type.Boolean(),
  engine: Type.String({ description: 'spectral-v1 (built in) or sherpa:<model file> (SPEAKER_MODEL)' }),
  vectors: Type.Integer(),
  speech_seconds: Type.Number(),
  updated_at: NullableScalar(DateTime()),
});

/** Raw audio bodies of the voice-profile upload: a WAV file, or 16 kHz mono PCM16. */
const AUDIO_TYPES = ['audio/wav', 'audio/x-wav', 'audio/wave', 'application/octet-stream'];
const PROFILE_BODY_LIMIT = 10 * 1024 * 1024;

/** People (known speakers) and the user's voice profile (SPEC §6.1), with a session token. */
export function registerPeopleRoutes(app: TypedApp, ctx: Services): void {
  const preHandler = ctx.auth.session();
  const people = ctx.people;

  app.get(
    '/v1/people',
    {
      preHandler,
      schema: { tags, summary: 'Your people, by name', response: { 200: Type.Array(Person), ...errors(401) } },
    },
    async (request) => people.listWithVoices(sessionUser(request)),
  );

  app.post(
    '/v1/people',
    {
      preHandler,
      schema: { tags, summary: 'Add a person', body: NameBody, response: { 200: Person, ...errors(401, 422) } },
    },
    async (request) => {
      const userId = sessionUser(request);
      const created = await people.create(userId, request.body.name);
      return people.get(userId, created.id);
    },
  );

  app.patch(
    '/v1/people/:id',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Rename a person',
        params: PersonParams,
        body: NameBody,
        response: { 200: Person, ...errors(401, 404, 422) },
      },
    },
    async (request) => {
      const userId = sessionUser(request);
      await people.rename(userId, request.params.id, request.body.name);
      return people.get(userId, request.params.id);
    },
  );

  app.delete(
    '/v1/people/:id',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Delete a person with their voice; their transcript segments keep the text but lose the link',
        params: PersonParams,
        response: { 200: SuccessResponse, ...errors(401, 404, 422) },
      },
    },
    async (request) => {
      await people.delete(sessionUser(request), request.params.id);
      return { success: true };
    },
  );

  registerVoiceProfileRoutes(app, ctx);
}

function registerVoiceProfileRoutes(app: TypedApp, ctx: Services): void {
  const preHandler = ctx.auth.session();
  const voices = ctx.voice.service;

  app.get(
    '/v1/users/me/voice-profile',
    { preHandler, schema: { tags, summary: 'Your voice profile', response: { 200: VoiceProfile, ...errors(401) } } },
    async (request) => voices.profile(sessionUser(request)),
  );

  app.delete(
    '/v1/users/me/voice-profile',
    {
      preHandler,
      schema: { tags, summary: 'Delete your voice profile', response: { 200: SuccessResponse, ...errors(401, 404) } },
    },
    async (request) => {
      await voices.deleteProfile(sessionUser(request));
      return { success: true };
    },
  );

  // The upload takes a binary body, so its parsers live in their own encapsulated scope.
  app.register(async (scope) => {
    scope.addContentTypeParser(AUDIO_TYPES, { parseAs: 'buffer', bodyLimit: PROFILE_BODY_LIMIT }, (_r, body, done) =>
      done(null, body),
    );
    scope.post(
      '/v1/users/me/voice-profile',
      {
        preHandler,
        bodyLimit: PROFILE_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Set your voice profile from a recording of you speaking',
          description:
            'Body: a 16-bit PCM WAV file (Content-Type audio/wav; any rate, mono or stereo) or raw 16 kHz mono PCM16 ' +
            '(application/octet-stream), at least 2 s of speech, at most 10 MiB. Replaces the previous profile.',
          response: { 200: VoiceProfile, ...errors(401, 413, 415, 422) },
        },
      },
      async (request) => {
        const body = request.body;
        if (!Buffer.isBuffer(body))
          throw invalidInput(['body'], Detail.voiceAudioInvalid('send audio/wav or PCM16 bytes'));
        return voices.setProfile(sessionUser(request), readAudio(body, request.headers['content-type'] ?? ''));
      },
    );
  });
}

function readAudio(body: Buffer, contentType: string): Int16Array {
  if (!contentType.startsWith('application/octet-stream')) {
    try {
      return wavTo16kMono(body);
    } catch (err) {
      if (err instanceof WavError) throw invalidInput(['body'], Detail.voiceAudioInvalid(err.message));
      throw err;
    }
  }
  return bufferToSamples(body);
}
