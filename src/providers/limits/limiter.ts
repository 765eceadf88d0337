import type { Logger } from 'pino';
import type { Config, RateLimitOverride } from '../../config.js';
import type { Clock } from '../../context-types.js';
import { AppError, Detail } from '../../errors.js';
import { type CounterStore, MemoryCounterStore, RedisCounterStore } from './counter-store.js';
import type { RateLimitDecision, RateLimitPolicy, RateLimits } from './port.js';

const HOUR = 3600;

/**
 * Default developer-API policies. The reference's hourly values (research/omi-rest.md §1.5) where it has
 * them; the rest (search, ask, export, folders, key) are ours.
 */
export const DEFAULT_POLICIES: Record<string, RateLimitOverride> = {
  'dev:conversations_read': { max: 60, windowSeconds: HOUR },
  'dev:conversation_detail_read': { max: 60, windowSeconds: HOUR },
  'dev:conversation_transcript_read': { max: 25, windowSeconds: HOUR },
  'dev:conversations': { max: 25, windowSeconds: HOUR },
  'dev:memories_read': { max: 120, windowSeconds: HOUR },
  'dev:memories': { max: 120, windowSeconds: HOUR },
  'dev:memories_batch': { max: 15, windowSeconds: HOUR },
  'dev:action_items_read': { max: 120, windowSeconds: HOUR },
  'dev:action_items_write': { max: 120, windowSeconds: HOUR },
  'dev:goals_read': { max: 120, windowSeconds: HOUR },
  'dev:goals_write': { max: 120, windowSeconds: HOUR },
  'dev:search': { max: 60, windowSeconds: HOUR },
  // An answer may cost an LLM call: the budget of an LLM-processed create, as the reference keeps it.
  'dev:ask': { max: 25, windowSeconds: HOUR },
  'dev:folders_read': { max: 120, windowSeconds: HOUR },
  'dev:folders_write': { max: 120, windowSeconds: HOUR },
  'dev:export': { max: 5, windowSeconds: HOUR },
  'dev:key_read': { max: 120, windowSeconds: HOUR },
};

/** `max × boost`, floored, never below 1 (DESIGN §5: RATE_LIMIT_BOOST). */
export function boosted(max: number, boost: number): number {
  return Math.max(1, Math.floor(max * boost));
}

export class RateLimiter implements RateLimits {
  private readonly policies = new Map<string, RateLimitPolicy>();

  constructor(
    private readonly store: CounterStore,
    private readonly boost: number,
    private readonly overrides: Record<string, RateLimitOverride>,
    private readonly log: Logger,
  ) {
    for (const [name, policy] of Object.entries(DEFAULT_POLICIES)) this.define(name, policy.max, policy.windowSeconds);
  }

  /** Registers a policy (other features add theirs); RATE_LIMITS overrides and the boost apply to it. */
  define(name: string, max: number, windowSeconds: number, options: { boost?: boolean } = {}): RateLimitPolicy {
    const override = this.overrides[name];
    const base = override ?? { max, windowSeconds };
    const policy = {
      name,
      max: options.boost === false ? base.max : boosted(base.max, this.boost),
      windowSeconds: base.windowSeconds,
    };
    this.policies.set(name, policy);
    return policy;
  }

  policy(name: string): RateLimitPolicy {
    const policy = this.policies.get(name);
    if (!policy) throw new Error(`unknown rate-limit policy ${name}`);
    return policy;
  }

  /** RATE_LIMITS names that no registered policy carries (logged at start; a typo would silently do nothing). */
  unknownOverrides(): string[] {
    return Object.keys(this.overrides).filter((name) => !this.policies.has(name));
  }

  /** Counts one request of `subject` (e.g. `dev:<uid>:<key id>`) against a policy. */
  async hit(policyName: string, subject: string): Promise<RateLimitDecision> {
    const policy = this.policy(policyName);
    let counted: { count: number; resetInMs: number };
    try {
      counted = await this.store.increment(`rl:${policy.name}:${subject}`, policy.windowSeconds * 1000);
    } catch (err) {
      // research/omi-rest.md §1.5: the limiter fails closed.
      this.log.error({ err, policy: policy.name }, 'rate limiter unavailable');
      throw new AppError(503, Detail.rateLimiterUnavailable);
    }
    return {
      policy: policy.name,
      allowed: counted.count <= policy.max,
      limit: policy.max,
      remaining: Math.max(0, policy.max - counted.count),
      resetSeconds: Math.max(1, Math.ceil(counted.resetInMs / 1000)),
    };
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/** Redis counters when REDIS_URL is set (shared by every process), else counters in this process. */
export function createRateLimiter(config: Config, clock: Clock, log: Logger): RateLimiter {
  const store = config.redisUrl ? new RedisCounterStore(config.redisUrl, log) : new MemoryCounterStore(clock);
  return new RateLimiter(store, config.rateLimitBoost, config.rateLimits, log);
}
