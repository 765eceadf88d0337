/** 16-bit little-endian PCM ↔ samples. */

/** An odd trailing byte is dropped. */
export function bufferToSamples(bytes: Buffer | Uint8Array): Int16Array {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Int16Array(Math.floor(view.length / 2));
  for (let i = 0; i < out.length; i++) out[i] = view.readInt16LE(i * 2);
  return out;
}

export function samplesToBuffer(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i], i * 2);
  return out;
}
