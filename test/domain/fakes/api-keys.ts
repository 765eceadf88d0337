import type { ApiKeyRow, ApiKeysRepository } from '../../../src/store/repositories/api-keys.js';
import { asPort, newestFirst, OwnedRows } from './port.js';

type Used = 'insert' | 'listForUser' | 'findById' | 'findByHash' | 'touch' | 'delete';

/** Developer keys in memory; `touches` counts the last-used writes (the hot path should rarely write). */
export class FakeApiKeys extends OwnedRows<ApiKeyRow> implements Pick<ApiKeysRepository, Used> {
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

  async findByHash(hashedKey: string): Promise<ApiKeyRow | undefined> {
    return this.rows.find((k) => k.hashed_key === hashedKey);
  }

  async touch(userId: string, keyId: string, at: number): Promise<void> {
    this.touches++;
    const row = await this.findById(userId, keyId);
    if (row) row.last_used_at = at;
  }
}
