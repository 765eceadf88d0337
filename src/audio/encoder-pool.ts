import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * Encodes clips on worker threads (one per core, at most `size`), so a part's MP3 encoding never
 * blocks the event loop of the process serving live streams, and a build with many parts still to
 * encode uses every core. Workers start on first use and are reused; they do not keep the process
 * alive.
 */

interface Pending {
  samples: Int16Array;
  resolve(clip: Buffer): void;
  reject(err: Error): void;
}

interface Reply {
  id: number;
  clip?: Uint8Array;
  error?: string;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
}

// Compiled (dist/), the worker is plain JavaScript; from source it goes through tsx like its parent.
const COMPILED = import.meta.url.endsWith('.js');
const BOOT = COMPILED
  ? `import(${JSON.stringify(new URL('./encode-worker.js', import.meta.url).href)});`
  : `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./encode-worker.ts', import.meta.url).href)}); });`;

export type ClipEncoder = (samples: Int16Array) => Promise<Buffer>;

export class EncoderPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private closed = false;

  constructor(private readonly size = Math.max(1, Math.min(4, availableParallelism()))) {}

  readonly encode: ClipEncoder = (samples) =>
    new Promise<Buffer>((resolve, reject) => {
      if (this.closed) throw new Error('the MP3 encoder pool is closed');
      this.queue.push({ samples, resolve, reject });
      this.pump();
    });

  /** Stops every worker; clips still queued fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the MP3 encoder pool is closed'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.busy === null) ?? this.spawn();
      if (!slot) return;
      const pending = this.queue.shift();
      if (!pending) return;
      slot.busy = pending;
      slot.worker.ref();
      slot.worker.postMessage({ id: this.nextId++, samples: pending.samples });
    }
  }

  private spawn(): Slot | null {
    if (this.slots.length >= this.size) return null;
    // The sources run through tsx (bin/keepsake.js): the worker registers it before loading its module.
    const worker = new Worker(BOOT, { eval: true });
    const slot: Slot = { worker, busy: null };
    worker.on('message', (reply: Reply) => this.settle(slot, reply));
    worker.on('error', (err) => this.fail(slot, err));
    worker.on('exit', (code) => this.fail(slot, new Error(`MP3 encoder worker exited with ${code}`)));
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private settle(slot: Slot, reply: Reply): void {
    const pending = slot.busy;
    slot.busy = null;
    slot.worker.unref();
    if (pending) {
      if (reply.clip) pending.resolve(Buffer.from(reply.clip.buffer, reply.clip.byteOffset, reply.clip.byteLength));
      else pending.reject(new Error(reply.error ?? 'MP3 encoding failed'));
    }
    this.pump();
  }

  /** A worker that died fails its clip and leaves the pool; the next clip starts a new one. */
  private fail(slot: Slot, err: Error): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    slot.busy?.reject(err);
    slot.busy = null;
    if (!this.closed) this.pump();
  }
}
