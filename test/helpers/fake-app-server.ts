import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call the fake app received, as it arrived on the wire. */
export interface RecordedCall {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  json: unknown;
  /** Whether X-Keepsake-Signature verified with the path's secret (null when no secret was set for it). */
  signatureValid: boolean | null;
  receivedAt: number;
}

/** What the app answers: a status and JSON, or `stall` (never answers until the server closes). */
export type Behaviour = { status: number; json?: unknown } | 'stall';

/**
 * A real HTTP server playing a third-party app: it records every call, verifies the webhook signature
 * the way an app would (HMAC-SHA256 of "t.body" with the app secret), and answers per path with
 * JSON, failures or stalls.
 */
export class FakeAppServer {
  readonly calls: RecordedCall[] = [];
  private readonly behaviours = new Map<string, Behaviour | ((call: RecordedCall) => Behaviour)>();
  private readonly secrets = new Map<string, string>();
  private readonly stalled = new Set<ServerResponse>();
  private readonly waiters: Array<() => void> = [];
  private server: Server | null = null;
  url = '';

  static async start(): Promise<FakeAppServer> {
    const fake = new FakeAppServer();
    await fake.listen();
    return fake;
  }

  /** How calls to `path` are answered (default: 200 `{}`). */
  on(path: string, behaviour: Behaviour | ((call: RecordedCall) => Behaviour)): this {
    this.behaviours.set(path, behaviour);
    return this;
  }

  /** Verify signatures of calls to `path` with this app secret. */
  verifyWith(path: string, secret: string): this {
    this.secrets.set(path, secret);
    return this;
  }

  callsTo(path: string): RecordedCall[] {
    return this.calls.filter((c) => c.path === path);
  }

  /** Resolves once `count` calls matched, or rejects after `timeoutMs`. */
  async waitFor(count: number, path?: string, timeoutMs = 5000): Promise<RecordedCall[]> {
    const matching = () => (path ? this.callsTo(path) : this.calls);
    const deadline = Date.now() + timeoutMs;
    while (matching().length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} calls${path ? ` to ${path}` : ''}, got ${matching().length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return matching();
  }

  async close(): Promise<void> {
    for (const res of this.stalled) res.destroy();
    this.stalled.clear();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async listen(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    let json: unknown = null;
    try {
      json = body === '' ? null : JSON.parse(body);
    } catch {
      json = null;
    }
    const secret = this.secrets.get(url.pathname);
    const call: RecordedCall = {
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      json,
      signatureValid: secret === undefined ? null : verifySignature(secret, req.headers['x-keepsake-signature'], body),
      receivedAt: Date.now(),
    };
    this.calls.push(call);
    for (const wake of this.waiters.splice(0)) wake();
    const configured = this.behaviours.get(url.pathname) ?? { status: 200, json: {} };
    const behaviour = typeof configured === 'function' ? configured(call) : configured;
    if (behaviour === 'stall') {
      this.stalled.add(res);
      return;
    }
    res.writeHead(behaviour.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(behaviour.json ?? {}));
  }
}

/** An app's check of `t=<unix>,v1=<hex>`: recompute the HMAC over "t.body" and compare in constant time. */
export function verifySignature(secret: string, header: string | string[] | undefined, body: string): boolean {
  if (typeof header !== 'string') return false;
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const t = parts.t;
  const v1 = parts.v1;
  if (!t || !v1 || !/^\d+$/.test(t)) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
