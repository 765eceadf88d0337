import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../schema.js';
import type { AppEnablementsTable, AppKeysTable, AppsTable } from './apps-tables.js';
import { type Db, deletedAny, updatedAny } from './shared.js';

export type AppRow = Selectable<AppsTable>;
export type AppKeyRow = Selectable<AppKeysTable>;
export type EnablementRow = Selectable<AppEnablementsTable>;
export type EnabledApp = AppRow & { granted_scopes: string };

/**
 * Apps are shared records: the owner manages them and any user may enable them. Lookups by app id
 * alone exist for that reason (like a key lookup by hash); everything that touches one user's
 * state (enablement, listing) takes that user's id first.
 */
export class AppsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<AppsTable>, key: Insertable<AppKeysTable>): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('apps').values(row).execute();
      await tx.insertInto('app_keys').values(key).execute();
    });
  }

  /** The app, including a soft-deleted one (the integration gates tell them apart). */
  async findById(appId: string): Promise<AppRow | undefined> {
    return this.db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirst();
  }

  /** Apps the user owns or has enabled, newest first, with the user's grants (null: not enabled). */
  async listVisibleTo(userId: string): Promise<Array<AppRow & { granted_scopes: string | null }>> {
    return this.db
      .selectFrom('apps as a')
      .leftJoin('app_enablements as e', (join) => join.onRef('e.app_id', '=', 'a.id').on('e.user_id', '=', userId))
      .selectAll('a')
      .select('e.granted_scopes')
      .where('a.deleted_at', 'is', null)
      .where((eb) => eb.or([eb('a.owner_id', '=', userId), eb('e.user_id', '=', userId)]))
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .execute();
  }

  async updateOwned(ownerId: string, appId: string, patch: Updateable<AppsTable>): Promise<boolean> {
    return updatedAny(
      this.db
        .updateTable('apps')
        .set(patch)
        .where('owner_id', '=', ownerId)
        .where('id', '=', appId)
        .where('deleted_at', 'is', null),
    );
  }

  async insertKey(row: Insertable<AppKeysTable>): Promise<void> {
    await this.db.insertInto('app_keys').values(row).execute();
  }

  async listKeys(appId: string): Promise<AppKeyRow[]> {
    return this.db
      .selectFrom('app_keys')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async deleteKey(appId: string, keyId: string): Promise<boolean> {
    return deletedAny(this.db.deleteFrom('app_keys').where('app_id', '=', appId).where('id', '=', keyId));
  }

  /** A key of this app with the given hash: a key of another app never matches (SPEC §5). */
  async findKey(appId: string, hashedKey: string): Promise<AppKeyRow | undefined> {
    return this.db
      .selectFrom('app_keys')
      .selectAll()
      .where('app_id', '=', appId)
      .where('hashed_key', '=', hashedKey)
      .executeTakeFirst();
  }

  async touchKey(appId: string, keyId: string, at: number): Promise<void> {
    await this.db
      .updateTable('app_keys')
      .set({ last_used_at: at })
      .where('app_id', '=', appId)
      .where('id', '=', keyId)
      .execute();
  }

  /** Enables (or re-enables with fresh grants) the app for the user. */
  async enable(userId: string, appId: string, grantedScopes: string, at: number): Promise<void> {
    await this.db
      .insertInto('app_enablements')
      .values({ user_id: userId, app_id: appId, granted_scopes: grantedScopes, enabled_at: at })
      .onConflict((oc) =>
        oc.columns(['user_id', 'app_id']).doUpdateSet({ granted_scopes: grantedScopes, enabled_at: at }),
      )
      .execute();
  }

  async disable(userId: string, appId: string): Promise<boolean> {
    return deletedAny(this.db.deleteFrom('app_enablements').where('user_id', '=', userId).where('app_id', '=', appId));
  }

  async findEnablement(userId: string, appId: string, tx: Db = this.db): Promise<EnablementRow | undefined> {
    return tx
      .selectFrom('app_enablements')
      .selectAll()
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .executeTakeFirst();
  }

  /** Apps with this user's grants (null granted_scopes: not enabled), in one query for the delivery path. */
  async findManyWithEnablement(
    userId: string,
    appIds: readonly string[],
  ): Promise<Array<AppRow & { granted_scopes: string | null }>> {
    if (appIds.length === 0) return [];
    return this.db
      .selectFrom('apps as a')
      .leftJoin('app_enablements as e', (join) => join.onRef('e.app_id', '=', 'a.id').on('e.user_id', '=', userId))
      .selectAll('a')
      .select('e.granted_scopes')
      .where('a.id', 'in', [...appIds])
      .execute();
  }

  /** The user's enabled, live apps that carry a summarization prompt (the caller checks the capability). */
  async enabledWithMemoryPrompt(userId: string): Promise<EnabledApp[]> {
    return this.enabledLive(userId).where('a.memory_prompt', 'is not', null).execute();
  }

  /** The user's enabled, live apps whose webhook fires on this trigger. */
  async enabledWithTrigger(userId: string, trigger: string): Promise<EnabledApp[]> {
    return this.enabledLive(userId)
      .where('a.triggers_on', '=', trigger)
      .where('a.webhook_url', 'is not', null)
      .execute();
  }

  /** The user's enabled apps that are not deleted, with the grants, by app id. */
  private enabledLive(userId: string) {
    return this.db
      .selectFrom('app_enablements as e')
      .innerJoin('apps as a', 'a.id', 'e.app_id')
      .selectAll('a')
      .select('e.granted_scopes')
      .where('e.user_id', '=', userId)
      .where('a.deleted_at', 'is', null)
      .orderBy('a.id');
  }
}
