import { ClientError, EXIT, exitCodeFor } from './errors.js';
import type { ClientSettings } from './settings.js';

export type Query = Record<string, string | number | boolean | undefined>;

/** The `detail` of an error body as one line (a string, or FastAPI-style validation issues). */
function describe(body: unknown): string | null {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((issue) => {
        const { loc, msg } = issue as { loc?: unknown[]; msg?: string };
        return `${Array.isArray(loc) ? loc.join('.') : 'input'}: ${msg ?? 'invalid'}`;
      })
      .join('; ');
  }
  return detail === undefined ? null : JSON.stringify(detail);
}

/** A thin client of the developer API: JSON in and out, errors mapped to exit codes. */
export class ApiClient {
  constructor(
    private readonly settings: ClientSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  url(path: string, query: Query = {}): string {
    const url = new URL(this.settings.baseUrl + path);
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(name, String(value));
    return url.toString();
  }

  async request(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetchImpl(this.url(path, options.query), {
        method,
        headers: {
          authorization: `Bearer ${this.settings.apiKey}`,
          accept: 'application/json',
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new ClientError(EXIT.other, `cannot reach ${this.settings.baseUrl} (${cause})`);
    }
    if (!response.ok) await this.fail(response);
    return response;
  }

  async json<T>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    return (await (await this.request(method, path, options)).json()) as T;
  }

  private async fail(response: Response): Promise<never> {
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    let message = `HTTP ${response.status}: ${describe(body) ?? (text.slice(0, 200) || response.statusText)}`;
    const retryAfter = response.headers.get('retry-after');
    if (response.status === 429 && retryAfter) message += ` (retry after ${retryAfter} s)`;
    throw new ClientError(exitCodeFor(response.status), message);
  }
}
