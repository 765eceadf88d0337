import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  authorization: string | undefined;
}

/** How the fake answers a chat completion: the assistant's text, or an HTTP error status. */
export type ChatBehaviour = { content: string } | { status: number };

/**
 * A real HTTP server speaking the OpenAI chat-completions protocol (`POST /v1/chat/completions`), for
 * tests that point LLM_BASE_URL at it. It records each request and answers as told.
 */
export class FakeOpenAi {
  readonly requests: ChatRequest[] = [];
  private behaviour: (request: ChatRequest) => ChatBehaviour = () => ({
    content: 'A friendly nudge from the fake model.',
  });
  private server: Server | null = null;
  baseUrl = '';

  static async start(): Promise<FakeOpenAi> {
    const fake = new FakeOpenAi();
    fake.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'not found' } }));
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<ChatRequest, 'authorization'>;
        const request = { model: body.model, messages: body.messages, authorization: req.headers.authorization };
        fake.requests.push(request);
        const answer = fake.behaviour(request);
        if ('status' in answer) {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'fake failure', type: 'server_error' } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${fake.requests.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: request.model,
            choices: [{ index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => fake.server?.listen(0, '127.0.0.1', resolve));
    const { port } = fake.server.address() as AddressInfo;
    fake.baseUrl = `http://127.0.0.1:${port}/v1`;
    return fake;
  }

  answer(behaviour: (request: ChatRequest) => ChatBehaviour): this {
    this.behaviour = behaviour;
    return this;
  }

  /** The user prompt of each request, in order. */
  prompts(): string[] {
    return this.requests.map((r) => r.messages.map((m) => m.content).join('\n'));
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
