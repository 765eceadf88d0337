// Performance: 200 concurrent real-time 16 kHz PCM16 streams with client transcripts
// against `keepsake serve` (SQLite) in its own process, and the same load against a bare `ws`
// server that only echoes the transcript (the baseline). CPU and RSS come from /proc/<pid>.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { cpuSeconds, rssBytes } from './cpu.js';
import { fmt, freePort, TRANSCRIPT_ECHO_SERVER } from './support.js';

const STREAMS = Number(process.env.BENCH_LISTEN_STREAMS ?? 200);
const SECONDS = Number(process.env.BENCH_LISTEN_SECONDS ?? 20);
const FRAME_MS = 100;
const FRAME = Buffer.alloc((16_000 * 2 * FRAME_MS) / 1000); // 100 ms of 16 kHz PCM16

interface Target {
  child: ChildProcess;
  url: (n: number) => string;
  headers: Record<string, string>;
}

async function startBaseline(): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', TRANSCRIPT_ECHO_SERVER], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitForOutput(child, (out) => out.includes('ready'));
  return { child, url: () => `ws://127.0.0.1:${port}/`, headers: {} };
}

async function startKeepsake(dataDir: string): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/keepsake.js', 'serve'], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      STT_PROVIDER: 'none',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const out = await waitForOutput(child, (text) => /session token:\s+\S+/.test(text));
  const token = /session token:\s+(\S+)/.exec(out)?.[1] ?? '';
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(100);
  }
  const url = (n: number) =>
    `ws://127.0.0.1:${port}/v4/listen?codec=pcm16&sample_rate=16000&custom_stt=enabled&client_conversation_id=${uuid(n)}`;
  return { child, url, headers: { authorization: `Bearer ${token}` } };
}

function waitForOutput(child: ChildProcess, done: (out: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (done(out)) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

interface StreamsResult {
  cpuPercent: number;
  cpuPerAudio: number;
  p50: number;
  p99: number;
  rssPerStream: number;
  transcripts: number;
}

/** Opens the streams, sends real-time audio and one client transcript per second each, measures. */
async function drive(target: Target): Promise<StreamsResult> {
  const pid = target.child.pid ?? 0;
  await sleep(500);
  const idleRss = rssBytes(pid);
  const sockets = await Promise.all(Array.from({ length: STREAMS }, (_, n) => open(target, n)));
  const latencies: number[] = [];
  const sentAt = new Map<string, number>();
  for (const ws of sockets) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      if (!text.startsWith('[')) return;
      for (const segment of JSON.parse(text) as Array<{ text: string }>) {
        const started = sentAt.get(segment.text);
        if (started !== undefined) latencies.push(performance.now() - started);
      }
    });
  }
  await sleep(1000);
  const cpuBefore = cpuSeconds(pid);
  const wallBefore = performance.now();
  let tick = 0;
  const timers = sockets.map((ws, n) =>
    setInterval(() => {
      ws.send(FRAME);
      if ((tick + n) % 10 === 0) {
        const text = `stream ${n} says something at ${tick}`;
        sentAt.set(text, performance.now());
        ws.send(
          JSON.stringify({
            type: 'suggested_transcript',
            segments: [{ text, start: tick / 10, end: tick / 10 + 0.9 }],
          }),
        );
      }
    }, FRAME_MS),
  );
  const ticker = setInterval(() => tick++, FRAME_MS);
  await sleep(SECONDS * 1000);
  for (const timer of timers) clearInterval(timer);
  clearInterval(ticker);
  const wall = (performance.now() - wallBefore) / 1000;
  const cpu = cpuSeconds(pid) - cpuBefore;
  const loadedRss = rssBytes(pid);
  await sleep(500);
  for (const ws of sockets) ws.close(1000);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? Number.NaN;
  return {
    cpuPercent: (cpu / wall) * 100,
    cpuPerAudio: cpu / (STREAMS * wall),
    p50: pct(0.5),
    p99: pct(0.99),
    rssPerStream: (loadedRss - idleRss) / STREAMS,
    transcripts: latencies.length,
  };
}

function open(target: Target, n: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(target.url(n), { headers: target.headers });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const baseline = await startBaseline();
  const bare = await drive(baseline).finally(() => stop(baseline.child));
  const dataDir = mkdtempSync(join(tmpdir(), 'keepsake-bench-listen-'));
  try {
    const keepsake = await startKeepsake(dataDir);
    const ours = await drive(keepsake).finally(() => stop(keepsake.child));
    const verdict = (ok: boolean) => (ok ? 'ok' : 'OVER TARGET');
    return {
      name: `listen: ${STREAMS} real-time 16 kHz PCM16 streams, client transcripts, ${SECONDS} s (SQLite)`,
      lines: [
        `server CPU: ${fmt(ours.cpuPercent)}% of one core (${fmt(ours.cpuPercent / 2)}% of 2 cores; target < 50%: ${verdict(ours.cpuPercent < 50)}); bare ws server ${fmt(bare.cpuPercent)}% → ratio ${fmt(ours.cpuPercent / bare.cpuPercent, 2)}x`,
        `server CPU time / audio time: ${fmt(ours.cpuPerAudio * 1000, 3)} ms per audio second (${(ours.cpuPerAudio * 100).toFixed(4)}%); bare ws ${fmt(bare.cpuPerAudio * 1000, 3)} ms`,
        `transcript event latency: p50 ${fmt(ours.p50)} ms, p99 ${fmt(ours.p99)} ms (target < 100 ms: ${verdict(ours.p99 < 100)}); bare ws p50 ${fmt(bare.p50)} ms, p99 ${fmt(bare.p99)} ms → p99 ratio ${fmt(ours.p99 / bare.p99, 2)}x`,
        `memory: ${fmt(ours.rssPerStream / 1024)} KiB RSS per stream (target < 1024 KiB: ${verdict(ours.rssPerStream < 1024 * 1024)}); bare ws ${fmt(bare.rssPerStream / 1024)} KiB`,
        `transcripts measured: ${ours.transcripts} (bare ${bare.transcripts})`,
      ],
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
