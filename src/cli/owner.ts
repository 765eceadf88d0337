import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import { DEV_SCOPES } from '../domain/keys/dev-keys.js';
import { DevKeysService } from '../domain/keys/service.js';
import { UsersService } from '../domain/users/service.js';
import { ApiKeysRepository } from '../store/repositories/api-keys.js';
import { UsersRepository } from '../store/repositories/users.js';

/** The marker rows of one-time start-up steps (migration 0080). */
export interface BootstrapClaimsTable {
  name: string;
  user_id: string;
  created_at: number;
}

declare module '../store/schema.js' {
  interface Database {
    bootstrap_claims: BootstrapClaimsTable;
  }
}

export interface CreatedOwner {
  uid: string;
  key: string;
}

/**
 * Creates the owner account and its developer key on an empty database, or returns null. Race-free
 * across processes: the marker row's insert is the transaction's first statement, so a second
 * process waits on it (PostgreSQL's unique index, SQLite's write lock) and then finds it taken;
 * the owner is written in the same transaction, so a crash leaves neither behind.
 */
export async function claimOwner(ctx: AppContext): Promise<CreatedOwner | null> {
  if (await ctx.users.anyExists()) return null;
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return ctx.store.db.transaction().execute(async (tx) => {
    const uid = randomUUID();
    const now = ctx.clock.now();
    const claimed = await tx
      .insertInto('bootstrap_claims')
      .values({ name: 'owner', user_id: uid, created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) === 0) return null;
    // An operator may have added users (keepsake admin) before this first start: no owner then.
    const users = new UsersService(new UsersRepository(tx), ctx.clock, ctx.secret, null);
    if (await users.anyExists()) return null;
    await users.create({ id: uid, name: 'Owner', timezone });
    const keys = new DevKeysService(new ApiKeysRepository(tx), ctx.clock);
    const key = await keys.create(uid, 'owner (first start)', [...DEV_SCOPES]);
    return { uid, key: key.key };
  });
}
