import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { Services } from '../../context.js';
import { exportSections } from '../../domain/export/service.js';
import type { DevScope } from '../../domain/keys/dev-keys.js';
import { AppError, Detail } from '../../errors.js';
import type { PreHandler } from '../../http/auth.js';
import { devUser } from '../../http/auth.js';
import { errors } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';

/** A second required scope after `auth.devKey` (the export needs two). */
const requireScope =
  (scope: DevScope): PreHandler =>
  async (request) => {
    if (!request.devKey?.scopes.includes(scope)) throw new AppError(403, Detail.insufficientScope(scope));
  };

export function registerDevExportRoutes(app: TypedApp, ctx: Services): void {
  const { auth, exporter } = ctx;

  app.get(
    '/user/export',
    {
      preHandler: [auth.devKey('conversations:read'), requireScope('memories:read')],
      config: { rateLimit: { policy: 'dev:export' } },
      schema: {
        tags: ['Export'],
        summary: "Stream all of the user's data as NDJSON",
        description:
          'Lines: a header {type:"export"}, then folder, conversation (with transcript), memory, action_item and goal (with history) records, then {type:"end", counts}. Needs conversations:read and memories:read; action items and goals are included when the key also has action_items:read / goals:read.',
        response: {
          200: {
            description: 'NDJSON stream, one JSON object per line',
            content: { 'application/x-ndjson': { schema: Type.Unsafe<Readable>({ type: 'string' }) } },
          },
          ...errors(401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const userId = devUser(request);
      const sections = exportSections(request.devKey?.scopes ?? []);
      const day = new Date(ctx.clock.now()).toISOString().slice(0, 10);
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="keepsake-export-${day}.ndjson"`)
        .send(Readable.from(exporter.lines(userId, sections)));
    },
  );
}
