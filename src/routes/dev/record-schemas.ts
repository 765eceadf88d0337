import { type TArray, type TObject, type TSchema, Type } from 'typebox';
import { errors, IdempotencyKeyHeader, SuccessResponse } from '../../http/schemas.js';

/**
 * The route schemas every developer-API record type has alike (memories, action items, goals, folders,
 * conversations): batch create, patch and delete by id. Each route keeps its path, scope and policy.
 */

interface Described {
  tags: string[];
  summary: string;
}

/**
 * Up to `max` records created at once, all or nothing: `{ [key]: [...] }` in, the same plus `created_count`
 * out; idempotent with an Idempotency-Key (the route sets `config.idempotent`).
 */
export function batchCreateSchema<K extends string, C extends TSchema, R extends TSchema>(
  route: Described & { key: K; max: number; create: C; created: R },
) {
  const { tags, summary, key, max, create, created } = route;
  return {
    tags,
    summary,
    // A computed key widens to string; K is what the caller named.
    body: Type.Object({ [key]: Type.Array(create, { maxItems: max }) } as Record<K, TArray<C>>),
    headers: IdempotencyKeyHeader,
    response: {
      200: Type.Object({ [key]: Type.Array(created), created_count: Type.Integer() } as Record<K, TArray<R>> & {
        created_count: ReturnType<typeof Type.Integer>;
      }),
      ...errors(401, 403, 409, 422, 429),
    },
  };
}

/** A patch of the user's record named in `params`; 404 when it is not theirs. */
export function patchSchema<P extends TObject, B extends TSchema, R extends TSchema>(
  route: Described & { params: P; body: B; updated: R },
) {
  const { tags, summary, params, body, updated } = route;
  return { tags, summary, params, body, response: { 200: updated, ...errors(401, 403, 404, 422, 429) } };
}

/** A delete of the user's record named in `params`: `{ success: true }`, or 404 when it is not theirs. */
export function deleteSchema<P extends TObject>(route: Described & { params: P }) {
  const { tags, summary, params } = route;
  return { tags, summary, params, response: { 200: SuccessResponse, ...errors(401, 403, 404, 422, 429) } };
}
