import { parentPort } from 'node:worker_threads';
import { encodeClip } from './mp3.js';

/** A worker thread of the clip encoder pool (encoder-pool.ts): encodes one clip per message. */

interface Request {
  id: number;
  samples: Int16Array;
}

const port = parentPort;
if (!port) throw new Error('encode-worker.ts runs as a worker thread');
port.on('message', (request: Request) => {
  encodeClip(request.samples).then(
    (clip) => port.postMessage({ id: request.id, clip }),
    (err: unknown) => port.postMessage({ id: request.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
