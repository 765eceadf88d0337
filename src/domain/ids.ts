import { randomFillSync } from 'node:crypto';

/**
 * UUID version 7 (RFC 9562): a millisecond timestamp followed by random bits. Rows written together get
 * neighbouring ids, so inserting a batch (100 transcript segments, say) touches a few index pages at the
 * end of the primary-key index instead of one random page per row. The wall clock is read directly: the
 * timestamp only orders ids and carries no meaning for the product.
 *
 * Ids are made on the ingest hot path (one per transcript segment), so the string is assembled from a
 * byte-to-hex table and the timestamp's text is reused within its millisecond.
 */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

// Random bytes are drawn from a pool: one system call per 512 ids instead of one per id.
const RANDOM_BYTES = 10;
const pool = new Uint8Array(RANDOM_BYTES * 512);
let poolOffset = pool.length;

let lastMs = 0;
let counter = 0;
let timePrefix = '';

export function timeOrderedId(): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const r = poolOffset;
  poolOffset += RANDOM_BYTES;

  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    // Start each millisecond at a random point in the lower half, leaving room to count up.
    counter = ((pool[r + 8] << 8) | pool[r + 9]) & 0x7ff;
    timePrefix = timeText(now);
  } else if (++counter > 0xfff) {
    // More than 2,048 ids in one millisecond: borrow the next millisecond to stay ordered.
    lastMs++;
    counter = 0;
    timePrefix = timeText(lastMs);
  }
  // 12 bits of counter after the version nibble; the variant bits 10 then 62 random bits.
  return (
    `${timePrefix}-7${HEX[counter >> 8].slice(1)}${HEX[counter & 0xff]}-` +
    `${HEX[(pool[r] & 0x3f) | 0x80]}${HEX[pool[r + 1]]}-` +
    `${HEX[pool[r + 2]]}${HEX[pool[r + 3]]}${HEX[pool[r + 4]]}${HEX[pool[r + 5]]}${HEX[pool[r + 6]]}${HEX[pool[r + 7]]}`
  );
}

/** `xxxxxxxx-xxxx`: the 48-bit millisecond timestamp of a UUIDv7. */
function timeText(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}`;
}
