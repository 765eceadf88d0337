import { spawnSync } from 'node:child_process';
import { ChildDecoder } from './child-decoder.js';
import { isKeepalive } from './keepalive.js';

/**
 * AAC (`codec=aac`, research/omi-listen.md §1.6): ADTS frames, one per binary message, decoded by
 * Debian's ffmpeg straight to 16 kHz mono PCM16. The ADTS headers carry the real rate and channels.
 * ffmpeg reads a second of frames before its first output, then keeps pace with the stream.
 */

const ARGS = [
  ...['-hide_banner', '-loglevel', 'error', '-nostats'],
  ...['-fflags', '+nobuffer', '-probesize', '32', '-analyzeduration', '0'],
  ...['-f', 'aac', '-i', 'pipe:0'],
  ...['-ac', '1', '-ar', '16000', '-f', 's16le', '-flush_packets', '1', 'pipe:1'],
];
const EMPTY = Buffer.alloc(0);

let installed: boolean | undefined;

/** Whether an ffmpeg with an AAC decoder is on the PATH. */
export function aacDecoderInstalled(): boolean {
  if (installed !== undefined) return installed;
  const probe = spawnSync('ffmpeg', ['-hide_banner', '-decoders'], { encoding: 'utf8', timeout: 5000 });
  installed = probe.status === 0 && /^\s*A\S*\s+aac\s/m.test(probe.stdout);
  return installed;
}

export class AacFrameDecoder {
  private readonly child: ChildDecoder;

  constructor(onPcm: (pcm: Buffer) => void) {
    this.child = new ChildDecoder({ command: 'ffmpeg', args: ARGS }, onPcm);
  }

  decode(frame: Buffer): Buffer {
    if (!isKeepalive(frame)) this.child.write(frame);
    return EMPTY;
  }

  finish(): Promise<void> {
    return this.child.finish();
  }

  free(): void {
    this.child.free();
  }
}
