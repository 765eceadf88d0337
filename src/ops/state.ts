import type { AppContext } from '../context.js';

/** Per-process operational state that the serve command and the ops routes share. */
export interface OpsState {
  /** Set on SIGTERM: /readyz answers 503 so the load balancer stops sending new work here. */
  draining: boolean;
}

const states = new WeakMap<AppContext, OpsState>();

export function opsState(ctx: AppContext): OpsState {
  let state = states.get(ctx);
  if (!state) {
    state = { draining: false };
    states.set(ctx, state);
  }
  return state;
}
