import { spawnSync } from 'node:child_process';
import { ChildDecoder } from './child-decoder.js';
import { isKeepalive } from './keepalive.js';
import { pcm16ToWav } from './wav.js';

/**
 * LC3 (`codec=lc3_fs1030`, research/omi-listen.md §1.6): one LC3 frame of 10 ms per binary message
 * (30 bytes from Omi devices; the frame's length is its bitrate), decoded by `dlc3` from Debian's
 * liblc3-tools (Google's liblc3). The tool reads liblc3's own file format: a header, then each
 * frame behind its 16-bit length, so the stream is written to it in that format.
 */

const LC3_FILE_ID = 0xcc1c;
/** liblc3 frame limits (LC3_MIN_FRAME_BYTES, LC3_MAX_FRAME_BYTES) */
const MIN_FRAME_BYTES = 20;
const MAX_FRAME_BYTES = 400;
const FRAME_US = 10_000;
/** the header's sample count: far beyond any stream, and below what dlc3 adds its delay to without overflow */
const STREAM_SAMPLES = 0x7fff0000;
/** dlc3 writes a 44-byte WAV header before the samples */
const WAV_HEADER_BYTES = 44;
const EMPTY = Buffer.alloc(0);

let tools: { headerSize: number } | null | undefined;

/**
 * Whether liblc3's tools are installed, and the header size they use (18 bytes in 1.0, 20 from 1.1
 * with the high-resolution flag): `elc3` encodes 20 ms of silence and its header says.
 */
export function lc3Tools(): { headerSize: number } | null {
  if (tools !== undefined) return tools;
  const encoded = spawnSync('elc3', ['-b', '24000'], {
    input: pcm16ToWav(Buffer.alloc(640), 16000),
    stdio: ['pipe', 'pipe', 'ignore'],
    timeout: 5000,
  });
  const decoder = spawnSync('dlc3', ['-h'], { stdio: 'ignore', timeout: 5000 });
  const out = encoded.stdout;
  tools =
    encoded.status === 0 && decoder.error === undefined && out && out.length >= 4 && out.readUInt16LE(0) === LC3_FILE_ID
      ? { headerSize: out.readUInt16LE(2) }
      : null;
  return tools;
}

function header(size: number, sampleRate: number): Buffer {
  const fields = [LC3_FILE_ID, size, sampleRate / 100, 240, 1, FRAME_US / 10, 0, STREAM_SAMPLES & 0xffff];
  const out = Buffer.alloc(size);
  for (const [i, value] of fields.entries()) out.writeUInt16LE(value, i * 2);
  out.writeUInt16LE(STREAM_SAMPLES >>> 16, 16);
  return out;
}

/** Decodes LC3 frames at the stream's rate; PCM16 arrives through onPcm about every 128 ms. */
export class Lc3FrameDecoder {
  /** frames dropped: outside liblc3's 20–400 byte range */
  dropped = 0;
  private readonly child: ChildDecoder;

  constructor(sampleRate: number, headerSize: number, onPcm: (pcm: Buffer) => void) {
    const frameSamples = sampleRate / 100;
    // liblc3 delays its output by 2.5 ms at 10 ms frames; dlc3 drops that much from the first frame.
    const delay = sampleRate / 400;
    this.child = new ChildDecoder(
      {
        command: 'dlc3',
        args: [],
        preamble: header(headerSize, sampleRate),
        skipBytes: WAV_HEADER_BYTES,
        expectedBytes: (frames) => Math.max(0, frames * frameSamples - delay) * 2,
      },
      onPcm,
    );
  }

  decode(frame: Buffer): Buffer {
    if (isKeepalive(frame)) return EMPTY;
    if (frame.length < MIN_FRAME_BYTES || frame.length > MAX_FRAME_BYTES) {
      this.dropped++;
      return EMPTY;
    }
    const length = Buffer.alloc(2);
    length.writeUInt16LE(frame.length);
    this.child.write(Buffer.concat([length, frame]));
    return EMPTY;
  }

  finish(): Promise<void> {
    return this.child.finish();
  }

  free(): void {
    this.child.free();
  }
}
