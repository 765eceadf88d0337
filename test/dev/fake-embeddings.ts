import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible embeddings server (`POST /v1/embeddings`). Vectors are bags of hashed words,
 * so texts sharing words are close in cosine terms. `fail` makes it answer 500.
 */
export interface FakeEmbeddings {
  url: string;
  requests: Array<{ path: string; authorization: string | undefined; model: string; input: string[] }>;
  fail: boolean;
  close(): Promise<void>;
}

const DIMS = 64;

export function embedText(text: string): number[] {
  const vector = new Array<number>(DIMS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let hash = 0;
    for (const ch of word) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
    vector[hash % DIMS] += 1;
  }
  return vector;
}

async function readJson(request: IncomingMessage): Promise<{ model?: string; input?: string[] }> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export async function startFakeEmbeddings(): Promise<FakeEmbeddings> {
  const fake: FakeEmbeddings = { url: '', requests: [], fail: false, close: async () => undefined };
  const server: Server = createServer((request, response) => {
    readJson(request)
      .then((body) => {
        const input = body.input ?? [];
        fake.requests.push({
          path: request.url ?? '',
          authorization: request.headers.authorization,
          model: body.model ?? '',
          input,
        });
        if (fake.fail || request.method !== 'POST' || request.url !== '/v1/embeddings') {
          response.writeHead(fake.fail ? 500 : 404, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: 'unavailable' } }));
          return;
        }
        const data = input.map((text, index) => ({ object: 'embedding', index, embedding: embedText(text) }));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }),
        );
      })
      .catch((err: Error) => {
        response.writeHead(400);
        response.end(err.message);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}
