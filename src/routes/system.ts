import { Type } from 'typebox';
import type { Services } from '../context.js';
import type { TypedApp } from '../http/typed-app.js';

export function registerSystemRoutes(app: TypedApp, _ctx: Services): void {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['System'],
        summary: 'Liveness: the process is up',
        security: [],
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
}
