import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, promises as fs } from 'node:fs';
import { basename, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { detectSherpaModel } from '../stt/sherpa.js';

/**
 * `keepsake models download` (DESIGN §6): fetches the recommended sherpa-onnx models on a machine
 * with internet. Nothing else in Keepsake downloads anything; the server only reads what is here.
 */

export interface ModelSource {
  url: string;
  /** hex SHA-256 of the file when known: a mismatch fails the download */
  sha256: string | null;
}

/** sherpa-onnx's English streaming zipformer (encoder/decoder/joiner + tokens.txt, int8 variants included). */
export const RECOMMENDED_STT: ModelSource = {
  url: 'https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/sherpa-onnx-streaming-zipformer-en-2023-06-26.tar.bz2',
  sha256: null,
};

/** WeSpeaker ResNet34 trained on VoxCeleb: 256-d embeddings, as SPEAKER_MODEL needs (SPEC §6.1). */
export const RECOMMENDED_SPEAKER: ModelSource = {
  url: 'https://github.com/k2-fsa/sherpa-onnx/releases/download/speaker-recongition-models/wespeaker_en_voxceleb_resnet34.onnx',
  sha256: null,
};

const CONNECT_TIMEOUT_MS = 30_000;

export class DownloadError extends Error {}

export interface Downloaded {
  path: string;
  bytes: number;
  sha256: string;
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/** Told of the bytes received so far and the total when the server sent one. */
export type DownloadProgress = (bytes: number, total: number | null) => void;

/** Streams `source` to `target` (via a .part file), checking the length and the SHA-256 when known. */
export async function downloadFile(
  source: ModelSource,
  target: string,
  onProgress?: DownloadProgress,
): Promise<Downloaded> {
  let response: Response;
  try {
    response = await fetch(source.url, { redirect: 'follow', signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS) });
  } catch (err) {
    throw new DownloadError(`cannot reach ${source.url} (${causeOf(err)}); is this machine online?`);
  }
  if (!response.ok || !response.body)
    throw new DownloadError(`${source.url} answered HTTP ${response.status}; check the URL`);
  const expected = Number(response.headers.get('content-length') ?? Number.NaN);
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      onProgress?.(bytes, Number.isFinite(expected) ? expected : null);
      done(null, chunk);
    },
  });
  const part = `${target}.${randomUUID().slice(0, 8)}.part`;
  try {
    await pipeline(
      Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>),
      meter,
      createWriteStream(part, { mode: 0o600 }),
    );
    if (Number.isFinite(expected) && expected !== bytes)
      throw new DownloadError(`download of ${source.url} stopped at ${bytes} of ${expected} bytes`);
    const sha256 = hash.digest('hex');
    if (source.sha256 && source.sha256.toLowerCase() !== sha256)
      throw new DownloadError(`SHA-256 of ${basename(source.url)} is ${sha256}, expected ${source.sha256}`);
    await fs.rename(part, target);
    return { path: target, bytes, sha256 };
  } catch (err) {
    await fs.rm(part, { force: true });
    if (err instanceof DownloadError) throw err;
    throw new DownloadError(`download of ${source.url} failed (${causeOf(err)})`);
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.once('error', (err) => reject(new DownloadError(`cannot run ${command}: ${err.message}`)));
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new DownloadError(`${command} failed: ${stderr.trim().slice(0, 300)}`)),
    );
  });
}

/**
 * tar run as root keeps the archive's modes whatever the umask: the unpacked files are made private
 * like the rest of DATA_DIR (0700 directories, 0600 files). Symbolic links are left alone (chmod follows them).
 */
async function makePrivate(dir: string): Promise<void> {
  await fs.chmod(dir, 0o700);
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) await fs.chmod(path, 0o700);
    else if (entry.isFile()) await fs.chmod(path, 0o600);
  }
}

/** The archive's name without its extensions: the directory it unpacks to by convention. */
function archiveStem(url: string): string {
  return basename(new URL(url).pathname).replace(/\.(tar\.bz2|tar\.gz|tgz|tar)$/, '');
}

export interface SttModelResult {
  dir: string;
  files: Record<string, string>;
  /** size and SHA-256 of the archive (removed after unpacking) */
  bytes: number;
  sha256: string;
}

/**
 * Downloads a streaming-transducer archive into `modelsDir` and unpacks it with the system `tar`
 * (staged, then moved into place, so a broken archive leaves nothing behind).
 */
export async function downloadSttModel(
  source: ModelSource,
  modelsDir: string,
  onProgress?: DownloadProgress,
): Promise<SttModelResult> {
  await fs.mkdir(modelsDir, { recursive: true, mode: 0o700 });
  const stem = archiveStem(source.url);
  const archive = await downloadFile(source, join(modelsDir, `${stem}.download`), onProgress);
  const staging = join(modelsDir, `.extract-${randomUUID().slice(0, 8)}`);
  try {
    await fs.mkdir(staging, { mode: 0o700 });
    await run('tar', ['-xf', archive.path, '-C', staging]);
    await makePrivate(staging);
    const entries = await fs.readdir(staging);
    // Releases unpack to one directory (its name is the model's); a flat archive is the model itself.
    const single = entries.length === 1 ? join(staging, entries[0]) : null;
    const root = single && detectSherpaModel(single).ok ? single : staging;
    if (!detectSherpaModel(root).ok)
      throw new DownloadError(
        `${basename(source.url)} holds no streaming transducer model (encoder, decoder and joiner .onnx files and tokens.txt)`,
      );
    const target = join(modelsDir, root === staging ? stem : basename(root));
    if (existsSync(target)) throw new DownloadError(`${target} already exists; remove it to download again`);
    await fs.rename(root, target);
    const files = detectSherpaModel(target);
    if (!files.ok) throw new DownloadError(files.reason);
    return { dir: target, files: { ...files.files }, bytes: archive.bytes, sha256: archive.sha256 };
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
    await fs.rm(archive.path, { force: true });
  }
}
