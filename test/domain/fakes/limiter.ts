import pino from 'pino';
import type { Clock } from '../../../src/context-types.js';
import {
  type CounterStore,
  MemoryCounterStore,
  type WindowCount,
} from '../../../src/providers/limits/counter-store.js';
import { RateLimiter } from '../../../src/providers/limits/limiter.js';

// The limiter with the process-local counters it uses without REDIS_URL: an in-memory adapter already,
// driven by the test's clock. (Its import paths follow the limiter when it moves into providers/.)

/** The real limiter on in-memory counters that read `clock`; no boost, no overrides. */
export function memoryLimiter(clock: Clock): RateLimiter {
  return new RateLimiter(new MemoryCounterStore(clock), 1, {}, pino({ level: 'silent' }));
}

/** Counters that cannot be reached (Redis down): every hit fails. */
class UnreachableCounters implements CounterStore {
  readonly kind = 'redis';
  async increment(): Promise<WindowCount> {
    throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
  }
  async close(): Promise<void> {}
}

/** The real limiter on counters that cannot be reached. */
export function unreachableLimiter(): RateLimiter {
  return new RateLimiter(new UnreachableCounters(), 1, {}, pino({ level: 'silent' }));
}
