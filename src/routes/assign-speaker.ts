import { Type } from 'typebox';
import type { Services } from '../context.js';
import { sessionUser } from '../http/auth.js';
import { errors } from '../http/schemas.js';
import type { TypedApp } from '../http/typed-app.js';

const Body = Type.Object({
  segment_id: Type.String({ minLength: 1, maxLength: 128 }),
  person_id: Type.String({ minLength: 1, maxLength: 128, description: 'one of your people, or `user` for yourself' }),
});

const Result = Type.Object({
  segment_id: Type.String(),
  person_id: Type.String(),
  sample_id: Type.String({ description: 'the queued speaker sample (processed once it is 120 s old)' }),
});

/** SPEC §4.11: `POST /assign_speaker` labels a segment with a person and queues a speaker sample. */
export function registerAssignSpeakerRoutes(app: TypedApp, ctx: Services): void {
  app.post(
    '/assign_speaker',
    {
      preHandler: ctx.auth.session(),
      schema: {
        tags: ['People and voices'],
        summary: 'Assign a speaker to a transcript segment',
        description:
          'Sets the segment’s person (or marks it as yours with person_id `user`) and queues a speaker sample: ' +
          'after at least 120 s (the queue is polled every 15 s) its audio becomes one of that voice’s embeddings, ' +
          'so the next session can match it (SPEC §6.1). The audio comes from the live session when it still holds ' +
          'it, otherwise from the conversation’s captured audio.',
        body: Body,
        response: { 200: Result, ...errors(401, 404, 422) },
      },
    },
    async (request) => ctx.voice.service.assign(sessionUser(request), request.body.segment_id, request.body.person_id),
  );
}
