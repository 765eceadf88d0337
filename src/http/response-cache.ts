import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DataVersionsRepository } from '../store/repositories/data-versions.js';

/**
 * Cached developer-API reads. A route opts in with `config: { cache: {} }`; its 200 bodies are kept per
 * (user, route, query) together with the user's data version, which database triggers bump on every write
 * a cached read depends on (migration 0070). A request is answered from the cache only while that version
 * is unchanged, so a cached body is never stale, whichever process or tool made the write. Every cached
 * route also answers `If-None-Match` with 304 (its ETag carries the version).
 *
 * Authentication, scopes and rate limits run before the lookup, so a cached answer costs the caller the
 * same quota as a fresh one.
 */
export interface RouteCache {
  /** Whether this request's response may be cached (e.g. not with the transcript included). */
  when?: (request: FastifyRequest) => boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    cache?: RouteCache;
  }
  interface FastifyRequest {
    /** Set by the lookup when the response should be stored (a miss) and carries the ETag to send. */
    cacheSlot?: { key: string; version: number; etag: string; digest: string };
  }
}

interface Entry {
  version: number;
  /** digest of the key, the stable half of the ETag */
  digest: string;
  /** UTF-8 bytes, encoded once rather than on every send. */
  body: Buffer;
}

const require = createRequire(import.meta.url);
// A new release may change a representation: its ETags must not match the old ones.
const RELEASE = (require('../../package.json') as { version: string }).version;
const CACHE_CONTROL = 'private, no-cache';
const JSON_TYPE = 'application/json; charset=utf-8';

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly versions: DataVersionsRepository,
    private readonly maxBytes: number,
  ) {}

  /**
   * After authentication: answers 304 or the cached body when the user's version still matches; otherwise
   * marks the request so `store` keeps its body. The version is read before the handler reads the data,
   * so a body is never stored under a version newer than the data it was built from.
   */
  async lookup(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const route = request.routeOptions.config.cache;
    const userId = request.devKey?.userId;
    if (!route || !userId || (route.when && !route.when(request))) return;
    const version = await this.versions.current(userId);
    const key = `${userId}\n${request.routeOptions.url}\n${canonicalQuery(request.query)}`;
    const entry = this.maxBytes > 0 ? this.entries.get(key) : undefined;
    // The key's digest is kept with its entry: a hit hashes nothing.
    const keyDigest = entry?.digest ?? digest(key);
    const etag = `W/"${version}-${keyDigest}"`;
    reply.header('cache-control', CACHE_CONTROL);
    if (matches(request.headers['if-none-match'], etag)) {
      reply.code(304).header('etag', etag).send();
      return;
    }
    if (entry && entry.version === version) {
      this.hits++;
      // Most recently used last: eviction takes from the front.
      this.entries.delete(key);
      this.entries.set(key, entry);
      reply.header('etag', etag).type(JSON_TYPE).send(entry.body);
      return;
    }
    this.misses++;
    request.cacheSlot = { key, version, etag, digest: keyDigest };
  }

  /**
   * onSend: keeps a fresh 200 body of a marked request and sends its ETag. Returns the payload to send:
   * the kept bytes themselves, so the body is encoded once.
   */
  store(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    const slot = request.cacheSlot;
    if (!slot || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    reply.header('etag', slot.etag);
    // A string holds at least one UTF-8 byte per UTF-16 unit: a body too large to keep is known unencoded.
    if (payload.length > this.maxBytes / 8) return payload;
    const body = Buffer.from(payload);
    if (body.length > this.maxBytes / 8) return body;
    this.remove(slot.key);
    this.entries.set(slot.key, { version: slot.version, digest: slot.digest, body });
    this.bytes += body.length;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
    return body;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.body.length;
    this.entries.delete(key);
  }
}

/** The validated query with its keys sorted, so parameter order does not split the cache. */
function canonicalQuery(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const record = query as Record<string, unknown>;
  return JSON.stringify(
    Object.keys(record)
      .sort()
      .map((k) => [k, record[k]]),
  );
}

function digest(key: string): string {
  return createHash('sha256').update(RELEASE).update('\n').update(key).digest('base64url').slice(0, 16);
}

/** RFC 9110 §13.1.2: weak comparison against a list of tags, or `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.slice(2);
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === etag || t === bare;
  });
}

/** Responses with the transcript are not cached: speaker names come from people and the user's name. */
export const cacheUnlessTranscript: RouteCache = {
  when: (request) => (request.query as { include_transcript?: unknown } | undefined)?.include_transcript !== true,
};
