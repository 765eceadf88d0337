import { type Static, type TSchema, Type } from 'typebox';

/** Shared schema pieces: error bodies (SPEC §2.6) and common field shapes. */

export const ErrorResponse = Type.Object(
  { detail: Type.Union([Type.String(), Type.Array(Type.Unknown()), Type.Object({}, { additionalProperties: true })]) },
  { $id: 'ErrorResponse', description: 'Error with a detail string' },
);

export const ValidationErrorBody = Type.Object(
  {
    // Handler 422s carry a detail string (e.g. `text cannot be empty`); the serializer must accept both.
    detail: Type.Union([
      Type.Array(
        Type.Object({
          loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
          msg: Type.String(),
          type: Type.String(),
        }),
      ),
      Type.String(),
    ]),
  },
  { description: 'Validation error (FastAPI style), or a handler detail string' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request',
  401: 'Missing or invalid credentials',
  402: 'Payment required',
  403: 'Authenticated but not allowed (missing scope, app not enabled, …)',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request body too large',
  422: 'Validation error',
  429: 'Rate limit exceeded (see Retry-After)',
  500: 'Server error',
  503: 'Service unavailable',
};

/** The documented error responses of a route, by status code. */
export function errors(...codes: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const code of codes) {
    const description = ERROR_DESCRIPTIONS[code] ?? 'Error';
    out[code] =
      code === 422 ? { ...ValidationErrorBody, description } : Type.Object({ detail: Type.Unknown() }, { description });
  }
  return out;
}

/** Cached lists (http/response-cache.ts) answer 304 with no body when If-None-Match holds the current ETag. */
export const notModified = {
  304: Type.Null({ description: 'Not Modified: If-None-Match holds the current ETag; no body' }),
};

export const DateTime = (options: { description?: string } = {}) => Type.String({ format: 'date-time', ...options });
/**
 * A nullable schema as OpenAPI 3.0 `nullable: true` rather than `anyOf` wherever the schema has a
 * `type`: the serializer handles it inline (an `anyOf` costs an Ajv check per field and row, ~7×
 * slower on lists) and Ajv validates it natively. Enums and untyped schemas keep the union.
 */
export const Nullable = <T extends TSchema>(schema: T) =>
  'type' in schema && !('enum' in schema)
    ? Type.Unsafe<Static<T> | null>({ ...schema, nullable: true })
    : Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
export const NullableScalar = Nullable;

/** DESIGN §7: `limit` outside 1..1000 is a 422 on every list. */
export const Limit = (fallback: number) => Type.Integer({ minimum: 1, maximum: 1000, default: fallback });
// Offsets beyond this are refused: deep OFFSET scans are a denial-of-service vector, and no page lives there.
export const Offset = Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 });

export const SuccessResponse = Type.Object({ success: Type.Boolean() });

/** The header on every create's schema, so it is validated (422) and in the OpenAPI document. */
export const IdempotencyKeyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7E]+$',
      description:
        'Makes the create safe to retry: the same key with the same request replays the first answer (header Idempotent-Replayed: true) instead of creating again; with a different request it is refused (422). 1–255 printable ASCII characters, kept 24 hours.',
    }),
  ),
});
