import { Worker } from 'node:worker_threads';
import type { EngineReply, EngineResult, EngineTaskBody } from './engine-tasks.js';

/**
 * Runs local-engine tasks on a few worker threads, so the engine's CPU work uses every core and never
 * holds up the thread that answers requests. At most one task runs per thread; the rest wait in two
 * queues: `interactive` (what a request waits for) goes first, `background` (extraction jobs) gets every
 * BACKGROUND_EVERY-th free thread while both wait, so it keeps moving under load. Each queue is first
 * come, first served, except that a free thread takes a task whose input it parsed recently first.
 */

export type Lane = 'interactive' | 'background';

interface Queued {
  task: EngineTaskBody;
  resolve(result: EngineResult): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy: Queued | null;
  /** Content keys of the inputs the thread keeps parsed (the worker's own list, mirrored). */
  keys: Set<string>;
}

const BACKGROUND_EVERY = 3;
// How far into a queue a free thread looks for an input it already parsed (one parse is ~5 ms).
const AFFINITY_SCAN = 16;
// engine-worker.ts keeps as many.
const RECENT_INPUTS = 64;

// Compiled (dist/), the worker is plain JavaScript; from source it goes through tsx like its parent.
const COMPILED = import.meta.url.endsWith('.js');
const BOOT = COMPILED
  ? `import(${JSON.stringify(new URL('./engine-worker.js', import.meta.url).href)});`
  : `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./engine-worker.ts', import.meta.url).href)}); });`;

export class EnginePool {
  private readonly slots: Slot[] = [];
  private readonly lanes: Record<Lane, Queued[]> = { interactive: [], background: [] };
  private sinceBackground = 0;
  private nextId = 0;
  private closed = false;
  private readonly readyWaiters: Array<() => void> = [];

  constructor(readonly size: number) {}

  /** Resolves once a thread has loaded the engine (the threads are started if they were not). */
  whenReady(): Promise<void> {
    this.start();
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Starts the threads now (a server), instead of at the first task (each loads the engine: seconds). */
  start(): void {
    while (!this.closed && this.slots.length < this.size) this.spawn();
  }

  run(task: EngineTaskBody, lane: Lane): Promise<EngineResult> {
    if (this.closed) return Promise.reject(new Error('the engine pool is closed'));
    return new Promise<EngineResult>((resolve, reject) => {
      this.lanes[lane].push({ task, resolve, reject });
      this.start();
      this.pump();
    });
  }

  /** Whether a thread has loaded the engine (until then the pooled engine runs tasks in-process). */
  get ready(): boolean {
    return this.slots.some((slot) => slot.ready);
  }

  /** Tasks waiting for a thread. */
  get waiting(): number {
    return this.lanes.interactive.length + this.lanes.background.length;
  }

  /** Stops every thread; tasks still waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    const closed = new Error('the engine pool is closed');
    this.failWaiting(closed);
    const slots = this.slots.splice(0);
    for (const slot of slots) slot.busy?.reject(closed);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.busy) continue;
      const next = this.take(slot);
      if (!next) return;
      slot.busy = next;
      slot.keys.delete(next.task.key);
      slot.keys.add(next.task.key);
      if (slot.keys.size > RECENT_INPUTS) slot.keys.delete(slot.keys.values().next().value ?? '');
      slot.worker.ref();
      slot.worker.postMessage({ ...next.task, id: this.nextId++ });
    }
  }

  private take(slot: Slot): Queued | undefined {
    const { interactive, background } = this.lanes;
    const backgroundTurn =
      background.length > 0 && (interactive.length === 0 || this.sinceBackground >= BACKGROUND_EVERY - 1);
    const lane = backgroundTurn ? background : interactive;
    if (lane.length === 0) return undefined;
    this.sinceBackground = backgroundTurn ? 0 : this.sinceBackground + 1;
    let at = 0;
    for (let i = 0; i < Math.min(lane.length, AFFINITY_SCAN); i++) {
      if (slot.keys.has(lane[i].task.key)) {
        at = i;
        break;
      }
    }
    return lane.splice(at, 1)[0];
  }

  /** A thread keeps the process alive while it loads and while it works, not while it idles. */
  private spawn(): void {
    const worker = new Worker(BOOT, { eval: true });
    const slot: Slot = { worker, ready: false, busy: null, keys: new Set() };
    worker.on('message', (message: EngineReply | { ready: true }) => {
      if ('ready' in message) {
        slot.ready = true;
        worker.unref();
        for (const resolve of this.readyWaiters.splice(0)) resolve();
        this.pump();
      } else this.settle(slot, message);
    });
    worker.on('error', (err) => this.fail(slot, err));
    worker.on('exit', (code) => this.fail(slot, new Error(`engine worker exited with ${code}`)));
    this.slots.push(slot);
  }

  private settle(slot: Slot, reply: EngineReply): void {
    const pending = slot.busy;
    slot.busy = null;
    slot.worker.unref();
    if (pending) {
      if (reply.error === undefined) pending.resolve(reply.result);
      else pending.reject(new Error(reply.error));
    }
    // After the caller's continuation has run: the next step of the same conversation (parsed here)
    // is queued by then and can take this thread.
    setImmediate(() => this.pump());
  }

  /** A thread that died fails its task and leaves the pool; one that never started fails every waiting task. */
  private fail(slot: Slot, err: Error): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    slot.busy?.reject(err);
    slot.busy = null;
    if (this.closed) return;
    if (!slot.ready) {
      this.failWaiting(err);
      return;
    }
    this.start();
    this.pump();
  }

  private failWaiting(err: Error): void {
    for (const lane of Object.values(this.lanes)) for (const queued of lane.splice(0)) queued.reject(err);
  }
}
