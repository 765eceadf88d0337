import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { type Config, DEFAULT_LISTEN_TIMINGS, type ListenTimings } from '../../src/config.js';
import type { Clock } from '../../src/context-types.js';
import type { TextEngine } from '../../src/processing/engine.js';
import { createTestApp, createUser, type DialectUnderTest, type TestApp, type TestUser } from '../helpers/app.js';

/** Timers short enough for tests; silence and inactivity are driven by a ManualClock instead. */
export const FAST_TIMINGS: ListenTimings = {
  ...DEFAULT_LISTEN_TIMINGS,
  lifecycleCheckMs: 15,
  pingMs: 40,
  drainMs: 2_000,
  webAuthTimeoutMs: 300,
};

export interface ListenServer {
  t: TestApp;
  base: string;
  user: TestUser;
  close(): Promise<void>;
}

/** A test app listening on a real port (WebSockets need one) with a user. */
export async function listenServer(
  dialect: DialectUnderTest,
  options: { clock?: Clock; config?: Partial<Config>; timings?: Partial<ListenTimings>; engine?: TextEngine } = {},
): Promise<ListenServer> {
  const t = await createTestApp(dialect, {
    clock: options.clock,
    engine: options.engine,
    config: {
      stt: { ...defaultStt(), provider: 'none' },
      ...options.config,
      listen: { ...FAST_TIMINGS, ...options.timings },
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const user = await createUser(t.ctx);
  return { t, base: `ws://127.0.0.1:${port}`, user, close: () => t.close() };
}

function defaultStt(): Config['stt'] {
  return {
    provider: 'none',
    deepgramApiKey: null,
    deepgramUrl: 'wss://api.deepgram.com',
    baseUrl: null,
    apiKey: null,
    modelDir: null,
  };
}

/** STT settings for a test server: the defaults with `provider: auto`, then the overrides. */
export const sttConfig = (overrides: Partial<Config['stt']>): Config['stt'] => ({
  ...defaultStt(),
  provider: 'auto',
  ...overrides,
});

export type Frame = string | Record<string, unknown> | Array<Record<string, unknown>>;

/** A WebSocket client that records every frame and the close code. */
export class ListenClient {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: Array<() => void> = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      this.frames.push(text === 'ping' ? text : (JSON.parse(text) as Frame));
      this.notify();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.notify();
    });
    ws.on('error', () => undefined);
  }

  static async connect(url: string, headers: Record<string, string> = {}): Promise<ListenClient> {
    const client = new ListenClient(new WebSocket(url, { headers }));
    await new Promise<void>((resolve) => {
      client.ws.once('open', () => resolve());
      client.ws.once('close', () => resolve());
      client.ws.once('unexpected-response', () => resolve());
    });
    return client;
  }

  events(type: string): Array<Record<string, unknown>> {
    return this.frames.filter((f): f is Record<string, unknown> => isEvent(f) && f.type === type);
  }

  transcripts(): Array<Record<string, unknown>> {
    return this.frames.filter((f): f is Array<Record<string, unknown>> => Array.isArray(f)).flat();
  }

  async waitFor<T>(probe: () => T | undefined | null | false, timeoutMs = 5_000, what = 'condition'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value) return value;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; frames: ${JSON.stringify(this.frames).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 25);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  waitForEvent(type: string, count = 1, timeoutMs = 5_000): Promise<Array<Record<string, unknown>>> {
    return this.waitFor(
      () => (this.events(type).length >= count ? this.events(type) : null),
      timeoutMs,
      `${count} ${type}`,
    );
  }

  waitForClose(timeoutMs = 5_000): Promise<{ code: number; reason: string }> {
    return this.waitFor(() => this.closed, timeoutMs, 'close');
  }

  send(payload: unknown): void {
    this.ws.send(typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload));
  }

  async close(code = 1000): Promise<void> {
    if (this.closed) return;
    this.ws.close(code);
    await this.waitForClose();
  }

  private notify(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}

function isEvent(frame: Frame): frame is Record<string, unknown> {
  return typeof frame === 'object' && !Array.isArray(frame);
}

export function listenUrl(base: string, query: Record<string, string | number> = {}, path = '/v4/listen'): string {
  const params = new URLSearchParams(
    Object.entries({ sample_rate: 16000, codec: 'pcm16', ...query }).map(([k, v]) => [k, String(v)]),
  );
  return `${base}${path}?${params}`;
}

export function segment(text: string, start: number, end: number, extra: Record<string, unknown> = {}) {
  return { text, start, end, speaker: 'SPEAKER_00', ...extra };
}

export function suggest(...segments: Array<ReturnType<typeof segment>>) {
  return { type: 'suggested_transcript', segments };
}
