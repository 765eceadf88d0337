/** SPEC §4.11: the silence keepalive is 320 zero bytes; an all-zero frame is never compressed audio worth decoding. */
export function isKeepalive(frame: Buffer): boolean {
  for (let i = 0; i < frame.length; i++) if (frame[i] !== 0) return false;
  return true;
}
