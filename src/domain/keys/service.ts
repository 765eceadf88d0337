import { randomUUID } from 'node:crypto';
import type { Clock } from '../../context-types.js';
import { AppError, Detail, invalidInput } from '../../errors.js';
import type { ApiKeyRow, ApiKeysRepository } from '../../store/repositories/api-keys.js';
import {
  DEV_KEY_PREFIX,
  DEV_SCOPES,
  type DevScope,
  effectiveScopes,
  generateKey,
  hashPresentedKey,
  isDevScope,
} from './dev-keys.js';

export interface DevKeyView {
  id: string;
  name: string;
  key_prefix: string;
  created_at: string;
  last_used_at: string | null;
  scopes: DevScope[];
}

export interface AuthenticatedKey {
  keyId: string;
  userId: string;
  scopes: readonly DevScope[];
}

// last_used_at is refreshed at most this often per key, so authentication stays a read on the hot path.
const TOUCH_INTERVAL_MS = 60_000;

export class DevKeysService {
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly clock: Clock,
  ) {}

  async create(
    userId: string,
    name: string,
    scopes: readonly string[] | null | undefined,
  ): Promise<DevKeyView & { key: string }> {
    const trimmed = name.trim();
    if (trimmed === '') throw invalidInput(['body', 'name'], Detail.keyNameEmpty);
    if (scopes?.some((s) => !isDevScope(s))) throw new AppError(400, Detail.invalidScopes(DEV_SCOPES));
    const generated = generateKey(DEV_KEY_PREFIX);
    const row: ApiKeyRow = {
      id: randomUUID(),
      user_id: userId,
      name: trimmed,
      hashed_key: generated.hashed,
      key_prefix: generated.prefix,
      scopes: scopes ? JSON.stringify([...new Set(scopes)]) : null,
      created_at: this.clock.now(),
      last_used_at: null,
    };
    await this.keys.insert(row);
    return { ...toView(row), key: generated.raw };
  }

  async list(userId: string): Promise<DevKeyView[]> {
    return (await this.keys.listForUser(userId)).map(toView);
  }

  async get(userId: string, keyId: string): Promise<DevKeyView | undefined> {
    const row = await this.keys.findById(userId, keyId);
    return row ? toView(row) : undefined;
  }

  /** Silent no-op for unknown or foreign ids (research/omi-rest.md §1.2: DELETE answers 204 either way). */
  /** An id that is not one of the caller's keys is a 404, as for app keys (never a hint that it exists). */
  async revoke(userId: string, keyId: string): Promise<void> {
    if (!(await this.keys.delete(userId, keyId))) throw new AppError(404, Detail.appKeyNotFound);
  }

  async authenticate(presented: string): Promise<AuthenticatedKey | null> {
    const hashed = hashPresentedKey(presented, DEV_KEY_PREFIX);
    if (!hashed) return null;
    const row = await this.keys.findByHash(hashed);
    if (!row) return null;
    const now = this.clock.now();
    if (now - (this.touched.get(row.id) ?? 0) >= TOUCH_INTERVAL_MS) {
      this.touched.set(row.id, now);
      await this.keys.touch(row.user_id, row.id, now);
    }
    return { keyId: row.id, userId: row.user_id, scopes: effectiveScopes(row.scopes) };
  }
}

function toView(row: ApiKeyRow): DevKeyView {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.key_prefix,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
    scopes: effectiveScopes(row.scopes),
  };
}
