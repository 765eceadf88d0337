/**
 * The last minute of a stream's audio (research/omi-listen.md §1.7: a 60 s ring buffer for speaker
 * identification), addressed by stream position: sample n is the n-th sample since the first byte.
 */
export class AudioRing {
  private readonly data: Int16Array;
  /** samples received so far (the stream position of the next sample) */
  private written = 0;
  private odd: number | null = null;

  constructor(readonly capacity: number) {
    this.data = new Int16Array(capacity);
  }

  get position(): number {
    return this.written;
  }

  /** Appends little-endian PCM16 bytes (an odd byte waits for the next chunk). */
  push(pcm: Buffer): void {
    let at = 0;
    if (this.odd !== null && pcm.length > 0) {
      this.write(Buffer.from([this.odd, pcm[0]]).readInt16LE(0));
      this.odd = null;
      at = 1;
    }
    for (; at + 1 < pcm.length; at += 2) this.write(pcm.readInt16LE(at));
    if (at < pcm.length) this.odd = pcm[at];
  }

  /** Samples [start, end) that are still held; null when none of the span is. */
  cut(start: number, end: number): Int16Array | null {
    const from = Math.max(Math.floor(start), this.written - this.capacity, 0);
    const to = Math.min(Math.ceil(end), this.written);
    if (to <= from) return null;
    const out = new Int16Array(to - from);
    for (let i = 0; i < out.length; i++) out[i] = this.data[(from + i) % this.capacity];
    return out;
  }

  private write(sample: number): void {
    this.data[this.written % this.capacity] = sample;
    this.written++;
  }
}
