import { randomFillSync } from 'node:crypto';

/**
 * UUID version 7 (RFC 9562): a millisecond timestamp followed by random bits. Rows written together get
 * neighbouring ids, so inserting a batch (100 transcript segments, say) touches a few index pages at the
 * end of the primary-key index instead of one random page per row. The wall clock is read directly: the
 * timestamp only orders ids and carries no meaning for the product.
 */
let lastMs = 0;
let counter = 0;
// Random bytes are drawn from a pool: one system call per 409 ids instead of one per id.
const pool = Buffer.alloc(4090);
let poolOffset = pool.length;

function randomBytes10(): Buffer {
  if (poolOffset + 10 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 10;
  return pool.subarray(poolOffset - 10, poolOffset);
}

export function timeOrderedId(): string {
  let ms = Date.now();
  const random = randomBytes10();
  if (ms > lastMs) {
    lastMs = ms;
    // Start each millisecond at a random point in the lower half, leaving room to count up.
    counter = random.readUInt16BE(0) & 0x7ff;
  } else {
    ms = lastMs;
    counter++;
    if (counter > 0xfff) {
      lastMs = ++ms;
      counter = 0;
    }
  }
  const hex = ms.toString(16).padStart(12, '0');
  const versionAndCounter = (0x7000 | counter).toString(16);
  const variant = ((random[2] & 0x3f) | 0x80).toString(16) + random.toString('hex', 3, 4);
  return `${hex.slice(0, 8)}-${hex.slice(8)}-${versionAndCounter}-${variant}-${random.toString('hex', 4, 10)}`;
}
