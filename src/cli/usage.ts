import type { AppContext } from '../context.js';

/** A command-line usage error: printed with the usage text, exit code 2. */
export class UsageError extends Error {}

export function requireOption(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

export function csv(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The uid, when that account exists in the store this command opened; else a usage error that says
 * which store it read, since an admin command run without the server's DATA_DIR opens another one.
 */
export async function existingUser(ctx: AppContext, uid: string): Promise<string> {
  if (await ctx.users.exists(uid)) return uid;
  const store = ctx.config.databaseUrl !== null ? 'the database at DATABASE_URL' : `DATA_DIR ${ctx.config.dataDir}`;
  throw new UsageError(`no user with uid ${uid} in ${store} (give the server's DATA_DIR or DATABASE_URL)`);
}
