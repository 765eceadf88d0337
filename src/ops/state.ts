/** Per-process operational state that the serve command and the ops routes share. */
export interface OpsState {
  /** Set on SIGTERM: /readyz answers 503 so the load balancer stops sending new work here. */
  draining: boolean;
}

/** The process's ops state, held by its ops module. */
export function opsState(ctx: { ops: { state: OpsState } }): OpsState {
  return ctx.ops.state;
}
