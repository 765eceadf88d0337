/** Per-process operational state that the serve command and the ops routes share (held by the ops module). */
export interface OpsState {
  /** Set on SIGTERM: /readyz answers 503 so the load balancer stops sending new work here. */
  draining: boolean;
}
