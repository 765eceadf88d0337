import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import autocannon from 'autocannon';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a TypeScript server script in its own process and waits for its "ready" line. */
export async function startServer(
  script: string,
  env: Record<string, string>,
  cwd?: string,
): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd,
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before ready: ${out}`)));
  });
  return { child, port };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ duration: 8, connections: 50, ...options });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** Two seconds of the same load, not measured: a fresh process compiles its hot paths first. */
export async function warmUp(options: autocannon.Options): Promise<void> {
  await autocannon({ connections: 50, ...options, duration: 2 });
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** A bare `ws` server that only echoes `suggested_transcript` segments: the listen benchmarks' baseline. */
export const TRANSCRIPT_ECHO_SERVER = `
const { WebSocketServer } = require('ws');
const wss = new WebSocketServer({ port: Number(process.env.PORT), host: '127.0.0.1' });
wss.on('connection', (ws) => {
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    const message = JSON.parse(data.toString());
    if (message.type === 'suggested_transcript') ws.send(JSON.stringify(message.segments.map((s, i) => ({ id: String(i), ...s }))));
  });
});
wss.on('listening', () => console.log('ready'));
`;
