import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Clock } from '../../context-types.js';
import { ioredis } from '../redis/packages.js';

/** One fixed-window counter step: the count after this hit and the time left in the window. */
export interface WindowCount {
  count: number;
  resetInMs: number;
}

/** Where fixed-window counters live: this process, or Redis so every process shares them. */
export interface CounterStore {
  readonly kind: 'memory' | 'redis';
  /** Counts one hit on `key`; the first hit of a window starts it (`windowMs` long). */
  increment(key: string, windowMs: number): Promise<WindowCount>;
  close(): Promise<void>;
}

// Expired windows are swept once the map grows past this, so idle keys do not pile up.
const SWEEP_THRESHOLD = 10_000;

/** Counters in this process (the default without REDIS_URL). Time comes from the context clock. */
export class MemoryCounterStore implements CounterStore {
  readonly kind = 'memory';
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly clock: Clock) {}

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.clock.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size >= SWEEP_THRESHOLD) this.sweep(now);
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

// INCR and the expiry in one atomic step: the first hit sets the window; a key that somehow lost its
// TTL gets one again, so a counter can never live forever.
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/** The command defineCommand adds to the connection (ioredis types do not know it). */
interface IncrementCommand {
  keepsakeIncrement(key: string, windowMs: string): Promise<[number, number]>;
}

/** Counters in Redis (REDIS_URL): the same windows across every serve process. */
export class RedisCounterStore implements CounterStore {
  readonly kind = 'redis';
  private readonly redis: Redis;

  constructor(url: string, log: Logger, keyPrefix = 'keepsake:') {
    // A hit waits at most about a second while Redis is away, then fails (the limiter answers 503).
    const { Redis } = ioredis();
    this.redis = new Redis(url, { keyPrefix, maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: 1000 });
    // EVALSHA of a script loaded once, instead of sending the script's text with every hit.
    this.redis.defineCommand('keepsakeIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    let lastLogged = 0;
    this.redis.on('error', (err: Error) => {
      // ioredis reconnects by itself; log at most once a minute instead of once per retry.
      if (Date.now() - lastLogged < 60_000) return;
      lastLogged = Date.now();
      log.warn({ err }, 'rate limiter: Redis connection error');
    });
  }

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const command = (this.redis as unknown as IncrementCommand).keepsakeIncrement;
    const result = await command.call(this.redis, key, String(windowMs));
    return { count: Number(result[0]), resetInMs: Number(result[1]) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
