import { createHash, createHmac } from 'node:crypto';

/**
 * A small client for S3-compatible object storage (AWS S3, MinIO, Ceph RGW, R2, …): the few calls
 * the audio store needs, each signed with AWS Signature Version 4 (header form, signed payload
 * hash). Written on node:crypto and fetch rather than pulling in an SDK of several megabytes.
 */

export interface S3Settings {
  bucket: string;
  /** e.g. `https://s3.eu-west-1.amazonaws.com` or `http://minio:9000` */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` (MinIO and most self-hosted servers) instead of `bucket.endpoint/key` */
  forcePathStyle: boolean;
}

/** The bucket could not be reached, or answered with an error: the message says which. */
export class S3Error extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'S3Error';
  }
}

export interface S3Request {
  method: 'GET' | 'HEAD' | 'PUT' | 'DELETE';
  /** object key, or null for the bucket itself (listing) */
  key: string | null;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Buffer;
}

const EMPTY_HASH = createHash('sha256').update('').digest('hex');
const TIMEOUT_MS = 30_000;

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters, `/` kept in paths. */
export function uriEncode(value: string, keepSlash: boolean): string {
  return Array.from(new TextEncoder().encode(value), (byte) => {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) return c;
    return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

export class S3Client {
  private readonly base: URL;

  constructor(
    readonly settings: S3Settings,
    private readonly now: () => number,
  ) {
    this.base = new URL(settings.endpoint);
  }

  /** Where a key lives: path style or virtual-hosted style. */
  url(key: string | null, query: Record<string, string> = {}): URL {
    const { bucket, forcePathStyle } = this.settings;
    const url = new URL(this.base.href);
    const root = url.pathname.replace(/\/+$/, '');
    if (!forcePathStyle) url.hostname = `${bucket}.${url.hostname}`;
    const path = forcePathStyle ? `${root}/${bucket}` : root;
    url.pathname = `${path}/${key === null ? '' : uriEncode(key, true)}`;
    url.search = canonicalQuery(query);
    return url;
  }

  /**
   * Sends one signed request. Every call here is idempotent, so a network failure is tried once
   * more (a pooled connection the server had just closed); a second failure or a timeout becomes
   * an S3Error.
   */
  async send(request: S3Request): Promise<Response> {
    const url = this.url(request.key, request.query);
    // fetch sets Host itself (the same value that was signed).
    const { host: _host, ...headers } = this.sign(request.method, url, request.headers ?? {}, request.body);
    const body = request.body ? new Uint8Array(request.body) : undefined;
    let cause: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        return await fetch(url, { method: request.method, headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
      } catch (err) {
        cause = err instanceof Error ? ((err.cause as { code?: string } | undefined)?.code ?? err.name) : err;
        if (cause === 'TimeoutError') break;
      }
    }
    throw new S3Error(`audio bucket unreachable at ${this.base.origin} (${String(cause)})`, null);
  }

  /** An S3Error for an unexpected answer, with S3's own error code when the body has one. */
  async failure(response: Response, what: string): Promise<S3Error> {
    const body = await response.text().catch(() => '');
    const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
    const detail = code ? `${response.status} ${code}` : String(response.status);
    return new S3Error(`audio bucket ${this.settings.bucket} answered ${detail} to ${what}`, response.status);
  }

  /** The request headers with `x-amz-date`, `x-amz-content-sha256` and `Authorization` added. */
  sign(method: string, url: URL, extra: Record<string, string>, body?: Buffer): Record<string, string> {
    const stamp = new Date(this.now())
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const day = stamp.slice(0, 8);
    const headers: Record<string, string> = {
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k.toLowerCase(), v.trim()])),
      host: url.host,
      'x-amz-content-sha256': body ? sha256(body) : EMPTY_HASH,
      'x-amz-date': stamp,
    };
    const names = Object.keys(headers).sort();
    const canonical = [
      method,
      url.pathname,
      url.search.replace(/^\?/, ''),
      ...names.map((name) => `${name}:${headers[name]}`),
      '',
      names.join(';'),
      headers['x-amz-content-sha256'],
    ].join('\n');
    const scope = `${day}/${this.settings.region}/s3/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256(canonical)].join('\n');
    let key = hmac(`AWS4${this.settings.secretAccessKey}`, day);
    for (const part of [this.settings.region, 's3', 'aws4_request']) key = hmac(key, part);
    const signature = createHmac('sha256', key).update(toSign).digest('hex');
    headers.authorization =
      `AWS4-HMAC-SHA256 Credential=${this.settings.accessKeyId}/${scope}, ` +
      `SignedHeaders=${names.join(';')}, Signature=${signature}`;
    return headers;
  }
}

/** Query parameters sorted by name, names and values encoded (the URL and the signature agree). */
function canonicalQuery(query: Record<string, string>): string {
  return Object.keys(query)
    .sort()
    .map((name) => `${uriEncode(name, false)}=${uriEncode(query[name], false)}`)
    .join('&');
}
