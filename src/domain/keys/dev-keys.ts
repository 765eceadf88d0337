import { createHash, randomBytes } from 'node:crypto';

/** research/omi-rest.md §1.1, DESIGN §7: `omi_dev_` + 32 hex; only SHA-256 of the hex part is stored. */
export const DEV_KEY_PREFIX = 'omi_dev_';

export const DEV_SCOPES = [
  'conversations:read',
  'conversations:write',
  'memories:read',
  'memories:write',
  'action_items:read',
  'action_items:write',
  'goals:read',
  'goals:write',
] as const;
export type DevScope = (typeof DEV_SCOPES)[number];

export const READ_ONLY_SCOPES: readonly DevScope[] = [
  'conversations:read',
  'memories:read',
  'action_items:read',
  'goals:read',
];

export interface GeneratedKey {
  raw: string;
  hashed: string;
  prefix: string;
}

export function hashSecret(hexPart: string): string {
  return createHash('sha256').update(hexPart).digest('hex');
}

/** A new secret `<prefix><32 hex>` with its stored hash and display prefix (`<prefix>abcd...wxyz`). */
export function generateKey(prefix: string): GeneratedKey {
  const hex = randomBytes(16).toString('hex');
  return { raw: prefix + hex, hashed: hashSecret(hex), prefix: `${prefix}${hex.slice(0, 4)}...${hex.slice(-4)}` };
}

/** The hash to look up for a presented key, or null when it is not of the `<prefix><32 hex>` form. */
export function hashPresentedKey(presented: string, prefix: string): string | null {
  if (!presented.startsWith(prefix)) return null;
  const hex = presented.slice(prefix.length);
  return /^[0-9a-f]{32}$/.test(hex) ? hashSecret(hex) : null;
}

export function isDevScope(value: string): value is DevScope {
  return (DEV_SCOPES as readonly string[]).includes(value);
}

/** Stored scopes (JSON or null) → the effective list; null means the read-only default. */
export function effectiveScopes(stored: string | null): DevScope[] {
  if (stored === null) return [...READ_ONLY_SCOPES];
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((s): s is DevScope => typeof s === 'string' && isDevScope(s)) : [];
}
