import type { Logger } from 'pino';
import WebSocket from 'ws';

/**
 * A live session's socket and its one serial chain of work: every state change runs in order, and a
 * failed step closes the socket with 1011 after logging why.
 */
export class SessionSocket {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    readonly socket: WebSocket,
    private readonly log: Logger,
    private readonly userId: string,
  ) {}

  serial(work: () => Promise<void>): Promise<void> {
    const run = this.chain.then(work);
    this.chain = run.catch((err) => {
      this.log.error({ err, userId: this.userId }, 'listen session operation failed');
      this.close(1011, 'internal error');
    });
    return run;
  }

  send(payload: unknown): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }

  close(code: number, reason: string): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING)
      this.socket.close(code, reason);
  }
}
