import type { ApiKeyRow, ApiKeysRepository } from '../../../src/store/repositories/api-keys.js';
import { asPort, newestFirst } from './port.js';

type Used = 'insert' | 'listForUser' | 'findById' | 'findByHash' | 'touch' | 'delete';

/** Developer keys in memory; `touches` counts the last-used writes (the hot path should rarely write). */
export class FakeApiKeys implements Pick<ApiKeysRepository, Used> {
  readonly rows: ApiKeyRow[] = [];
  touches = 0;

  get port(): ApiKeysRepository {
    return asPort<ApiKeysRepository>(this);
  }

  async insert(row: ApiKeyRow): Promise<void> {
    this.rows.push({ ...row });
  }

  async listForUser(userId: string): Promise<ApiKeyRow[]> {
    return this.rows.filter((k) => k.user_id === userId).sort(newestFirst);
  }

  async findById(userId: string, keyId: string): Promise<ApiKeyRow | undefined> {
    return this.rows.find((k) => k.user_id === userId && k.id === keyId);
  }

  async findByHash(hashedKey: string): Promise<ApiKeyRow | undefined> {
    return this.rows.find((k) => k.hashed_key === hashedKey);
  }

  async touch(userId: string, keyId: string, at: number): Promise<void> {
    this.touches++;
    const row = await this.findById(userId, keyId);
    if (row) row.last_used_at = at;
  }

  async delete(userId: string, keyId: string): Promise<boolean> {
    const at = this.rows.findIndex((k) => k.user_id === userId && k.id === keyId);
    if (at >= 0) this.rows.splice(at, 1);
    return at >= 0;
  }
}
