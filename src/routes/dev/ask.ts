import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { devUser } from '../../http/auth.js';
import { errors } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';

// The reference's DeveloperAskRequest / DeveloperAskResponse (docs/developer-api.md, "Ask").
const AskRequest = Type.Object({
  question: Type.String({
    minLength: 1,
    maxLength: 1000,
    description: "A natural-language question about the user's life/conversations",
  }),
  limit: Type.Integer({
    minimum: 1,
    maximum: 10,
    default: 5,
    description: 'How many of the most relevant conversations to ground the answer on',
  }),
  timezone: Type.String({
    default: 'UTC',
    maxLength: 100,
    description: 'IANA timezone used to resolve relative dates in the answer',
  }),
});

const AskSource = Type.Object({
  id: Type.String(),
  title: Type.String(),
  created_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const AskResponse = Type.Object({ answer: Type.String(), sources: Type.Array(AskSource) });

export function registerDevAskRoutes(app: TypedApp, ctx: Services): void {
  const { auth, ask } = ctx;

  app.post(
    '/user/ask',
    {
      preHandler: auth.devKey('conversations:read'),
      config: { rateLimit: { policy: 'dev:ask' } },
      schema: {
        tags: ['Conversations'],
        operationId: 'ask',
        summary: 'Ask Conversations',
        description:
          "Answers a natural-language question from the user's own conversations, citing them as sources: full-text (and, when configured, embedding) retrieval, then an answer written by the LLM from those conversations only, or without an LLM the most relevant sentences. Relative dates in the question are read in `timezone`. Read-only.",
        body: AskRequest,
        response: { 200: AskResponse, ...errors(401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ask.ask(devUser(request), request.body);
    },
  );
}
