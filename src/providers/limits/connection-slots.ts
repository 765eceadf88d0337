import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { ioredis } from '../redis/packages.js';

/** Gives a slot back once the connection is gone; calling it again does nothing. */
export type ReleaseSlot = () => void;

/**
 * A per-user cap on long-lived connections (docs/deployment.md "Connection limits"): a slot is held
 * from admission until the connection closes.
 */
export interface ConnectionSlots {
  readonly limit: number;
  /** One of the user's slots, or null when the user already holds `limit`. */
  acquire(userId: string): Promise<ReleaseSlot | null>;
}

/** The caps of both kinds of long-lived connection, and what to stop at shutdown. */
export interface ConnectionLimits {
  /** Notification streams (SSE). */
  streams: ConnectionSlots;
  /** /v4/listen and /v4/web/listen sockets, counted together. */
  listen: ConnectionSlots;
  close(): Promise<void>;
}

const once = (release: () => void): ReleaseSlot => {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
};

/** Counted in this process. */
export class LocalConnectionSlots implements ConnectionSlots {
  private readonly held = new Map<string, number>();

  constructor(readonly limit: number) {}

  tryAcquire(userId: string): ReleaseSlot | null {
    const count = this.held.get(userId) ?? 0;
    if (count >= this.limit) return null;
    this.held.set(userId, count + 1);
    return once(() => {
      const left = (this.held.get(userId) ?? 1) - 1;
      if (left > 0) this.held.set(userId, left);
      else this.held.delete(userId);
    });
  }

  async acquire(userId: string): Promise<ReleaseSlot | null> {
    return this.tryAcquire(userId);
  }
}

// A slot is a member of the user's sorted set, scored by when its lease ends (Redis's own clock, so the
// processes' clocks need not agree). Expired leases (a crashed process) are dropped before counting.
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
const ACQUIRE_SCRIPT = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1`;
// XX: a lease that already lapsed is not revived (its slot may have been handed to someone else).
const RENEW_SCRIPT = `${NOW}
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1`;

/** The commands defineCommand adds to the connection (ioredis types do not know them). */
interface SlotCommands {
  keepsakeSlotAcquire(key: string, member: string, limit: string, leaseMs: string): Promise<number>;
  keepsakeSlotRenew(key: string, member: string, leaseMs: string): Promise<number>;
}

/** A held lease: renewed while its connection is open, then removed. */
interface Lease {
  key: string;
  member: string;
}

/**
 * Counted across every process in Redis (REDIS_URL), on top of this process's own count. While Redis
 * cannot be reached the process's count alone decides: a Redis outage never refuses live streams.
 */
export class SharedConnectionSlots implements ConnectionSlots {
  private readonly local: LocalConnectionSlots;
  private readonly leases = new Set<Lease>();

  constructor(
    private readonly redis: Redis,
    private readonly kind: string,
    readonly limit: number,
    private readonly leaseMs: number,
    private readonly log: Logger,
  ) {
    this.local = new LocalConnectionSlots(limit);
  }

  async acquire(userId: string): Promise<ReleaseSlot | null> {
    const releaseLocal = this.local.tryAcquire(userId);
    if (!releaseLocal) return null;
    const lease = { key: `conn:${this.kind}:${userId}`, member: randomUUID() };
    const commands = this.redis as unknown as SlotCommands;
    try {
      const granted = await commands.keepsakeSlotAcquire(
        lease.key,
        lease.member,
        String(this.limit),
        String(this.leaseMs),
      );
      if (granted !== 1) {
        releaseLocal();
        return null;
      }
    } catch (err) {
      this.log.warn({ err, kind: this.kind }, 'connection limits: Redis unreachable; counting in this process only');
      return releaseLocal;
    }
    this.leases.add(lease);
    return once(() => {
      releaseLocal();
      this.leases.delete(lease);
      this.redis.zrem(lease.key, lease.member).catch((err: unknown) => {
        this.log.warn(
          { err, kind: this.kind },
          'connection limits: a slot could not be returned; its lease will lapse',
        );
      });
    });
  }

  /** Extends every lease this process holds. */
  async renew(): Promise<void> {
    const commands = this.redis as unknown as SlotCommands;
    await Promise.all(
      [...this.leases].map((lease) => commands.keepsakeSlotRenew(lease.key, lease.member, String(this.leaseMs))),
    );
  }
}

// A crashed process's slots come free after this long; live ones are renewed three times per lease.
const LEASE_MS = 30_000;

/** In Redis when REDIS_URL is set (every process shares the counts), else in this process. */
export function createConnectionLimits(config: Config, log: Logger, leaseMs = LEASE_MS): ConnectionLimits {
  const { maxSseStreamsPerUser, maxListenSocketsPerUser } = config.ops;
  if (!config.redisUrl) {
    return {
      streams: new LocalConnectionSlots(maxSseStreamsPerUser),
      listen: new LocalConnectionSlots(maxListenSocketsPerUser),
      close: async () => undefined,
    };
  }
  const { Redis } = ioredis();
  const redis = new Redis(config.redisUrl, {
    keyPrefix: 'keepsake:',
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
  });
  redis.on('error', () => undefined); // ioredis reconnects by itself; failed commands are logged where they fail
  redis.defineCommand('keepsakeSlotAcquire', { numberOfKeys: 1, lua: ACQUIRE_SCRIPT });
  redis.defineCommand('keepsakeSlotRenew', { numberOfKeys: 1, lua: RENEW_SCRIPT });
  const streams = new SharedConnectionSlots(redis, 'sse', maxSseStreamsPerUser, leaseMs, log);
  const listen = new SharedConnectionSlots(redis, 'listen', maxListenSocketsPerUser, leaseMs, log);
  const timer = setInterval(() => {
    Promise.all([streams.renew(), listen.renew()]).catch((err: unknown) =>
      log.warn({ err }, 'connection limits: leases could not be renewed'),
    );
  }, leaseMs / 3);
  timer.unref();
  return {
    streams,
    listen,
    async close() {
      clearInterval(timer);
      redis.disconnect();
    },
  };
}
