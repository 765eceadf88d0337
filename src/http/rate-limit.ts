import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, Detail, rateLimitHeaders } from '../errors.js';
import type { RateLimitDecision, RateLimits } from '../providers/limits/port.js';

/** What a route names in `config.rateLimit`; `extra` adds a second bucket for some requests. */
export interface RouteRateLimit {
  policy: string;
  extra?: (request: FastifyRequest) => string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: RouteRateLimit;
  }
}

/**
 * research/omi-rest.md §1.5: an extra bucket is consumed when the transcript is included. Limits run
 * before validation, so the flag is still the query's text (validation later turns `true` into true).
 */
export function transcriptBucket(request: FastifyRequest): string | null {
  const flag = (request.query as { include_transcript?: unknown } | undefined)?.include_transcript;
  return flag === true || flag === 'true' ? 'dev:conversation_transcript_read' : null;
}

/**
 * Applies the route's policies (`config.rateLimit`) to an authenticated developer-key request: sets the
 * `X-RateLimit-*` headers (they stay on error responses too) and throws 429 when a bucket is empty.
 */
export async function enforceRateLimits(
  limits: RateLimits,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const route = request.routeOptions.config.rateLimit;
  if (!route || !request.devKey) return;
  const subject = `dev:${request.devKey.userId}:${request.devKey.keyId}`;
  const names = [route.policy, route.extra?.(request) ?? null].filter((n): n is string => n !== null);
  let reported: RateLimitDecision | null = null;
  for (const name of names) {
    const decision = await limits.hit(name, subject);
    if (!reported || decision.remaining < reported.remaining || !decision.allowed) reported = decision;
    if (!decision.allowed) break;
  }
  if (!reported) return;
  const headers = rateLimitHeaders(reported);
  reply.headers(headers);
  if (!reported.allowed) {
    throw new AppError(429, Detail.rateLimitedPolicy(reported.policy, reported.resetSeconds), {
      ...headers,
      'retry-after': String(reported.resetSeconds),
    });
  }
}
