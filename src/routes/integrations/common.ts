import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Gate, IntegrationGates } from '../../domain/apps/gates.js';
import { parseBearer } from '../../http/auth.js';
import type { IdempotencyOwner } from '../../http/idempotency.js';

export const tags = ['Integration'];

export const AppParams = Type.Object({ app_id: Type.String({ minLength: 1, maxLength: 200 }) });

/** SPEC §4.9: every integration route names the target user in the `uid` query parameter. */
export const Uid = Type.String({ minLength: 1, maxLength: 200, description: "the target user's id" });

export const Empty = Type.Object({}, { description: 'Accepted; the work completes asynchronously' });

/** The app key (or, for notifications, the app secret) presented as a bearer token. */
export function credential(request: FastifyRequest): string | null {
  return parseBearer(request.headers.authorization);
}

/**
 * Bearer and key checks run before validation (preValidation), so a request with a wrong key gets its
 * 401/403 whatever its body, as the reference answers.
 */
export function keyGate(gates: IntegrationGates, gate: Gate) {
  return async (request: FastifyRequest): Promise<void> => {
    const { app_id: appId } = request.params as { app_id?: string };
    await gates.checkKey(appId ?? '', credential(request), gate);
  };
}

/** An app's creates: its Idempotency-Keys are the app's own, per target user. */
export const appOwner: IdempotencyOwner = (request) => {
  const { app_id: appId } = request.params as { app_id: string };
  const { uid } = request.query as { uid: string };
  return { userId: uid, scope: `app:${appId}` };
};
