import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BIN } from '../cli/server-process.js';

export interface RpcMessage {
  jsonrpc: '2.0';
  id?: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** `keepsake mcp` as a child process, spoken to over its stdin/stdout, one JSON-RPC message per line. */
export class McpProcess {
  private nextId = 1;
  private readonly waiting = new Map<number | string | null, (message: RpcMessage) => void>();
  readonly received: RpcMessage[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as RpcMessage;
      this.received.push(message);
      const id = message.id ?? null;
      this.waiting.get(id)?.(message);
      this.waiting.delete(id);
    });
    child.stderr.on('data', (c: Buffer) => {
      this.stderr += c.toString();
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  static start(env: NodeJS.ProcessEnv): McpProcess {
    const child = spawn(process.execPath, [BIN, 'mcp'], { env: { PATH: process.env.PATH, ...env }, stdio: 'pipe' });
    return new McpProcess(child);
  }

  /** Sends a raw line and waits for the answer carrying `id` (null for parse errors). */
  sendRaw(line: string, id: number | string | null): Promise<RpcMessage> {
    const answer = new Promise<RpcMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${line}\nstderr: ${this.stderr}`)), 30_000);
      this.waiting.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    this.child.stdin.write(`${line}\n`);
    return answer;
  }

  request(method: string, params: Record<string, unknown> = {}): Promise<RpcMessage> {
    const id = this.nextId++;
    return this.sendRaw(JSON.stringify({ jsonrpc: '2.0', id, method, params }), id);
  }

  notify(method: string, params: Record<string, unknown> = {}): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }

  async initialize(protocolVersion = '2025-06-18'): Promise<RpcMessage> {
    const answer = await this.request('initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'keepsake-test', version: '1.0.0' },
    });
    this.notify('notifications/initialized');
    return answer;
  }

  async callTool(name: string, args: Record<string, unknown>) {
    const answer = await this.request('tools/call', { name, arguments: args });
    const result = answer.result as { content: Array<{ type: string; text: string }>; isError: boolean } | undefined;
    return { answer, result, text: result?.content[0]?.text ?? '' };
  }

  async close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}
