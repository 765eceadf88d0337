import type { Redis } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import { ioredis } from '../providers/redis/packages.js';
import type { Database } from '../store/schema.js';

export type CheckOutcome = 'ok' | 'error' | 'not_configured';

export interface ReadinessReport {
  status: 'ready' | 'not_ready' | 'draining';
  checks: { database: CheckOutcome; redis: CheckOutcome; queue: CheckOutcome };
}

export interface ReadinessDeps {
  db: Kysely<Database>;
  redisUrl: string | null;
  /** Pings the job-dispatch transport (BullMQ's Redis connection); null with inline dispatch. */
  probeQueue: (() => Promise<void>) | null;
  draining: () => boolean;
  log: Logger;
  timeoutMs?: number;
}

/**
 * `/readyz`: whether this node should get traffic. Each dependency is checked with a short timeout,
 * so a load balancer's probe never hangs on a dead Redis; a draining node answers not ready at once.
 */
export class ReadinessProbe {
  private redis: Redis | null = null;

  constructor(private readonly deps: ReadinessDeps) {}

  async check(): Promise<ReadinessReport> {
    const [database, redis, queue] = await Promise.all([
      this.run('database', () => sql`select 1`.execute(this.deps.db).then(() => undefined)),
      this.deps.redisUrl ? this.run('redis', () => this.pingRedis()) : Promise.resolve('not_configured' as const),
      this.deps.probeQueue ? this.run('queue', this.deps.probeQueue) : Promise.resolve('not_configured' as const),
    ]);
    const checks = { database, redis, queue };
    const healthy = Object.values(checks).every((outcome) => outcome !== 'error');
    const status = this.deps.draining() ? 'draining' : healthy ? 'ready' : 'not_ready';
    return { status, checks };
  }

  close(): void {
    this.redis?.disconnect();
    this.redis = null;
  }

  private async run(name: string, probe: () => Promise<void>): Promise<CheckOutcome> {
    const timeoutMs = this.deps.timeoutMs ?? 2_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${name} check timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([probe(), timeout]);
      return 'ok';
    } catch (err) {
      this.deps.log.warn({ err, check: name }, 'readiness check failed');
      return 'error';
    } finally {
      clearTimeout(timer);
    }
  }

  private async pingRedis(): Promise<void> {
    if (!this.redis) {
      const url = this.deps.redisUrl ?? '';
      // Its own connection: the bus subscriber cannot PING while subscribed, and retries would hide an outage.
      const { Redis } = ioredis();
      this.redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 1_000 });
      this.redis.on('error', () => undefined);
    }
    await this.redis.ping();
  }
}
