/**
 * A per-user cap on long-lived connections (notification streams, listen sockets), counted in this
 * process: with several processes behind a load balancer a user may hold up to the cap on each
 * (docs/deployment.md "Connection limits").
 */
export class UserConnectionSlots {
  private readonly held = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Takes one of the user's slots: a release to call once the connection is gone (calling it again does nothing), or null when all are taken. */
  tryAcquire(userId: string): (() => void) | null {
    const count = this.held.get(userId) ?? 0;
    if (count >= this.limit) return null;
    this.held.set(userId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(userId) ?? 1) - 1;
      if (left > 0) this.held.set(userId, left);
      else this.held.delete(userId);
    };
  }

  /** How many connections the user holds now. */
  count(userId: string): number {
    return this.held.get(userId) ?? 0;
  }
}
