import { createReadStream, promises as fs } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';

/**
 * Where audio bytes live (DESIGN §1: DATA_DIR holds the audio files). Keys are relative paths of
 * safe segments (`<uid>/<conversation>/parts/<id>.pcm`); the database holds what they mean.
 */
export interface AudioObjectStore {
  readonly kind: 'local' | 'memory' | 's3';
  /** Writes the whole object, replacing any previous one (readers never see a partial write). */
  put(key: string, data: Buffer): Promise<void>;
  /**
   * Writes `data` at byte `offset` of an existing object and drops anything after it: appending,
   * in a form that a retry after a failure repeats without duplicating bytes.
   */
  writeAt(key: string, offset: number, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  size(key: string): Promise<number | null>;
  /** Bytes start..end inclusive; resolves once the bytes can be read (a store that is down fails here). */
  stream(key: string, start: number, end: number): Promise<Readable>;
  delete(key: string): Promise<void>;
  /** Deletes every object under `prefix/`. */
  deletePrefix(prefix: string): Promise<void>;
}

const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Refuses keys that could leave the store's root (ids come from the server, but check anyway). */
export function checkKey(key: string): string {
  const parts = key.split('/');
  if (parts.length === 0 || parts.some((p) => !SAFE_SEGMENT.test(p) || p.includes('..')))
    throw new Error(`invalid audio key: ${key}`);
  return key;
}

export function audioKey(...segments: string[]): string {
  return checkKey(segments.join('/'));
}

/** Files under a directory (`DATA_DIR/audio` by default). */
export class LocalAudioStore implements AudioObjectStore {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    const path = join(this.root, ...checkKey(key).split('/'));
    if (!path.startsWith(this.root + sep)) throw new Error(`invalid audio key: ${key}`);
    return path;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const path = this.path(key);
    // Captured audio is the user's own voice: private to the server's account (docs/deployment.md).
    await fs.mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(temp, data, { mode: 0o600 });
    await fs.rename(temp, path);
  }

  async writeAt(key: string, offset: number, data: Buffer): Promise<void> {
    const file = await fs.open(this.path(key), 'r+');
    try {
      await file.truncate(offset);
      await file.write(data, 0, data.length, offset);
    } finally {
      await file.close();
    }
  }

  async get(key: string): Promise<Buffer | null> {
    return fs.readFile(this.path(key)).catch(ifMissing(null));
  }

  async size(key: string): Promise<number | null> {
    const stat = await fs.stat(this.path(key)).catch(ifMissing(null));
    return stat ? stat.size : null;
  }

  async stream(key: string, start: number, end: number): Promise<Readable> {
    return createReadStream(this.path(key), { start, end });
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.path(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fs.rm(this.path(prefix), { recursive: true, force: true });
  }
}

/** Process memory: the store of an in-memory test server (DATA_DIR=:memory:). */
export class MemoryAudioStore implements AudioObjectStore {
  readonly kind = 'memory' as const;
  private readonly objects = new Map<string, Buffer>();

  async put(key: string, data: Buffer): Promise<void> {
    this.objects.set(checkKey(key), Buffer.from(data));
  }

  async writeAt(key: string, offset: number, data: Buffer): Promise<void> {
    const previous = this.objects.get(checkKey(key));
    if (!previous) throw new Error(`no audio object ${key}`);
    this.objects.set(key, Buffer.concat([previous.subarray(0, offset), data]));
  }

  async get(key: string): Promise<Buffer | null> {
    return this.objects.get(checkKey(key)) ?? null;
  }

  async size(key: string): Promise<number | null> {
    return this.objects.get(checkKey(key))?.length ?? null;
  }

  async stream(key: string, start: number, end: number): Promise<Readable> {
    const data = this.objects.get(checkKey(key)) ?? Buffer.alloc(0);
    return Readable.from([data.subarray(start, end + 1)]);
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(checkKey(key));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const base = `${checkKey(prefix)}/`;
    for (const key of [...this.objects.keys()]) if (key.startsWith(base)) this.objects.delete(key);
  }

  /** Keys present (tests check that deletes remove bytes). */
  keys(): string[] {
    return [...this.objects.keys()];
  }
}

function ifMissing<T>(fallback: T): (err: NodeJS.ErrnoException) => T {
  return (err) => {
    if (err.code === 'ENOENT') return fallback;
    throw err;
  };
}
