/** The rate-limit port: fixed-window policies and counting (in-process or Redis, see limiter.ts). */

/** A fixed-window policy: at most `max` requests per `windowSeconds` for one counter key. */
export interface RateLimitPolicy {
  name: string;
  max: number;
  windowSeconds: number;
}

/** The outcome of one hit, with what the `X-RateLimit-*` headers report. */
export interface RateLimitDecision {
  policy: string;
  allowed: boolean;
  limit: number;
  remaining: number;
  /** whole seconds until the window resets (at least 1) */
  resetSeconds: number;
}

/** What the domain and the HTTP hook ask of the limiter. */
export interface RateLimits {
  /** Registers a policy (features add theirs); RATE_LIMITS overrides and the boost apply to it. */
  define(name: string, max: number, windowSeconds: number, options?: { boost?: boolean }): RateLimitPolicy;
  /** Counts one request of `subject` against a policy; rejects with a 503 AppError when the counters are unreachable. */
  hit(policyName: string, subject: string): Promise<RateLimitDecision>;
}
