import type { FastifyRequest } from 'fastify';
import type { Services } from '../../context.js';
import { AppError } from '../../errors.js';
import { sessionUser } from '../../http/auth.js';

/** What a page handler knows about the signed-in user. */
export interface WebUser {
  uid: string;
  name: string;
  timezone: string;
}

/** The user of a page behind `ctx.auth.session()`; a deleted account goes back to the sign-in page. */
export async function currentUser(ctx: Services, request: FastifyRequest): Promise<WebUser> {
  const uid = sessionUser(request);
  const row = await ctx.users.get(uid);
  if (!row) throw new AppError(401, 'Unknown user');
  return { uid, name: row.name, timezone: row.timezone };
}
