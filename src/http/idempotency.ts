import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
import type { CreateReceipt } from '../domain/ports.js';
import { AppError, Detail } from '../errors.js';
import type { IdempotencyKeysRepository, IdempotencyRecord } from '../store/repositories/idempotency-keys.js';
import { devUser, hookList } from './auth.js';

/** Whose keys a create's Idempotency-Key lives among: the user, and the API or app it came through. */
export type IdempotencyOwner = (request: FastifyRequest) => { userId: string; scope: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is a create that honours an Idempotency-Key header (docs/developer-api.md). */
    idempotent?: IdempotencyOwner;
  }
  interface FastifyRequest {
    /** Set when the create carries a key nobody has used yet; its receipt goes to the service. */
    idempotency?: Claim;
  }
}

interface Claim {
  record: Pick<IdempotencyRecord, 'user_id' | 'scope' | 'key' | 'request_hash'>;
  receipt: CreateReceipt;
  /** Whether the receipt was written, and whether its answer was final. */
  written?: { final: boolean };
}

/** Records are kept at least this long; a key is reusable after it (docs/deployment.md). */
export const RETENTION_MS = 24 * 3600 * 1000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;
/**
 * How long a retry waits for the first request to finish an answer that is still provisional (a
 * conversation processed before answering); after that it gets the provisional one (status processing).
 */
export const IN_FLIGHT_WAIT_MS = 10_000;
const IN_FLIGHT_POLL_MS = 100;

/** Developer-API creates: the key belongs to the key's (or session's) user. */
export const devKeyOwner: IdempotencyOwner = (request) => ({ userId: devUser(request), scope: 'dev' });

/** The receipt a route hands its service: undefined when the request carries no (new) key. */
export const receiptOf = (request: FastifyRequest): CreateReceipt | undefined => request.idempotency?.receipt;

class KeyTaken extends Error {}

// SPEC §7.1: a 422 carries the validation shape, located at the header.
const KEY_REUSED = {
  loc: ['header', 'idempotency-key'],
  msg: Detail.idempotencyKeyReused,
  type: 'idempotency_key_reused',
};

/**
 * Stripe-style idempotent creates, shared by every route that sets `config.idempotent`. The record is
 * written by the create itself, in the transaction that stores what it created (a `CreateReceipt`), so
 * a record exists exactly when the create committed: a crash before the commit leaves the key free, a
 * crash after it leaves the answer to replay. A concurrent request with the same key fails on the
 * record's primary key (PostgreSQL makes it wait for the first commit) and replays the first answer.
 */
export class IdempotentCreates {
  private lastSweep = 0;

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** From an `onRoute` hook: wraps the handler of a route that sets `config.idempotent`. */
  attach(route: RouteOptions): void {
    const owner = route.config?.idempotent;
    if (!owner) return;
    const headers = (route.schema?.headers as { properties?: Record<string, unknown> } | undefined)?.properties;
    if (!headers?.['idempotency-key'])
      throw new Error(`${route.method} ${route.url}: an idempotent create declares IdempotencyKeyHeader`);
    const handler = route.handler as RouteHandlerMethod;
    const creates = this;
    route.handler = async function (request, reply) {
      const key = request.headers['idempotency-key'];
      if (typeof key !== 'string') return handler.call(this, request, reply);
      const { userId, scope } = owner(request);
      const hash = requestHash(request);
      const earlier = await creates.keys.find(userId, scope, key, creates.clock.now() - RETENTION_MS);
      if (earlier) return creates.replay(reply, await creates.settled(earlier, hash));
      request.idempotency = creates.claim(reply, { user_id: userId, scope, key, request_hash: hash });
      try {
        return await handler.call(this, request, reply);
      } catch (err) {
        if (!(err instanceof KeyTaken)) throw err;
        request.idempotency = undefined;
        // Another request with this key committed first: answer as a retry would be answered.
        const winner = await creates.keys.find(userId, scope, key, 0);
        if (!winner) throw new AppError(409, Detail.idempotencyKeyInFlight, { 'retry-after': '1' });
        return creates.replay(reply, await creates.settled(winner, hash));
      }
    } as RouteHandlerMethod;
    route.onSend = [...hookList(route.onSend), this.onSend] as RouteOptions['onSend'];
  }

  private claim(reply: FastifyReply, record: Claim['record']): Claim {
    const claim: Claim = {
      record,
      receipt: async (tx, answer, final = true) => {
        const now = this.clock.now();
        // Serialized as the route sends it, so a replay is byte for byte the answer.
        const body = String(reply.serialize(answer));
        const full = { ...record, status_code: reply.statusCode, body, final: final ? 1 : 0 };
        if (!(await this.keys.claim(tx, { ...full, created_at: now }, now - RETENTION_MS))) throw new KeyTaken();
        claim.written = { final };
      },
    };
    return claim;
  }

  /**
   * The record to replay for a retry of `hash`: refused when the key was used for another request;
   * a provisional answer is waited for, bounded (its request may still be processing, or have died).
   */
  private async settled(record: IdempotencyRecord, hash: string): Promise<IdempotencyRecord> {
    if (record.request_hash !== hash) throw new AppError(422, [KEY_REUSED]);
    let latest = record;
    // Counted in polls, not read from the clock (a test's clock may stand still).
    for (let waited = 0; latest.final === 0 && waited < IN_FLIGHT_WAIT_MS; waited += IN_FLIGHT_POLL_MS) {
      await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_POLL_MS));
      latest = (await this.keys.find(record.user_id, record.scope, record.key, 0)) ?? latest;
    }
    return latest;
  }

  private replay(reply: FastifyReply, record: IdempotencyRecord): FastifyReply {
    return reply
      .code(record.status_code)
      .header('idempotent-replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(record.body);
  }

  /** After a successful create: the sent answer replaces a provisional one, or is recorded if none was. */
  private readonly onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (!claim || claim.written?.final || reply.statusCode >= 300 || typeof payload !== 'string') return payload;
    const { user_id, scope, key } = claim.record;
    try {
      if (claim.written) await this.keys.finalize(user_id, scope, key, reply.statusCode, payload);
      // A create that stored nothing new (a from-segments retry by client_session_id) wrote no receipt.
      else
        await this.keys.recordAnswered({
          ...{ ...claim.record, status_code: reply.statusCode, body: payload },
          ...{ final: 1, created_at: this.clock.now() },
        });
      await this.sweep();
    } catch (err) {
      this.log.warn({ err, scope }, 'recording an idempotent answer failed; a retry gets the first one');
    }
    return payload;
  };

  /** Drops expired records, at most every ten minutes per process. */
  private async sweep(): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    const swept = await this.keys.sweep(now - RETENTION_MS);
    if (swept > 0) this.log.info({ swept }, 'expired idempotency keys swept');
  }
}

/** The request a key stands for: method, route, path parameters, query and body, as validated. */
function requestHash(request: FastifyRequest): string {
  const { method, routeOptions, params, query, body } = request;
  return createHash('sha256')
    .update(canonicalJson([method, routeOptions.url ?? '', params, query, body ?? null]))
    .digest('hex');
}

/** JSON with object keys sorted, so the same request hashes the same whatever its key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
