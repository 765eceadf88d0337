import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

/**
 * A local server speaking Deepgram's live protocol: GET /v1/listen upgraded to a WebSocket,
 * `Authorization: Token <key>`, binary linear16 audio in, JSON `Results` messages out, `KeepAlive`
 * and `CloseStream` text messages. A test scripts the results it returns per audio received.
 */
export interface FakeDeepgramConnection {
  socket: WebSocket;
  url: URL;
  authorization: string | undefined;
  audioBytes: number;
  textMessages: string[];
}

export interface FakeDeepgram {
  url: string;
  connections: FakeDeepgramConnection[];
  /** Words returned (as one final Results message) once this many audio bytes arrived. */
  respondAfterBytes(bytes: number, words: DeepgramWord[]): void;
  /** Reject upgrades with this HTTP status (e.g. 401 for a bad key). */
  rejectWith(status: number | null): void;
  /** Forgets the scripted results (connections opened later get only results scripted after this). */
  clearScripts(): void;
  close(): Promise<void>;
}

export interface DeepgramWord {
  word: string;
  start: number;
  end: number;
  speaker?: number;
  punctuated_word?: string;
}

export async function startFakeDeepgram(apiKey = 'test-key'): Promise<FakeDeepgram> {
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  const connections: FakeDeepgramConnection[] = [];
  const scripts: Array<{ bytes: number; words: DeepgramWord[] }> = [];
  let rejectStatus: number | null = null;

  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const status =
      rejectStatus ??
      (url.pathname !== '/v1/listen' ? 404 : req.headers.authorization !== `Token ${apiKey}` ? 401 : null);
    if (status) {
      socket.end(`HTTP/1.1 ${status} Rejected\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: FakeDeepgramConnection = {
        socket: ws,
        url,
        authorization: req.headers.authorization,
        audioBytes: 0,
        textMessages: [],
      };
      connections.push(connection);
      const pending = scripts.map((s) => ({ ...s }));
      ws.on('message', (data, isBinary) => {
        if (!isBinary) {
          const text = data.toString();
          connection.textMessages.push(text);
          if (JSON.parse(text).type === 'CloseStream') ws.close(1000);
          return;
        }
        connection.audioBytes += (data as Buffer).length;
        while (pending.length > 0 && connection.audioBytes >= pending[0].bytes) {
          const script = pending.shift();
          if (script) ws.send(JSON.stringify(results(script.words)));
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections,
    respondAfterBytes(bytes, words) {
      scripts.push({ bytes, words });
    },
    rejectWith(status) {
      rejectStatus = status;
    },
    clearScripts() {
      scripts.length = 0;
    },
    async close() {
      for (const c of connections) c.socket.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function results(words: DeepgramWord[]) {
  const start = words[0]?.start ?? 0;
  const end = words[words.length - 1]?.end ?? 0;
  return {
    type: 'Results',
    channel_index: [0, 1],
    duration: end - start,
    start,
    is_final: true,
    speech_final: true,
    channel: { alternatives: [{ transcript: words.map((w) => w.word).join(' '), confidence: 0.99, words }] },
  };
}
