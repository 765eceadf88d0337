import { OpusDecoder } from 'opus-decoder';
import { isKeepalive } from './keepalive.js';

/**
 * Opus packets of the listen stream (research/omi-listen.md §1.6): one raw packet per binary frame,
 * no Ogg container. Each stream owns one WASM decoder (about 0.25 MB), freed when the stream ends.
 */

/** RFC 6716 §3.4 [R2]: no single frame is longer than this. */
const MAX_FRAME_BYTES = 1275;
/** The decoder's input buffer (opus-decoder sizes it for 120 ms at 256 kb/s). */
const MAX_PACKET_BYTES = 3840;
const MAX_PACKET_MS = 120;

/** Frame duration in ms from the TOC byte's configuration number (RFC 6716 §3.1, table 2). */
function frameMs(toc: number): number {
  const config = toc >> 3;
  if (config < 12) return [10, 20, 40, 60][config & 3];
  if (config < 16) return [10, 20][config & 1];
  return [2.5, 5, 10, 20][config & 3];
}

/** Reads a frame length (one or two bytes, §3.2.1); null when the packet ends first. */
function readLength(packet: Uint8Array, at: number): { length: number; next: number } | null {
  if (at >= packet.length) return null;
  const first = packet[at];
  if (first < 252) return { length: first, next: at + 1 };
  if (at + 1 >= packet.length) return null;
  return { length: first + 4 * packet[at + 1], next: at + 2 };
}

/**
 * Why a packet breaks the framing rules of RFC 6716 §3.4 (R1–R7), or null when it is well formed.
 * The check runs before libopus sees the packet, so a malformed frame is dropped quietly instead
 * of reaching the decoder (which reports errors on the console).
 */
export function opusPacketProblem(packet: Uint8Array): string | null {
  if (packet.length === 0) return 'empty packet';
  if (packet.length > MAX_PACKET_BYTES) return `packet of ${packet.length} bytes is too long`;
  const payload = packet.length - 1;
  switch (packet[0] & 3) {
    case 0:
      return payload > MAX_FRAME_BYTES ? 'frame too long' : null;
    case 1:
      return payload % 2 !== 0 || payload / 2 > MAX_FRAME_BYTES ? 'two CBR frames of unequal size' : null;
    case 2: {
      const first = readLength(packet, 1);
      if (!first || first.length > packet.length - first.next) return 'first frame overruns the packet';
      return first.length > MAX_FRAME_BYTES || packet.length - first.next - first.length > MAX_FRAME_BYTES
        ? 'frame too long'
        : null;
    }
    default:
      return code3Problem(packet);
  }
}

/** §3.2.5: a frame-count byte, optional padding, then CBR or VBR frames. */
function code3Problem(packet: Uint8Array): string | null {
  if (packet.length < 2) return 'code 3 packet without a frame count';
  const count = packet[1] & 0x3f;
  if (count === 0 || count * frameMs(packet[0]) > MAX_PACKET_MS) return 'bad frame count';
  let at = 2;
  let padding = 0;
  if (packet[1] & 0x40) {
    let more = true;
    while (more) {
      if (at >= packet.length) return 'padding overruns the packet';
      const byte = packet[at++];
      padding += byte === 255 ? 254 : byte;
      more = byte === 255;
    }
  }
  let sizes = 0;
  if (packet[1] & 0x80) {
    for (let i = 0; i < count - 1; i++) {
      const frame = readLength(packet, at);
      if (!frame || frame.length > MAX_FRAME_BYTES) return 'bad VBR frame length';
      sizes += frame.length;
      at = frame.next;
    }
  }
  const rest = packet.length - at - padding - sizes;
  if (rest < 0) return 'frames overrun the packet';
  if (packet[1] & 0x80) return rest > MAX_FRAME_BYTES ? 'frame too long' : null;
  return rest % count !== 0 || rest / count > MAX_FRAME_BYTES ? 'CBR frames of unequal size' : null;
}

/** Decodes raw Opus packets to 16 kHz mono PCM16 LE (libopus resamples internally). */
export class OpusFrameDecoder {
  /** packets dropped as malformed or undecodable */
  dropped = 0;
  private freed = false;

  private constructor(private readonly decoder: OpusDecoder<16000>) {}

  static async open(): Promise<OpusFrameDecoder> {
    const decoder = new OpusDecoder({ sampleRate: 16000, channels: 1 });
    await decoder.ready;
    return new OpusFrameDecoder(decoder);
  }

  decode(frame: Buffer): Buffer {
    // The 320-zero-byte silence keepalive (SPEC §4.11) is no Opus packet: nothing to decode.
    if (this.freed || isKeepalive(frame)) return EMPTY;
    if (opusPacketProblem(frame) !== null) {
      this.dropped++;
      return EMPTY;
    }
    const decoded = this.decoder.decodeFrame(frame);
    if (decoded.errors.length > 0 || decoded.samplesDecoded === 0) {
      this.dropped++;
      return EMPTY;
    }
    return floatToPcm16(decoded.channelData[0], decoded.samplesDecoded);
  }

  free(): void {
    if (this.freed) return;
    this.freed = true;
    this.decoder.free();
  }
}

const EMPTY = Buffer.alloc(0);

function floatToPcm16(samples: Float32Array, count: number): Buffer {
  const out = Buffer.allocUnsafe(count * 2);
  for (let i = 0; i < count; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    out.writeInt16LE(Math.round(s < 0 ? s * 32768 : s * 32767), i * 2);
  }
  return out;
}
