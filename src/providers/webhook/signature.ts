import { createHmac } from 'node:crypto';

/**
 * DESIGN §7: `X-Keepsake-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` keyed with the
 * app secret. A receiver recomputes it over the raw body and rejects old timestamps to stop replays.
 */
export const SIGNATURE_HEADER = 'x-keepsake-signature';

export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
