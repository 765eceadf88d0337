import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

type Json = Record<string, unknown>;

/** A source that cannot be read as a whole (not an export, a refused key): the import stops with it. */
export class ImportSourceError extends Error {}

/** What the import learns about a source besides its records. */
export interface SourceState {
  /** The export's trailer was read (a cut download has none). */
  complete: boolean;
}

/**
 * Keepsake's NDJSON export (GET /v1/dev/user/export): a header, records, a trailer. Read line by line,
 * so memory does not grow with the file.
 */
export async function* exportFile(path: string, state: SourceState): AsyncGenerator<Json> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  let lineNo = 0;
  try {
    for await (const text of lines) {
      lineNo += 1;
      if (text.trim() === '') continue;
      let record: Json;
      try {
        record = JSON.parse(text) as Json;
      } catch {
        throw new ImportSourceError(`${path}:${lineNo} is not JSON`);
      }
      if (lineNo === 1) {
        if (record.type !== 'export') throw new ImportSourceError(`${path} is not a Keepsake export (no header line)`);
        if (record.version !== 1)
          throw new ImportSourceError(`${path} is export version ${record.version}; this import reads version 1`);
        continue;
      }
      if (record.type === 'end') {
        state.complete = true;
        continue;
      }
      yield record;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ImportSourceError(`${path} does not exist`);
    throw err;
  }
}

const PAGE = 100;

/** The developer API's collections, in the order references need them (conversations before their items). */
const COLLECTIONS: ReadonlyArray<{ type: string; path: string; query: string; optional?: boolean }> = [
  { type: 'folder', path: '/v1/dev/user/folders', query: '', optional: true },
  { type: 'conversation', path: '/v1/dev/user/conversations', query: 'include_transcript=true' },
  { type: 'memory', path: '/v1/dev/user/memories', query: '' },
  { type: 'action_item', path: '/v1/dev/user/action-items', query: '' },
  { type: 'goal', path: '/v1/dev/user/goals', query: 'include_inactive=true', optional: true },
];

/**
 * Pages through a server that speaks the Omi developer API (Omi's hosted service or another Keepsake)
 * with a developer key. Waits out 429s (Retry-After) and retries 5xx and network errors a few times.
 */
export async function* developerApi(base: string, key: string, state: SourceState): AsyncGenerator<Json> {
  const root = base.replace(/\/+$/, '');
  for (const collection of COLLECTIONS) {
    // Folders and goals lists are short and not paged everywhere: one large page.
    const paged = collection.type !== 'folder' && collection.type !== 'goal';
    for (let offset = 0; ; offset += PAGE) {
      const params = [collection.query, paged ? `limit=${PAGE}&offset=${offset}` : 'limit=1000'].filter(Boolean);
      const page = await getJson(`${root}${collection.path}?${params.join('&')}`, key, collection.optional === true);
      if (page === null) break;
      if (!Array.isArray(page)) throw new ImportSourceError(`${collection.path} did not answer a list`);
      for (const item of page) if (typeof item === 'object' && item !== null) yield { ...item, type: collection.type };
      if (!paged || page.length < PAGE) break;
    }
  }
  state.complete = true;
}

/** GET with the key; null for a 404 on an optional collection. */
async function getJson(url: string, key: string, optional: boolean): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) });
    } catch (err) {
      if (attempt < 5) {
        await pause(attempt * 1000);
        continue;
      }
      const cause =
        (err as { cause?: { code?: string } }).cause?.code ?? (err instanceof Error ? err.message : String(err));
      throw new ImportSourceError(`cannot reach ${new URL(url).origin} (${cause})`);
    }
    if (response.ok) return response.json();
    if (response.status === 404 && optional) return null;
    if (response.status === 401 || response.status === 403)
      throw new ImportSourceError(`the source refused the key (HTTP ${response.status}); it needs the read scopes`);
    if ((response.status === 429 || response.status >= 500) && attempt < 8) {
      const retryAfter = Number(response.headers.get('retry-after'));
      await pause(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 60) * 1000 : attempt * 1000);
      continue;
    }
    throw new ImportSourceError(`${new URL(url).pathname} answered HTTP ${response.status}`);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
