import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from 'typebox';
import { errors } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';

const STATIC_DIR = fileURLToPath(new URL('../../web/static/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

/** The files of src/web/static, read once: a fixed set, so no path from a request touches the disk. */
function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(STATIC_DIR)) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const body = readFileSync(join(STATIC_DIR, name));
    assets.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"` });
  }
  return assets;
}

/** `GET /static/<file>`: the web app's stylesheet and ES modules (no build step, DESIGN §2). */
export function registerStaticRoutes(app: TypedApp): void {
  const assets = loadAssets();
  app.get(
    '/static/:file',
    {
      schema: {
        hide: true,
        tags: ['Web'],
        summary: 'Static files of the web app',
        params: Type.Object({ file: Type.String({ pattern: '^[a-z0-9-]+\\.[a-z]+$', maxLength: 64 }) }),
        response: { ...errors(404, 422) },
      },
    },
    async (request, reply) => {
      const asset = assets.get(request.params.file);
      if (!asset) return reply.code(404).send({ detail: 'Not Found' });
      reply.header('etag', asset.etag).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
      return reply.type(asset.type).send(asset.body);
    },
  );
}
