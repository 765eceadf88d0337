import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { S3Client, S3Error, type S3Settings } from './s3.js';
import { type AudioObjectStore, checkKey } from './store.js';

/** Deletes sent at once when a conversation's audio goes. */
const DELETE_LANES = 8;

/**
 * Captured audio in an S3-compatible bucket (AUDIO_STORE=s3, docs/deployment.md). Keys are the
 * store's keys under an optional prefix. S3 has no append: appending reads the object's first
 * `offset` bytes and writes them back with the new data, which is also what makes a retried write
 * safe (parts are at most 60 s, 1.9 MB).
 */
export class S3AudioStore implements AudioObjectStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly prefix: string;

  constructor(settings: S3Settings & { prefix: string }, now: () => number) {
    this.client = new S3Client(settings, now);
    this.prefix = settings.prefix ? `${settings.prefix}/` : '';
  }

  private key(key: string): string {
    return this.prefix + checkKey(key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const response = await this.client.send({ method: 'PUT', key: this.key(key), body: data });
    if (!response.ok) throw await this.client.failure(response, `PUT ${key}`);
    await response.arrayBuffer();
  }

  async writeAt(key: string, offset: number, data: Buffer): Promise<void> {
    const before = offset === 0 ? Buffer.alloc(0) : await this.range(key, 0, offset - 1);
    if (before.length < offset)
      throw new S3Error(`audio object ${key} is shorter (${before.length}) than ${offset}`, null);
    await this.put(key, Buffer.concat([before, data]));
  }

  async get(key: string): Promise<Buffer | null> {
    const response = await this.client.send({ method: 'GET', key: this.key(key) });
    if (response.status === 404) return drained(response, null);
    if (!response.ok) throw await this.client.failure(response, `GET ${key}`);
    return Buffer.from(await response.arrayBuffer());
  }

  async size(key: string): Promise<number | null> {
    const response = await this.client.send({ method: 'HEAD', key: this.key(key) });
    if (response.status === 404) return drained(response, null);
    if (!response.ok) throw await this.client.failure(response, `HEAD ${key}`);
    return drained(response, Number(response.headers.get('content-length') ?? 0));
  }

  /** Opens a ranged GET: an unreachable bucket fails here, before anything is sent to a client. */
  async stream(key: string, start: number, end: number): Promise<Readable> {
    const response = await this.client.send({
      method: 'GET',
      key: this.key(key),
      headers: { range: `bytes=${start}-${end}` },
    });
    if (response.status !== 206 && response.status !== 200) throw await this.client.failure(response, `GET ${key}`);
    if (!response.body) return Readable.from([]);
    const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    // A server that ignored the range sent the whole object: keep only the asked bytes.
    return response.status === 206 ? body : Readable.from(slice(body, start, end));
  }

  async delete(key: string): Promise<void> {
    const response = await this.client.send({ method: 'DELETE', key: this.key(key) });
    if (!response.ok && response.status !== 404) throw await this.client.failure(response, `DELETE ${key}`);
    await response.arrayBuffer();
  }

  async deletePrefix(prefix: string): Promise<void> {
    const keys = await this.list(`${this.key(prefix)}/`);
    let next = 0;
    const lane = async () => {
      for (let key = keys[next++]; key !== undefined; key = keys[next++]) {
        const response = await this.client.send({ method: 'DELETE', key });
        if (!response.ok && response.status !== 404) throw await this.client.failure(response, `DELETE ${key}`);
        await response.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: Math.min(DELETE_LANES, keys.length) }, lane));
  }

  /** Every full key under `prefix` (ListObjectsV2, page by page). */
  private async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | null = null;
    do {
      const query: Record<string, string> = { 'list-type': '2', prefix };
      if (token) query['continuation-token'] = token;
      const response = await this.client.send({ method: 'GET', key: null, query });
      if (!response.ok) throw await this.client.failure(response, `LIST ${prefix}`);
      const xml = await response.text();
      for (const match of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) keys.push(unescapeXml(match[1]));
      const truncated = /<IsTruncated>true<\/IsTruncated>/.test(xml);
      token = truncated ? unescapeXml(/<NextContinuationToken>([^<]*)</.exec(xml)?.[1] ?? '') || null : null;
    } while (token);
    return keys;
  }

  private async range(key: string, start: number, end: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.stream(key, start, end)) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }
}

async function drained<T>(response: Response, value: T): Promise<T> {
  await response.arrayBuffer().catch(() => undefined);
  return value;
}

async function* slice(body: Readable, start: number, end: number): AsyncGenerator<Buffer> {
  let at = 0;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk as Uint8Array);
    const from = Math.max(0, start - at);
    const to = Math.min(buffer.length, end + 1 - at);
    if (to > from) yield buffer.subarray(from, to);
    at += buffer.length;
    if (at > end) break;
  }
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
