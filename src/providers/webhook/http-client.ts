import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type AgentPair, createAgents } from './agents.js';
import { Slots } from './slots.js';
import { assertPublicUrl } from './ssrf.js';

export interface OutgoingPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Refuse private-network targets (app webhooks; the operator's push gateway is trusted). */
  publicOnly: boolean;
}

export interface PostResult {
  status: number;
  /** The response body, cut at MAX_RESPONSE_BYTES. */
  body: string;
}

export class WebhookTimeoutError extends Error {
  override readonly name = 'WebhookTimeoutError';
}

// A reply only needs room for a notification template; anything longer is cut, never buffered whole.
const MAX_RESPONSE_BYTES = 256 * 1024;

/**
 * Outgoing JSON POSTs with a hard timeout, no redirects, keep-alive sockets and, for app webhooks,
 * the SSRF guard checked on the resolved address of every new connection. The trusted push gateway
 * and app webhooks never share a socket.
 */
export class WebhookHttpClient {
  private readonly trusted: AgentPair;
  private readonly untrusted: AgentPair;
  private readonly slots: Slots;

  /** `resolve` is the DNS lookup (tests pass their own answers). */
  constructor(
    private readonly allowPrivate: boolean,
    maxInFlight: number,
    resolve: LookupFunction = dnsLookup,
  ) {
    this.slots = new Slots(maxInFlight);
    this.trusted = createAgents('trusted', resolve);
    this.untrusted = createAgents(allowPrivate ? 'trusted' : 'public-only', resolve);
  }

  /** Waits for one of `maxInFlight` slots, so a burst of deliveries never opens unbounded sockets. */
  async post(request: OutgoingPost): Promise<PostResult> {
    await this.slots.acquire('all');
    try {
      return await this.send(request);
    } finally {
      this.slots.release('all');
    }
  }

  private send(request: OutgoingPost): Promise<PostResult> {
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return Promise.reject(new Error(`unsupported scheme ${url.protocol}`));
    const guard = request.publicOnly && !this.allowPrivate;
    if (guard) assertPublicUrl(url);
    const payload = Buffer.from(request.body, 'utf8');
    const send = url.protocol === 'https:' ? https.request : http.request;
    return new Promise<PostResult>((resolve, reject) => {
      const req = send(url, {
        method: 'POST',
        agent: (request.publicOnly ? this.untrusted : this.trusted)[url.protocol as 'http:' | 'https:'],
        headers: { 'content-type': 'application/json', 'content-length': String(payload.length), ...request.headers },
      });
      const timer = setTimeout(
        () => req.destroy(new WebhookTimeoutError(`no answer within ${request.timeoutMs} ms`)),
        request.timeoutMs,
      );
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8'),
          });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(payload);
    });
  }

  close(): void {
    this.trusted.destroy();
    this.untrusted.destroy();
  }
}
