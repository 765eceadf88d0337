import WebSocket from 'ws';
import {
  type SttCallbacks,
  SttFailure,
  type SttOpenOptions,
  type SttProvider,
  type SttSession,
  wordsToSegments,
} from './port.js';

const NAME = 'deepgram';
const KEEPALIVE_MS = 5_000;
const CONNECT_TIMEOUT_MS = 10_000;

interface DeepgramWord {
  word: string;
  start: number;
  end: number;
  speaker?: number;
  punctuated_word?: string;
}

interface DeepgramResults {
  type: 'Results';
  is_final?: boolean;
  channel?: { alternatives?: Array<{ transcript?: string; words?: DeepgramWord[] }> };
}

/**
 * Deepgram's live API over WebSocket. `baseUrl` is DEEPGRAM_URL (https://… or wss://…), so tests
 * run a local server speaking the same protocol.
 */
export class DeepgramProvider implements SttProvider {
  readonly name = NAME;

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl: string,
    private readonly model = 'nova-3',
  ) {}

  async open(options: SttOpenOptions, callbacks: SttCallbacks): Promise<SttSession> {
    const url = new URL('/v1/listen', this.baseUrl.replace(/^http/, 'ws'));
    const query = {
      encoding: 'linear16',
      sample_rate: String(options.sampleRate),
      channels: '1',
      model: this.model,
      language: options.language === 'auto' ? 'multi' : options.language,
      diarize: 'true',
      punctuate: 'true',
      interim_results: 'false',
    };
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const socket = new WebSocket(url, { headers: { Authorization: `Token ${this.apiKey}` } });
    await connected(socket);
    return new DeepgramSession(socket, callbacks);
  }
}

function connected(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('connect timeout')), CONNECT_TIMEOUT_MS);
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.terminate();
      const auth = /401|403/.test(err.message);
      reject(
        new SttFailure(NAME, 'initialization_failed', auth ? 'config_error' : 'upstream_error', !auth, err.message),
      );
    };
    socket.once('open', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('unexpected-response', (_req, res) => fail(new Error(`HTTP ${res.statusCode}`)));
    socket.once('error', fail);
  });
}

class DeepgramSession implements SttSession {
  readonly provider = NAME;
  private finished = false;
  private failed = false;
  private lastSend = Date.now();
  private readonly keepalive: NodeJS.Timeout;
  private readonly closed: Promise<void>;

  constructor(
    private readonly socket: WebSocket,
    private readonly callbacks: SttCallbacks,
  ) {
    socket.on('message', (data, isBinary) => {
      if (!isBinary) this.handle(data.toString());
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    this.closed.then(() => {
      clearInterval(this.keepalive);
      if (!this.finished) this.fail('connection_lost', 'provider socket closed');
    });
    // Deepgram closes an idle stream after ~10 s; a KeepAlive message holds it open through silence.
    this.keepalive = setInterval(() => {
      if (Date.now() - this.lastSend >= KEEPALIVE_MS && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify({ type: 'KeepAlive' }));
      }
    }, KEEPALIVE_MS);
    this.keepalive.unref();
  }

  sendAudio(pcm16: Buffer): void {
    if (this.finished || this.failed) return;
    if (this.socket.readyState !== WebSocket.OPEN) {
      this.fail('socket_unavailable', 'provider socket is not open');
      return;
    }
    this.lastSend = Date.now();
    this.socket.send(pcm16, (err) => {
      if (err) this.fail('send_failed', err.message);
    });
  }

  async finish(): Promise<void> {
    if (this.finished) return this.closed;
    this.finished = true;
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: 'CloseStream' }));
    else this.socket.terminate();
    return this.closed;
  }

  close(): void {
    this.finished = true;
    clearInterval(this.keepalive);
    this.socket.terminate();
  }

  private handle(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!isResults(message) || message.is_final === false) return;
    const words = message.channel?.alternatives?.[0]?.words ?? [];
    const segments = wordsToSegments(words.filter((w) => typeof w.word === 'string' && w.word !== ''));
    if (segments.length > 0) this.callbacks.onSegments(segments);
  }

  private fail(reason: 'connection_lost' | 'send_failed' | 'socket_unavailable', message: string): void {
    if (this.failed) return;
    this.failed = true;
    this.callbacks.onError(new SttFailure(NAME, reason, 'upstream_error', true, message));
  }
}

function isResults(value: unknown): value is DeepgramResults {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Results';
}
