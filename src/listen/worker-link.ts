import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
import type { FinalizationDispatcher } from './dispatch.js';

export type LinkState = 'CONNECTED' | 'RECONNECT_BACKOFF' | 'DEGRADED';

/** SPEC §3.3 and §8 limits of the processing-worker link. */
export interface LinkLimits {
  maxReconnectAttempts: number;
  retriesPerRequest: number;
  pendingTimeoutMs: number;
  maxBuffered: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  degradedCooldownMs: number;
}

export const DEFAULT_LINK_LIMITS: LinkLimits = {
  maxReconnectAttempts: 6,
  retriesPerRequest: 3,
  pendingTimeoutMs: 120_000,
  maxBuffered: 100,
  backoffBaseMs: 1_000,
  backoffMaxMs: 60_000,
  degradedCooldownMs: 60_000,
};

interface Pending {
  jobId: string;
  conversationId: string;
  /** null: not sent since the last disconnect */
  sentAt: number | null;
  retries: number;
}

/**
 * A listen session's link to the finalization workers (SPEC §3.3). Requests made while the link
 * is down stay buffered (at most 100, oldest dropped) and are all re-sent on reconnect; a request
 * without a result after 120 s is re-sent, at most 3 times, then kept with its sent time reset.
 */
export class WorkerLink {
  state: LinkState = 'CONNECTED';
  private readonly pending = new Map<string, Pending>();
  private attempts = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly dispatcher: FinalizationDispatcher,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly limits: LinkLimits = DEFAULT_LINK_LIMITS,
    private readonly random: () => number = Math.random,
  ) {}

  get buffered(): number {
    return this.pending.size;
  }

  request(jobId: string, conversationId: string): void {
    if (this.pending.size >= this.limits.maxBuffered) this.dropOldest();
    const entry: Pending = { jobId, conversationId, sentAt: null, retries: 0 };
    this.pending.set(jobId, entry);
    if (this.state === 'CONNECTED') void this.send(entry, false);
  }

  /** A result arrived for the conversation (memory_created): the request is settled. */
  settle(conversationId: string): void {
    for (const [jobId, entry] of this.pending) if (entry.conversationId === conversationId) this.pending.delete(jobId);
  }

  /** Called on the session's lifecycle tick: re-sends overdue requests and drops finished ones. */
  async tick(): Promise<void> {
    if (this.state !== 'CONNECTED') return;
    const now = this.clock.now();
    for (const entry of [...this.pending.values()]) {
      if (entry.sentAt === null) {
        await this.send(entry, true);
      } else if (now - entry.sentAt >= this.limits.pendingTimeoutMs) {
        if (await this.dispatcher.isDone(entry.jobId)) {
          this.pending.delete(entry.jobId);
        } else if (entry.retries < this.limits.retriesPerRequest) {
          entry.retries++;
          await this.send(entry, true);
        } else {
          entry.sentAt = now;
        }
      }
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async send(entry: Pending, resend: boolean): Promise<void> {
    entry.sentAt = this.clock.now();
    try {
      await this.dispatcher.dispatch(entry.jobId, resend);
    } catch (err) {
      entry.sentAt = null;
      this.disconnected(err);
    }
  }

  private dropOldest(): void {
    let oldest: Pending | null = null;
    for (const entry of this.pending.values())
      if (!oldest || (entry.sentAt ?? 0) < (oldest.sentAt ?? 0)) oldest = entry;
    if (oldest) this.pending.delete(oldest.jobId);
  }

  private disconnected(err: unknown): void {
    if (this.state !== 'CONNECTED' || this.closed) return;
    this.log.warn({ err }, 'finalization worker link lost; reconnecting');
    this.state = 'RECONNECT_BACKOFF';
    this.attempts = 0;
    this.schedule(this.backoff());
  }

  private backoff(): number {
    const base = Math.min(this.limits.backoffBaseMs * 2 ** this.attempts, this.limits.backoffMaxMs);
    return Math.round(base * (0.75 + this.random() * 0.5));
  }

  private schedule(delay: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.reconnect(), delay);
    this.timer.unref();
  }

  private async reconnect(): Promise<void> {
    try {
      await this.dispatcher.probe();
    } catch {
      this.attempts++;
      if (this.attempts >= this.limits.maxReconnectAttempts || this.state === 'DEGRADED') {
        // Pending requests stay buffered; a half-open probe runs after the cooldown.
        this.state = 'DEGRADED';
        this.schedule(this.limits.degradedCooldownMs);
      } else {
        this.schedule(this.backoff());
      }
      return;
    }
    this.state = 'CONNECTED';
    this.attempts = 0;
    for (const entry of [...this.pending.values()]) await this.send(entry, true);
  }
}
