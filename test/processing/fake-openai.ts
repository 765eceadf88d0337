import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake server answers to one request. */
export interface FakeReply {
  status?: number;
  /** an object becomes the assistant message's content as JSON; a string is sent as the content verbatim */
  content?: unknown;
  /** sent as the raw HTTP body instead of a chat completion */
  rawBody?: string;
  delayMs?: number;
}

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format: { type: string; json_schema: { name: string; strict: boolean; schema: Record<string, unknown> } };
  };
}

export interface FakeServer {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function completion(content: unknown): string {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  return JSON.stringify({
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model: 'fake-model',
    choices: [
      { index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop', logprobs: null },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, reply: FakeReply): void {
  if (response.destroyed) return;
  const status = reply.status ?? 200;
  // retry-after-ms keeps the client's retry backoff short in tests.
  response.writeHead(status, { 'content-type': 'application/json', 'retry-after-ms': '10' });
  response.end(
    reply.rawBody ?? (status === 200 ? completion(reply.content) : JSON.stringify({ error: { message: 'boom' } })),
  );
}

/** An OpenAI-compatible /v1/chat/completions on 127.0.0.1:0 that answers by the requested schema name. */
export async function startFakeOpenAi(
  answer: (schemaName: string, request: RecordedRequest) => FakeReply,
): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    readBody(request).then(
      (raw) => {
        const recorded: RecordedRequest = {
          path: request.url ?? '',
          authorization: request.headers.authorization,
          body: JSON.parse(raw) as RecordedRequest['body'],
        };
        requests.push(recorded);
        const reply = answer(recorded.body.response_format.json_schema.name, recorded);
        const timer = setTimeout(() => send(response, reply), reply.delayMs ?? 0);
        response.on('close', () => clearTimeout(timer));
      },
      (error: unknown) => {
        response.writeHead(400);
        response.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
