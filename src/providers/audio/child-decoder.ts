import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

type Child = ChildProcessByStdio<Writable, Readable, null>;

/**
 * A decoder that runs in another process (Debian's ffmpeg for AAC, liblc3's dlc3 for LC3): frames
 * go to its stdin, PCM16 LE comes back on its stdout and is handed on as it arrives. The process is
 * started on the first frame and again if it ends mid-stream (a crash or dlc3's sample limit).
 */
export interface ChildDecoderSpec {
  command: string;
  args: string[];
  /** written once to a fresh process before any frame (dlc3's file header) */
  preamble?: Buffer;
  /** bytes of container header the process writes before its PCM (dlc3's WAV header) */
  skipBytes?: number;
  /**
   * After stdin is closed: how many PCM bytes are real audio (dlc3 goes on writing silence up to
   * its sample count, so it is stopped there); null when the process ends by itself (ffmpeg).
   */
  expectedBytes?: (framesWritten: number) => number | null;
}

const FINISH_TIMEOUT_MS = 10_000;

export class ChildDecoder {
  /** frames written to the current process */
  private frames = 0;
  private child: Child | null = null;
  private skip = 0;
  private delivered = 0;
  private limit: number | null = null;
  private ended: Promise<void> = Promise.resolve();
  private freed = false;

  constructor(
    private readonly spec: ChildDecoderSpec,
    private readonly onPcm: (pcm: Buffer) => void,
  ) {}

  write(chunk: Buffer): void {
    if (this.freed) return;
    const child = this.child ?? this.start();
    this.frames++;
    child.stdin.write(chunk);
  }

  /** Closes stdin and waits (at most 10 s) for the last PCM of the frames already written. */
  async finish(): Promise<void> {
    const child = this.child;
    if (!child || this.freed) return;
    this.limit = this.spec.expectedBytes?.(this.frames) ?? null;
    child.stdin.end();
    if (this.limit !== null && this.delivered >= this.limit) child.kill();
    const timer = setTimeout(() => child.kill(), FINISH_TIMEOUT_MS);
    await this.ended;
    clearTimeout(timer);
  }

  free(): void {
    this.freed = true;
    this.child?.kill();
    this.child = null;
  }

  private start(): Child {
    const child = spawn(this.spec.command, this.spec.args, { stdio: ['pipe', 'pipe', 'ignore'] as const });
    this.child = child;
    this.frames = 0;
    this.skip = this.spec.skipBytes ?? 0;
    this.delivered = 0;
    this.limit = null;
    // A decoder that dies mid-write (EPIPE) is replaced on the next frame; the error itself says nothing more.
    child.stdin.on('error', () => undefined);
    child.on('error', () => undefined);
    child.stdout.on('data', (data: Buffer) => this.output(child, data));
    this.ended = new Promise((resolve) => child.on('close', () => resolve()));
    child.on('exit', () => {
      if (this.child === child) this.child = null;
    });
    if (this.spec.preamble) child.stdin.write(this.spec.preamble);
    return child;
  }

  private output(child: Child, data: Buffer): void {
    let pcm = data;
    if (this.skip > 0) {
      const skipped = Math.min(this.skip, pcm.length);
      this.skip -= skipped;
      pcm = pcm.subarray(skipped);
    }
    if (this.limit !== null) pcm = pcm.subarray(0, Math.max(0, this.limit - this.delivered));
    if (pcm.length > 0) {
      this.delivered += pcm.length;
      if (!this.freed) this.onPcm(pcm);
    }
    if (this.limit !== null && this.delivered >= this.limit) child.kill();
  }
}
