/** A counting semaphore per key: at most `limit` holders of each key at once, later callers queue. */
export class Slots {
  private readonly keys = new Map<string, { active: number; waiting: Array<(granted: boolean) => void> }>();

  constructor(private readonly limit: number) {}

  /** Resolves true once a slot of `key` is held, or false after `waitMs` without one. */
  acquire(key: string, waitMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    const entry = this.keys.get(key) ?? { active: 0, waiting: [] };
    this.keys.set(key, entry);
    if (entry.active < this.limit) {
      entry.active++;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      let timer: NodeJS.Timeout | null = null;
      const grant = (granted: boolean) => {
        if (timer) clearTimeout(timer);
        resolve(granted);
      };
      entry.waiting.push(grant);
      if (Number.isFinite(waitMs)) {
        timer = setTimeout(() => {
          entry.waiting.splice(entry.waiting.indexOf(grant), 1);
          this.forgetIfIdle(key, entry);
          resolve(false);
        }, waitMs);
      }
    });
  }

  /** Hands the slot to the next waiter, or frees it. */
  release(key: string): void {
    const entry = this.keys.get(key);
    if (!entry) return;
    const next = entry.waiting.shift();
    if (next) {
      next(true);
      return;
    }
    entry.active--;
    this.forgetIfIdle(key, entry);
  }

  private forgetIfIdle(key: string, entry: { active: number; waiting: unknown[] }): void {
    if (entry.active <= 0 && entry.waiting.length === 0) this.keys.delete(key);
  }
}
