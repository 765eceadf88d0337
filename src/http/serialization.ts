import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type Serialize = (data: unknown) => string;
type SerializerFactory = (externalSchemas: unknown, options: unknown) => (route: unknown) => Serialize;

// Fastify's own default serializer compiler (fast-json-stringify), resolved from Fastify's install.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

/**
 * Fastify's response serializers, each compiled by the first response it writes instead of when the
 * server starts: compiling every route's response schemas up front was a fifth of the start's CPU
 * time (docs/deployment.md). The serializers themselves are Fastify's defaults.
 */
export function serializersCompiledOnFirstUse(): NonNullable<FastifyServerOptions['schemaController']> {
  const selector = fromFastify('@fastify/fast-json-stringify-compiler') as () => SerializerFactory;
  const buildDefault = selector();
  return {
    compilersFactory: {
      buildSerializer: (externalSchemas: unknown, options: unknown) => {
        const compile = buildDefault(externalSchemas, options);
        return (route: unknown) => {
          let serialize: Serialize | undefined;
          return (data: unknown) => {
            serialize ??= compile(route);
            return serialize(data);
          };
        };
      },
    },
  };
}
