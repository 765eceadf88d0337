import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { devUser } from '../../http/auth.js';
import { transcriptBucket } from '../../http/rate-limit.js';
import { cacheUnlessTranscript } from '../../http/response-cache.js';
import { DateTime, errors, Limit, notModified, Offset } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { DeveloperConversation } from './conversation-schemas.js';
import { listFilter } from './conversations.js';

const SearchQuery = Type.Object({
  q: Type.String({
    minLength: 1,
    maxLength: 500,
    description: 'words to look for in title, overview and transcript (any may match)',
  }),
  limit: Limit(25),
  offset: Offset,
  start_date: Type.Optional(DateTime()),
  end_date: Type.Optional(DateTime()),
  include_transcript: Type.Boolean({ default: false }),
  categories: Type.Optional(Type.String({ maxLength: 2000, description: 'comma-separated categories (OR)' })),
  folder_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  starred: Type.Optional(Type.Boolean()),
});

export function registerDevSearchRoutes(app: TypedApp, ctx: Services): void {
  const { auth, search } = ctx;

  app.get(
    '/user/conversations/search',
    {
      preHandler: auth.devKey('conversations:read'),
      config: { rateLimit: { policy: 'dev:search', extra: transcriptBucket }, cache: cacheUnlessTranscript },
      schema: {
        tags: ['Conversations'],
        summary: 'Full-text search over completed conversations, best match first (with the list filters)',
        querystring: SearchQuery,
        response: { 200: Type.Array(DeveloperConversation), ...notModified, ...errors(400, 401, 403, 422, 429) },
      },
    },
    async (request) => {
      const q = request.query;
      return search.conversationsMatching(devUser(request), q.q, listFilter(q), q.include_transcript);
    },
  );
}
