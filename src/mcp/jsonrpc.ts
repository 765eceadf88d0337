import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** JSON-RPC 2.0 error codes used by the Model Context Protocol. */
export const RpcCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export type Params = Record<string, unknown>;
export type MethodHandler = (params: Params) => Promise<unknown>;

interface Incoming {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/**
 * The stdio transport of MCP: one JSON-RPC message per line on stdin and stdout (stdout carries
 * nothing else; diagnostics go to stderr). Requests are answered in any order; notifications are not.
 */
export class JsonRpcPeer {
  private pending = new Set<Promise<void>>();

  constructor(
    private readonly methods: Map<string, MethodHandler>,
    private readonly output: Writable,
    private readonly log: (message: string) => void,
  ) {}

  /** Serves until the input ends, then waits for the answers still being computed. */
  async serve(input: Readable): Promise<void> {
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const work = this.handleLine(line).catch((err: unknown) => this.log(`mcp: ${String(err)}`));
      this.pending.add(work);
      void work.finally(() => this.pending.delete(work));
    }
    await Promise.all(this.pending);
  }

  private send(message: Record<string, unknown>): void {
    this.output.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  private async handleLine(line: string): Promise<void> {
    let message: Incoming;
    try {
      message = JSON.parse(line) as Incoming;
    } catch {
      return this.send({ id: null, error: { code: RpcCode.parseError, message: 'Parse error' } });
    }
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
    if (
      typeof message !== 'object' ||
      message === null ||
      Array.isArray(message) ||
      message.jsonrpc !== '2.0' ||
      typeof message.method !== 'string'
    ) {
      // A response from the client (we send no requests) or malformed input.
      if (message && typeof message === 'object' && ('result' in message || 'error' in message)) return;
      return this.send({ id, error: { code: RpcCode.invalidRequest, message: 'Invalid Request' } });
    }
    const params = (typeof message.params === 'object' && message.params !== null ? message.params : {}) as Params;
    const handler = this.methods.get(message.method);
    if (id === null) {
      // A notification: no answer, whatever happens.
      if (handler) await handler(params).catch((err: unknown) => this.log(`mcp: ${message.method}: ${String(err)}`));
      return;
    }
    if (!handler)
      return this.send({ id, error: { code: RpcCode.methodNotFound, message: `Method not found: ${message.method}` } });
    try {
      this.send({ id, result: await handler(params) });
    } catch (err) {
      const code = err instanceof RpcError ? err.code : RpcCode.internalError;
      if (!(err instanceof RpcError))
        this.log(`mcp: ${message.method} failed: ${err instanceof Error ? err.stack : String(err)}`);
      this.send({ id, error: { code, message: err instanceof Error ? err.message : String(err) } });
    }
  }
}
